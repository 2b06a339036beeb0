package spec

import "strings"

// Anchor is where a path starts from, by one OS's rules. It is the one
// home for how a directory and a path are joined: cd, the policy's
// judgement and the plan read a path the way the OS will, so that "\etc"
// on Windows is judged where it leads (the current drive's root), not
// below the current directory.
type Anchor uint8

const (
	// Relative paths start at the current directory: "x", "./x".
	Relative Anchor = iota
	// Absolute paths name their place alone: "/x" on POSIX; "C:\x",
	// `\\server\share\x` and `\\?\C:\x` on Windows.
	Absolute
	// DriveRooted paths start at the root of the current directory's
	// drive (Windows "\x" and "/x").
	DriveRooted
	// DriveRelative paths start at a drive's own current directory
	// (Windows "C:x").
	DriveRelative
)

// PathAnchor says where p starts from under Windows' rules (windows set)
// or POSIX's.
func PathAnchor(p string, windows bool) Anchor {
	if !windows {
		if strings.HasPrefix(p, "/") {
			return Absolute
		}
		return Relative
	}
	switch v := VolumeName(p, true); {
	case v == "":
		if p != "" && isSlash(p[0]) {
			return DriveRooted
		}
		return Relative
	case len(v) == 2 && v[1] == ':' && (len(p) == 2 || !isSlash(p[2])):
		return DriveRelative
	}
	return Absolute
}

// VolumeName is the leading volume of p under Windows' rules: "C:",
// `\\server\share`, `\\?\C:`, `\\?\UNC\server\share`, `\\.\device`, as
// path/filepath reads it on Windows; "" on POSIX, which has none.
func VolumeName(p string, windows bool) string {
	if !windows {
		return ""
	}
	if len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) {
		return p[:2]
	}
	if len(p) < 2 || !isSlash(p[0]) || !isSlash(p[1]) {
		return ""
	}
	if len(p) >= 4 && (p[2] == '?' || p[2] == '.') && isSlash(p[3]) {
		// A device path: \\?\C:, \\?\UNC\server\share, \\.\pipe.
		rest := p[4:]
		if len(rest) >= 4 && strings.EqualFold(rest[:3], "UNC") && isSlash(rest[3]) {
			return p[:4+4+elements(rest[4:], 2)]
		}
		return p[:4+elements(rest, 1)]
	}
	return p[:2+elements(p[2:], 2)]
}

// elements is the length of the first n slash-separated elements of p.
func elements(p string, n int) int {
	i := 0
	for n > 0 {
		for i < len(p) && !isSlash(p[i]) {
			i++
		}
		n--
		if n > 0 && i < len(p) {
			i++
		}
	}
	return i
}

// JoinPath is the path p names when the current directory is dir (an
// absolute path), by Windows' rules or POSIX's; it is not cleaned. A
// drive-relative path on another drive starts at that drive's root:
// chainrun keeps no current directory per drive.
func JoinPath(dir, p string, windows bool) string {
	sep := "/"
	if windows {
		sep = `\`
	}
	switch PathAnchor(p, windows) {
	case Absolute:
		return p
	case DriveRooted:
		return VolumeName(dir, windows) + p
	case DriveRelative:
		if !strings.EqualFold(p[:2], VolumeName(dir, true)) {
			return p[:2] + sep + p[2:]
		}
		p = p[2:]
	}
	if p == "" {
		return dir
	}
	if strings.HasSuffix(dir, sep) || windows && strings.HasSuffix(dir, "/") {
		return dir + p
	}
	return dir + sep + p
}

// IsRootPath reports a path that names the root of a whole file system:
// "/" on POSIX; a drive's or a share's root on Windows ("C:\", `\\srv\share`,
// `\\?\C:\`), with or without its trailing separator where the volume
// alone names it.
func IsRootPath(p string, windows bool) bool {
	if !windows {
		return strings.Trim(p, "/") == "" && p != ""
	}
	v := VolumeName(p, true)
	rest := p[len(v):]
	if v == "" || len(rest) > 1 || rest != "" && !isSlash(rest[0]) {
		return false
	}
	// "C:" alone is drive C's current directory, not its root.
	return rest != "" || !(len(v) == 2 && v[1] == ':')
}

func isSlash(c byte) bool { return c == '/' || c == '\\' }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// PlainPath is p without a Windows device prefix that names a drive or a
// share ("\\?\C:\x" and "\\.\C:\x" are "C:\x"; "\\?\UNC\srv\share\x" is
// "\\srv\share\x"), so that every spelling of one file compares as one:
// roots, rules and the files a chain names are judged in that form. Other
// paths, and every path on POSIX, are returned as they are.
func PlainPath(p string, windows bool) string {
	if !windows || len(p) < 4 || !isSlash(p[0]) || !isSlash(p[1]) || p[2] != '?' && p[2] != '.' || !isSlash(p[3]) {
		return p
	}
	rest := p[4:]
	switch {
	case len(rest) >= 2 && rest[1] == ':' && isASCIILetter(rest[0]) && (len(rest) == 2 || isSlash(rest[2])):
		return rest
	case len(rest) >= 4 && strings.EqualFold(rest[:3], "UNC") && isSlash(rest[3]):
		return p[:2] + rest[4:]
	}
	return p
}
