package builtin

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// formatEscape writes the backslash escape at format[i] and returns the
// index after it (escapes in a format: appendEscape's inFormat).
func (p *printer) formatEscape(format string, i int) int {
	b, n, _, missing := appendEscape(p.out, format[i+1:], inFormat, p.utf8)
	p.out = b
	p.missingDigit(missing)
	return i + 1 + n
}

// expandB expands the escapes of a %b argument (appendEscape's
// inArgument); \c ends all of printf's output.
func (p *printer) expandB(s string) []byte {
	b, stop := appendEscapes(nil, s, inArgument, p.utf8, p.missingDigit)
	if stop {
		p.stop = true
	}
	return b
}

// missingDigit reports a \x, \u or \U without a digit as bash's printf
// does; the status stays.
func (p *printer) missingDigit(c byte) {
	switch c {
	case 'x':
		p.io.fail(0, "printf: missing hex digit for \\x")
	case 'u', 'U':
		p.io.fail(0, "printf: missing unicode digit for \\"+string(c))
	}
}

// appendUnicode writes a \u or \U character as bash does (echo -e,
// printf): ASCII as itself; in a UTF-8 locale the C library's UTF-8,
// which also encodes surrogates and values up to 0x7fffffff (in up to six
// bytes), and nothing above; elsewhere the escape again, as \uXXXX or
// \UXXXXXXXX.
func appendUnicode(b []byte, v uint64, utf8Locale bool) []byte {
	switch {
	case v < utf8.RuneSelf:
		return append(b, byte(v))
	case !utf8Locale:
		if v <= 0xffff {
			return append(b, "\\u"+hex(v, 4)...)
		}
		return append(b, "\\U"+hex(v, 8)...)
	case v > 0x7fffffff:
		return b
	}
	n := 2
	for v >= 1<<(5*n+1) {
		n++
	}
	out := make([]byte, n)
	for i := n - 1; i > 0; i-- {
		out[i] = 0x80 | byte(v&0x3f)
		v >>= 6
	}
	out[0] = byte(0xff<<(8-n)) | byte(v)
	return append(b, out...)
}

func hex(v uint64, width int) string {
	s := strings.ToUpper(strconv.FormatUint(v, 16))
	return strings.Repeat("0", max(0, width-len(s))) + s
}

// shellQuote is bash's %q: ” for nothing, $'...' when a character is not
// printable in the locale, else backslashes before what the shell would
// read specially.
func shellQuote(s string, utf8Locale bool) string {
	if s == "" {
		return "''"
	}
	if !allPrintable(s, utf8Locale) {
		return ansiQuote(s, utf8Locale)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\n'\"\\|&;()<>!{}*[?]^$`,", c) >= 0:
			b.WriteByte('\\')
		case c == '~' && (i == 0 || s[i-1] == '=' || s[i-1] == ':'):
			b.WriteByte('\\')
		case c == '#' && i == 0:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// allPrintable reports whether every character of s is printable: ASCII
// by C's isprint, and beyond ASCII only valid UTF-8 in a UTF-8 locale.
func allPrintable(s string, utf8Locale bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !utf8Locale || r == utf8.RuneError || !unicode.IsPrint(r) {
			return false
		}
		i += n
	}
	return true
}

// ansiQuote is bash's $'...' quoting.
func ansiQuote(s string, utf8Locale bool) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		c := s[i]
		if j := strings.IndexByte("\a\b\x1b\f\n\r\t\v\\'", c); j >= 0 {
			b.WriteString([]string{`\a`, `\b`, `\E`, `\f`, `\n`, `\r`, `\t`, `\v`, `\\`, `\'`}[j])
			i++
			continue
		}
		if c >= ' ' && c < 0x7f {
			b.WriteByte(c)
			i++
			continue
		}
		if r, n := utf8.DecodeRuneInString(s[i:]); utf8Locale && r != utf8.RuneError && unicode.IsPrint(r) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteString("\\" + strconv.FormatUint(uint64(c)|0o1000, 8)[1:])
		i++
	}
	b.WriteByte('\'')
	return b.String()
}

// strftime renders %(fmt)T: the argument is seconds since the epoch, -1
// or nothing the current time, -2 the time the shell started (here: the
// current time); the zone is the segment's TZ.
func (p *printer) strftime(format, arg string) string {
	var t time.Time
	switch v := int64(-1); {
	case arg != "":
		v = p.intArg(arg)
		fallthrough
	default:
		if v == -1 || v == -2 {
			t = time.Now()
		} else {
			t = time.Unix(v, 0)
		}
	}
	t = t.In(p.zone())
	if format == "" {
		format = "%X"
	}
	s := cStrftime(format, t)
	if len(s) >= 128 {
		return "" // bash's buffer: strftime gives up, and bash prints nothing
	}
	return s
}

// zone is the segment's TZ: a zone name, or UTC for an empty or unknown
// one, as the C library reads it; without TZ, the local zone.
func (p *printer) zone() *time.Location {
	tz, ok := lookup(p.env, "TZ")
	if !ok {
		return time.Local
	}
	tz = strings.TrimPrefix(tz, ":")
	if loc, err := time.LoadLocation(tz); err == nil && tz != "" {
		return loc
	}
	return time.UTC
}

// cStrftime is C's strftime in the C locale for the conversions bash
// users write.
func cStrftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 >= len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		for i+1 < len(format) && strings.IndexByte("EO_-0^#", format[i]) >= 0 {
			i++ // modifiers and flags: the C locale's plain form
		}
		b.WriteString(strftimeField(format[i], t))
	}
	return b.String()
}

// strftimeLayouts are the conversions a Go time layout renders as the C
// locale does, by conversion letter (a list the linker lays out, so that
// nothing is built at start).
var strftimeLayouts = [...]struct {
	c      byte
	layout string
}{
	{'a', "Mon"},
	{'A', "Monday"},
	{'b', "Jan"},
	{'h', "Jan"},
	{'B', "January"},
	{'c', "Mon Jan _2 15:04:05 2006"},
	{'D', "01/02/06"},
	{'F', "2006-01-02"},
	{'p', "PM"},
	{'r', "03:04:05 PM"},
	{'R', "15:04"},
	{'T', "15:04:05"},
	{'X', "15:04:05"},
	{'x', "01/02/06"},
	{'z', "-0700"},
	{'Z', "MST"},
}

func strftimeField(c byte, t time.Time) string {
	for _, l := range strftimeLayouts {
		if l.c == c {
			return t.Format(l.layout)
		}
	}
	d2 := func(n int) string { return pad2(n, "0") }
	switch c {
	case 'C':
		return d2(t.Year() / 100)
	case 'd':
		return d2(t.Day())
	case 'e':
		return pad2(t.Day(), " ")
	case 'g':
		y, _ := t.ISOWeek()
		return d2(y % 100)
	case 'G':
		y, _ := t.ISOWeek()
		return strconv.Itoa(y)
	case 'H':
		return d2(t.Hour())
	case 'I':
		return d2((t.Hour()+11)%12 + 1)
	case 'j':
		return strconv.Itoa(1000 + t.YearDay())[1:]
	case 'k':
		return pad2(t.Hour(), " ")
	case 'l':
		return pad2((t.Hour()+11)%12+1, " ")
	case 'm':
		return d2(int(t.Month()))
	case 'M':
		return d2(t.Minute())
	case 'n':
		return "\n"
	case 's':
		return strconv.FormatInt(t.Unix(), 10)
	case 'S':
		return d2(t.Second())
	case 't':
		return "\t"
	case 'u':
		return strconv.Itoa((int(t.Weekday())+6)%7 + 1)
	case 'U':
		return d2((t.YearDay() + 6 - int(t.Weekday())) / 7)
	case 'V':
		_, w := t.ISOWeek()
		return d2(w)
	case 'w':
		return strconv.Itoa(int(t.Weekday()))
	case 'W':
		return d2((t.YearDay() + 6 - (int(t.Weekday())+6)%7) / 7)
	case 'y':
		return d2(t.Year() % 100)
	case 'Y':
		return strconv.Itoa(t.Year())
	case '%':
		return "%"
	}
	return "%" + string(c)
}

// pad2 is n in at least two decimal digits, padded with pad.
func pad2(n int, pad string) string {
	s := strconv.Itoa(n)
	if len(s) < 2 {
		s = pad + s
	}
	return s
}
