package resolve

import "strings"

// Windows path arithmetic, written out so that the Windows rules run (and
// are tested) on every OS: path/filepath only knows the host's syntax.

func isWinSep(c byte) bool { return c == '\\' || c == '/' }

// winVolume returns the volume prefix of p: "C:", `\\host\share`, or a
// whole device path (`\\?\…`, `\\.\…`), which Windows never normalises.
func winVolume(p string) string {
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		return p[:2]
	}
	if len(p) >= 4 && isWinSep(p[0]) && isWinSep(p[1]) && (p[2] == '?' || p[2] == '.') && isWinSep(p[3]) {
		return p
	}
	if len(p) >= 2 && isWinSep(p[0]) && isWinSep(p[1]) {
		// UNC: \\host\share
		i := 2
		for i < len(p) && !isWinSep(p[i]) {
			i++
		}
		if i == 2 || i == len(p) {
			return p[:i]
		}
		j := i + 1
		for j < len(p) && !isWinSep(p[j]) {
			j++
		}
		return p[:j]
	}
	return ""
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// winIsAbs reports whether p names the same file whatever the current
// directory and drive: `C:\x`, `\\host\share\x`, `\\?\…`. `\x` (current
// drive) and `C:x` (current directory of drive C) are relative.
func winIsAbs(p string) bool {
	v := winVolume(p)
	if v == "" {
		return false
	}
	if len(v) == 2 && v[1] == ':' {
		return len(p) > 2 && isWinSep(p[2])
	}
	return true
}

// winClean removes "." and ".." elements and doubled separators and
// writes every separator as `\`. Device paths are returned unchanged.
func winClean(p string) string {
	v := winVolume(p)
	if v == p && len(v) >= 4 && (v[2] == '?' || v[2] == '.') {
		return p
	}
	rest := p[len(v):]
	rooted := len(rest) > 0 && isWinSep(rest[0])
	var stack []string
	for _, e := range strings.FieldsFunc(rest, func(r rune) bool { return r == '\\' || r == '/' }) {
		switch {
		case e == ".":
		case e == "..":
			if n := len(stack); n > 0 && stack[n-1] != ".." {
				stack = stack[:n-1]
			} else if !rooted {
				stack = append(stack, e)
			}
		default:
			stack = append(stack, e)
		}
	}
	out := strings.ReplaceAll(v, "/", `\`)
	if rooted || (strings.HasPrefix(out, `\\`) && len(stack) > 0) {
		out += `\`
	}
	out += strings.Join(stack, `\`)
	if out == "" {
		return "."
	}
	return out
}

// winJoin joins and cleans path elements, skipping empty ones.
func winJoin(elem ...string) string {
	var b strings.Builder
	for _, e := range elem {
		if e == "" {
			continue
		}
		if b.Len() > 0 && !isWinSep(b.String()[b.Len()-1]) {
			b.WriteByte('\\')
		}
		b.WriteString(e)
	}
	return winClean(b.String())
}

// winBase returns the last element of p (after the last separator or the
// drive's colon).
func winBase(p string) string {
	i := strings.LastIndexAny(p, `\/:`)
	return p[i+1:]
}

// trimDotsSpaces removes the trailing dots and spaces Windows strips from
// a path's last element ("a.bat. ." is a.bat). A name made only of dots
// and spaces is left alone.
func trimDotsSpaces(p string) string {
	if len(p) >= 4 && isWinSep(p[0]) && isWinSep(p[1]) && p[2] == '?' {
		return p // \\?\ paths reach the file system verbatim
	}
	base := winBase(p)
	t := strings.TrimRight(base, ". ")
	if t == "" {
		return p
	}
	return p[:len(p)-len(base)] + t
}

// winExt returns the lowercased extension of p's last element after
// trimming trailing dots and spaces, "" if there is none.
func winExt(p string) string {
	base := winBase(trimDotsSpaces(p))
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return ""
	}
	return strings.ToLower(base[i:])
}
