package mcpserver

// procSubst is <(…) and >(…): run through /dev/fd on POSIX, refused on
// Windows, which has no /dev/fd.
var procSubst = construct{"<(…)", []string{"diff <(ls a) <(ls b)", "make 2>&1 | tee >(grep error > errors.log)"}}

// withProcSubst is list with procSubst added when on is set.
func withProcSubst(on bool, list []construct) []construct {
	if on {
		return append(list, procSubst)
	}
	return list
}
