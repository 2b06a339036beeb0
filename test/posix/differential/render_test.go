//go:build unix

package differential

import (
	"math/rand/v2"
	"strings"
)

// A renderer turns word values into shell source text that bash's quote
// removal maps back to exactly those values, choosing a random quoting
// style for each run of characters: unquoted (with backslash escapes where
// needed), single quotes, or double quotes with POSIX backslash rules.
// It never produces an expansion (no $, backticks, globs, braces or tildes
// reach the shell unquoted), so every rendering stays inside the subset
// chainrun accepts.
type renderer struct {
	r *rand.Rand
	// noContinuation turns off line continuations (\ newline) in words.
	noContinuation bool
}

// plainSafe reports whether c may stand unquoted and unescaped anywhere in
// a word except its first character (where '#' starts a comment).
func plainSafe(c rune) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case strings.ContainsRune("_-./,:@%+#=", c):
		return true
	case c >= 0x80:
		return true
	}
	return false
}

// wordOpts says where a rendered word stands.
type wordOpts struct {
	// command: the word is the program name, where an unquoted NAME=
	// would read as an assignment.
	command bool
	// hashStart: an unquoted '#' may begin the rendering (assignment
	// values, where it is not at a word start).
	hashStart bool
}

// word renders value as one shell word.
func (q *renderer) word(value string, o wordOpts) string {
	if value == "" {
		return pick(q.r, `''`, `""`, `""''`, `''""`)
	}
	runes := []rune(value)
	var b strings.Builder
	i := 0
	if runes[0] == '@' {
		// chainrun refuses a word starting @' or @" (a PowerShell
		// here-string to a model writing PowerShell); quote the @ itself.
		b.WriteString(pick(q.r, `\@`, `'@'`, `"@"`))
		i = 1
	}
	for i < len(runes) {
		n := 1 + q.r.IntN(4)
		if i+n > len(runes) {
			n = len(runes) - i
		}
		chunk := runes[i : i+n]
		if i > 0 && !q.noContinuation && q.r.IntN(12) == 0 {
			b.WriteString("\\\n")
		}
		switch q.r.IntN(3) {
		case 0:
			if !strings.ContainsRune(string(chunk), '\n') {
				q.plain(&b, chunk, i == 0 && !o.hashStart, o.command)
				break
			}
			fallthrough
		case 1:
			if !strings.ContainsRune(string(chunk), '\'') {
				b.WriteString("'" + string(chunk) + "'")
				break
			}
			fallthrough
		default:
			q.double(&b, chunk)
		}
		i += n
	}
	return b.String()
}

// plain renders chunk unquoted, escaping what must be escaped and, at
// random, some characters that need not be.
func (q *renderer) plain(b *strings.Builder, chunk []rune, atStart, command bool) {
	for j, c := range chunk {
		safe := plainSafe(c)
		if c == '#' && j == 0 && atStart {
			safe = false
		}
		if c == '=' && command {
			safe = false
		}
		if !safe || q.r.IntN(8) == 0 {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
}

// double renders chunk in double quotes: ", \, $ and ` are escaped; a
// backslash before any other character may stay single, since bash keeps
// it; line continuations may be inserted between characters.
func (q *renderer) double(b *strings.Builder, chunk []rune) {
	b.WriteByte('"')
	lone := false // the last byte written is a backslash kept as a literal
	for j, c := range chunk {
		if j > 0 && !lone && !q.noContinuation && q.r.IntN(10) == 0 {
			b.WriteString("\\\n")
		}
		lone = false
		switch c {
		case '"', '$', '`':
			b.WriteByte('\\')
			b.WriteRune(c)
		case '\\':
			next := rune(-1)
			if j+1 < len(chunk) {
				next = chunk[j+1]
			}
			if next == -1 || strings.ContainsRune("\"\\$`\n", next) || q.r.IntN(2) == 0 {
				b.WriteString(`\\`)
			} else {
				b.WriteByte('\\')
				lone = true
			}
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
}

// pick returns one of its arguments at random.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// Alphabets for generated values.
var (
	plainAlphabet   = []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:@%+=")
	specialAlphabet = []rune(" \t!\"#$&'()*;<>?[\\]^`{|}~")
	unicodeAlphabet = []rune("éüßñ日本語Ωж🙂")
)

// value generates a random word value. With newline set it may contain
// newlines (which the renderer always quotes).
func value(r *rand.Rand, maxLen int, newline bool) string {
	n := r.IntN(maxLen + 1)
	var b strings.Builder
	for range n {
		switch k := r.IntN(20); {
		case k < 12:
			b.WriteRune(pick(r, plainAlphabet...))
		case k < 17:
			b.WriteRune(pick(r, specialAlphabet...))
		case k < 19:
			b.WriteRune(pick(r, unicodeAlphabet...))
		default:
			if newline {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

// spaceBetween returns blanks separating two words: spaces, tabs, or a
// line continuation with a blank beside it.
func (q *renderer) space() string {
	switch q.r.IntN(10) {
	case 0:
		return "\t"
	case 1:
		return "  "
	case 2:
		if !q.noContinuation {
			return pick(q.r, " \\\n", "\\\n\t", " \\\n  ")
		}
	}
	return " "
}
