package builtin

import "strings"

// escapeMode is where a backslash escape is read. bash reads escapes in
// three places with one table (lib/sh/strtrans.c for echo -e,
// builtins/printf.def for printf) and these differences:
//
//	            \' \" \?    \c          \NNN (N octal)     \0NNN        \x \u without a digit
//	echo -e     kept        ends all    kept as written    octal        kept
//	format      the char    kept        octal              \0NN, N      kept, with a message
//	%b          kept        ends all    octal              octal        kept, with a message
//
// "kept" is the backslash and the character, as written.
type escapeMode uint8

const (
	inEcho     escapeMode = iota // echo -e
	inFormat                     // printf's format
	inArgument                   // printf's %b argument
)

// appendEscape appends the escape whose text after the backslash is s,
// read as mode says, and returns how much of s it used; stop is set by a
// \c that ends all output, missing by a \x, \u or \U without a digit in
// printf (bash then says "missing hex digit for \x" and goes on).
func appendEscape(b []byte, s string, mode escapeMode, utf8Locale bool) (_ []byte, used int, stop bool, missing byte) {
	if s == "" {
		return append(b, '\\'), 0, false, 0
	}
	c := s[0]
	if simple := strings.IndexByte("abeEfnrtv\\", c); simple >= 0 {
		return append(b, "\a\b\x1b\x1b\f\n\r\t\v\\"[simple]), 1, false, 0
	}
	switch {
	case c == '\'' || c == '"' || c == '?':
		if mode == inFormat {
			return append(b, c), 1, false, 0
		}
	case c == 'c':
		if mode != inFormat {
			return b, 1, true, 0
		}
	case c >= '0' && c <= '7':
		if mode == inEcho && c != '0' {
			break
		}
		return appendOctal(b, s, mode != inFormat && c == '0')
	case c == 'x' || c == 'u' || c == 'U':
		digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		v, j := uint64(0), 1
		for ; j < len(s) && j <= digits && digitVal(s[j]) < 16; j++ {
			v = v*16 + digitVal(s[j])
		}
		switch {
		case j == 1 && mode == inEcho:
		case j == 1:
			return append(b, '\\', c), 1, false, c
		case c == 'x':
			return append(b, byte(v)), j, false, 0
		default:
			return appendUnicode(b, v, utf8Locale), j, false, 0
		}
	}
	return append(b, '\\', c), 1, false, 0
}

// appendOctal appends the octal escape at the start of s: up to three
// digits, or with afterZero up to three after a leading 0 (\0NNN).
func appendOctal(b []byte, s string, afterZero bool) (_ []byte, used int, stop bool, missing byte) {
	start, limit := 0, 3
	if afterZero {
		start, limit = 1, 4
	}
	v, j := 0, start
	for ; j < len(s) && j < limit && s[j] >= '0' && s[j] <= '7'; j++ {
		v = v*8 + int(s[j]-'0')
	}
	return append(b, byte(v)), j, false, 0
}

// appendEscapes appends s with its escapes read as mode says; stop is set
// by a \c that ends all output, and missing is called for each \x, \u or
// \U without a digit.
func appendEscapes(b []byte, s string, mode escapeMode, utf8Locale bool, missing func(c byte)) (_ []byte, stop bool) {
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			return append(b, s[i:]...), false
		}
		b = append(b, s[i:i+j]...)
		i += j
		var n int
		var m byte
		b, n, stop, m = appendEscape(b, s[i+1:], mode, utf8Locale)
		if m != 0 && missing != nil {
			missing(m)
		}
		if stop {
			return b, true
		}
		i += 1 + n
	}
	return b, false
}
