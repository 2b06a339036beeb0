package builtin

import "strings"

// echo renders bash's builtin echo: leading words made only of -n, -e and
// -E letters are options; -e turns on backslash escapes, and \c stops all
// output.
func echo(args []string, utf8Locale bool) []byte {
	newline, escapes := true, false
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b []byte
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		if !escapes {
			b = append(b, a...)
			continue
		}
		var stop bool
		b, stop = appendEscapes(b, a, inEcho, utf8Locale, nil)
		if stop {
			return b
		}
	}
	if newline {
		b = append(b, '\n')
	}
	return b
}
