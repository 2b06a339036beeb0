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
		b, stop = appendEscaped(b, a, utf8Locale)
		if stop {
			return b
		}
	}
	if newline {
		b = append(b, '\n')
	}
	return b
}

// appendEscaped expands echo -e escapes in s; stop is set by \c. A \u or
// \U character is written as appendUnicode says.
func appendEscaped(b []byte, s string, utf8Locale bool) (_ []byte, stop bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b = append(b, 7)
		case 'b':
			b = append(b, 8)
		case 'c':
			return b, true
		case 'e', 'E':
			b = append(b, 27)
		case 'f':
			b = append(b, 12)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, 11)
		case '\\':
			b = append(b, '\\')
		case '0':
			v, j := 0, i+1
			for ; j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7'; j++ {
				v = v*8 + int(s[j]-'0')
			}
			b = append(b, byte(v))
			i = j - 1
		case 'x', 'u', 'U':
			maxDigits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i]]
			v, j := 0, i+1
			for ; j < len(s) && j < i+1+maxDigits && isHex(s[j]); j++ {
				v = v*16 + hexVal(s[j])
			}
			if j == i+1 {
				b = append(b, '\\', s[i])
				continue
			}
			if s[i] == 'x' {
				b = append(b, byte(v))
			} else {
				b = appendUnicode(b, uint64(v), utf8Locale)
			}
			i = j - 1
		default:
			b = append(b, '\\', s[i])
		}
	}
	return b, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}
