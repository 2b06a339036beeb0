package chain

import "strings"

// An argument whose value is known only when its segment starts ($? after
// an earlier command, a variable an earlier segment may or may not set, a
// glob over files an earlier segment may create) is judged before the run
// as an unknown word: a string no real argument can equal, since a NUL
// cannot reach a program's argv. The policy never lets one satisfy an
// allow rule in command position, and deny and ask rules treat it as
// matching any word; the real value is judged again just before the
// segment starts.

// unknownMark starts every unknown word.
const unknownMark = "\x00"

// Unknown returns the unknown word standing for the source text src, so a
// message can still say what it was written as. Path separators are
// spelt with look-alikes (U+2215, U+2216) so no basename or extension
// rule can cut the mark away; UnknownSource and ShowUnknown turn them
// back.
func Unknown(src string) string {
	return unknownMark + strings.Map(func(r rune) rune {
		switch r {
		case '/':
			return divisionSlash
		case '\\':
			return setMinus
		case 0:
			return -1
		}
		return r
	}, src)
}

// The look-alikes that stand for path separators inside unknown words.
const (
	divisionSlash = '\u2215'
	setMinus      = '\u2216'
)

// IsUnknown reports whether arg is an unknown word.
func IsUnknown(arg string) bool { return strings.HasPrefix(arg, unknownMark) }

// UnknownSource returns the source text an unknown word stands for.
func UnknownSource(arg string) string { return ShowUnknown(arg) }

// ShowUnknown renders a text that holds unknown words (one, or several
// joined into a message) as written: marks dropped, separators restored.
func ShowUnknown(s string) string {
	if !strings.Contains(s, unknownMark) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case 0:
			return -1
		case divisionSlash:
			return '/'
		case setMinus:
			return '\\'
		}
		return r
	}, s)
}
