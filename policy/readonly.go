package policy

import "strings"

// isReadOnly reports the commands the opt-in read-only mode allows
// without a rule. git is left out on purpose: a repository's own
// configuration can make git run programs (core.fsmonitor, core.pager,
// diff drivers).
func isReadOnly(name string) bool {
	switch name {
	case "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "find", "sort", "uniq", "cut", "tr",
		"diff", "cmp", "file", "stat", "du", "df", "pwd", "echo", "true", "false", "which", "basename", "dirname",
		"realpath", "readlink", "tree", "jq", "nl", "seq", "whoami", "id", "uname", "date", "sha256sum", "sha1sum",
		"md5sum", "sha512sum", "b2sum", "cksum", "od", "column", "comm", "paste", "fold", "expand", "unexpand",
		"rev", "tac", "sed", "printf":
		return true
	}
	return false
}

// readOnlyReason says why args (the allow view) may run without a rule, or
// returns "" when it may not. The dangerous-flag guard applies first.
func readOnlyReason(args []string) (ok bool, why string) {
	name := canonicalName(args[0])
	if name != args[0] || !isReadOnly(name) {
		return false, ""
	}
	if g := guard(args); g != "" {
		return false, g
	}
	if name == "sed" && !sedPrintOnly(args[1:]) {
		return false, "sed is read-only only in its print form (sed -n 'Np')"
	}
	return true, ""
}

// sedPrintOnly accepts sed -n with a script of print commands: "5p",
// "1,10p", "$p", "/re/p", several joined by ";".
func sedPrintOnly(args []string) bool {
	quiet := false
	var script []string
	for _, a := range args {
		switch {
		case a == "-n" || a == "--quiet" || a == "--silent":
			quiet = true
		case strings.HasPrefix(a, "-"):
			return false
		default:
			script = append(script, a)
		}
	}
	if !quiet || len(script) == 0 {
		return false
	}
	for _, cmd := range strings.Split(script[0], ";") {
		if !printCommand(strings.TrimSpace(cmd)) {
			return false
		}
	}
	return true
}

func printCommand(c string) bool {
	if !strings.HasSuffix(c, "p") {
		return false
	}
	addr := c[:len(c)-1]
	if addr == "" || addr == "$" {
		return true
	}
	one := func(a string) bool {
		if a == "$" {
			return true
		}
		if len(a) >= 2 && a[0] == '/' && a[len(a)-1] == '/' {
			return !strings.ContainsAny(a[1:len(a)-1], "/\\")
		}
		if a == "" {
			return false
		}
		for i := 0; i < len(a); i++ {
			if a[i] < '0' || a[i] > '9' {
				return false
			}
		}
		return true
	}
	if x, y, ok := strings.Cut(addr, ","); ok {
		return one(x) && one(y)
	}
	return one(addr)
}
