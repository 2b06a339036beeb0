package winconsole

import (
	"strconv"
	"unicode/utf8"
)

// CodePage decodes one legacy Windows code page to UTF-8.
// CodePageByNumber returns one: on Windows backed by MultiByteToWideChar,
// elsewhere by golang.org/x/text tables (for tests and for reading
// Windows output on other systems).
type CodePage interface {
	// Name is the code page's name as recorded in results: "cp437",
	// "cp936", "cp1252", …
	Name() string
	// Decode converts complete text to UTF-8. Invalid bytes become U+FFFD
	// or the code page's best-fit character; the output is valid UTF-8.
	Decode(p []byte) ([]byte, error)
}

// DBCS is implemented by double-byte code pages (932, 936, 949, 950):
// a lead byte starts a two-byte character, so text must never be cut
// right after one.
type DBCS interface {
	CodePage
	IsLeadByte(b byte) bool
}

// completePrefix returns how many bytes of p can be decoded by cp without
// splitting a double-byte character: all of p, unless p ends with a lead
// byte whose trail byte has not arrived yet.
func completePrefix(cp CodePage, p []byte) int {
	d, ok := cp.(DBCS)
	if !ok {
		return len(p)
	}
	i := 0
	for i < len(p) {
		if d.IsLeadByte(p[i]) {
			if i+1 == len(p) {
				return i
			}
			i += 2
			continue
		}
		i++
	}
	return len(p)
}

func cpName(n int) string { return "cp" + strconv.Itoa(n) }

// utf8Page is code page 65001: valid text passes, invalid bytes become
// U+FFFD.
type utf8Page struct{}

func (utf8Page) Name() string { return "utf-8" }

func (utf8Page) Decode(p []byte) ([]byte, error) {
	if utf8.Valid(p) {
		return append([]byte(nil), p...), nil
	}
	return toValidUTF8(nil, p), nil
}

// toValidUTF8 appends p to dst with every invalid byte sequence replaced
// by U+FFFD.
func toValidUTF8(dst, p []byte) []byte {
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		if r == utf8.RuneError && n <= 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
			p = p[1:]
			continue
		}
		dst = append(dst, p[:n]...)
		p = p[n:]
	}
	return dst
}
