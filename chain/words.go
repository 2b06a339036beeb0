package chain

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A word's value is computed from its raw source text, not from mvdan's
// literals, because the two dialects read backslashes differently while
// splitting words identically: a backslash the Windows dialect keeps only
// ever precedes an ordinary character, which cannot end a word in bash
// either. The AST decides structure and refusals; wordScanner decides
// values.

// Byte classes for the one pass that decides a word's path: quoting and
// escapes need the scanner; what bash may expand when unquoted also needs
// per-byte quoting information; non-ASCII needs the space check.
const (
	classQuote byte = 1 << iota
	classExpandable
	classNonASCII
)

// byteClass is the class of each ASCII byte (every other byte is
// classNonASCII), a literal the linker lays out: nothing is built at start.
var byteClass = [0x80]byte{
	'\\': classQuote, '\'': classQuote, '"': classQuote,
	'*': classExpandable, '?': classExpandable, '[': classExpandable, '{': classExpandable, '~': classExpandable,
}

func classify(raw string) (classes byte) {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 0x80 {
			classes |= byteClass[c]
		} else {
			classes |= classNonASCII
		}
	}
	return classes
}

// wordScanner computes one word's value in one dialect.
type wordScanner struct {
	src     string
	dialect Dialect
	out     []byte
	track   bool   // whether unq and offs are kept
	unq     []bool // unq[i]: out[i] came from an unquoted, unescaped character
	offs    []int  // offs[i]: source offset of out[i]
}

func (w *wordScanner) emit(c byte, unquoted bool, off int) {
	w.out = append(w.out, c)
	if w.track {
		w.unq = append(w.unq, unquoted)
		w.offs = append(w.offs, off)
	}
}

// emitRune copies the (possibly multi-byte) character at i, quoted or not,
// and returns its size. An unquoted non-ASCII space is refused: it looks
// like a separator to a person but is part of the word to bash.
func (w *wordScanner) emitRune(i int, unquoted bool) (int, *ParseError) {
	c := w.src[i]
	if c < utf8.RuneSelf {
		w.emit(c, unquoted, i)
		return 1, nil
	}
	r, size := utf8.DecodeRuneInString(w.src[i:])
	if unquoted && unicode.IsSpace(r) {
		return 0, refuse(w.src, i, KindUnsupported, "non-ASCII space",
			"U+%04X is a space character that does not separate words; use a plain space, or quote it", r)
	}
	for k := 0; k < size; k++ {
		w.emit(w.src[i+k], unquoted, i+k)
	}
	return size, nil
}

// windowsEscapable lists what a backslash escapes outside quotes in the
// Windows dialect: whitespace, quotes, '$', a backtick, operator characters.
func windowsEscapable(c byte) bool {
	return strings.IndexByte(" \t\n'\"$`|&;<>()", c) >= 0
}

// scan reads src[start:end] as one word.
func (w *wordScanner) scan(start, end int) *ParseError {
	for i := start; i < end; {
		c := w.src[i]
		switch {
		case c == '\\':
			n, err := w.backslash(i, end)
			if err != nil {
				return err
			}
			i += n
		case c == '\'':
			j := strings.IndexByte(w.src[i+1:end], '\'')
			if j < 0 {
				return w.diverged(i)
			}
			for k := i + 1; k < i+1+j; k++ {
				w.emit(w.src[k], false, k)
			}
			i += j + 2
		case c == '"':
			n, err := w.dquoted(i, end)
			if err != nil {
				return err
			}
			i += n
		case c == ' ' || c == '\t' || c == '\n' || strings.IndexByte("|&;<>()", c) >= 0:
			return w.diverged(i)
		default:
			if c == '$' && w.dollarFolds(i, end, true) {
				return w.foldedExpansion(i)
			}
			n, err := w.emitRune(i, true)
			if err != nil {
				return err
			}
			i += n
		}
	}
	return nil
}

// dollarFolds reports whether the '$' at i is followed by line
// continuations and then a character that makes it an expansion. Bash
// removes a backslash-newline before it reads '$', so "$\<newline>(id)"
// is a command substitution even though no "$(" appears in the text.
// In the Windows dialect a backslash-newline inside double quotes is kept
// as it is, so nothing folds there.
func (w *wordScanner) dollarFolds(i, end int, unquoted bool) bool {
	if w.dialect == Windows && !unquoted {
		return false
	}
	j := i + 1
	for j+1 < end && w.src[j] == '\\' && w.src[j+1] == '\n' {
		j += 2
	}
	if j == i+1 || j >= end {
		return false
	}
	c := w.src[j]
	return strings.IndexByte("({[@*#?$!-'\"_", c) >= 0 ||
		c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (w *wordScanner) foldedExpansion(i int) *ParseError {
	return refuse(w.src, i, KindUnsupported, "parameter expansion",
		"a $ joined by a line continuation to what follows is an expansion in bash ($\\<newline>( is $( ), which chainrun does not read across the line break: remove the line break, or quote the $ with single quotes")
}

// backslash handles a backslash outside quotes at i and returns how many
// bytes it consumed.
func (w *wordScanner) backslash(i, end int) (int, *ParseError) {
	if i+1 >= end {
		w.emit('\\', false, i) // a trailing backslash stays, as in bash
		return 1, nil
	}
	next := w.src[i+1]
	if w.dialect == Windows && !windowsEscapable(next) {
		w.emit('\\', false, i)
		return 1, nil
	}
	if next == '\n' {
		return 2, nil // line continuation
	}
	n, err := w.emitRune(i+1, false)
	return 1 + n, err
}

// dquoted reads a double-quoted part starting at the quote at i.
func (w *wordScanner) dquoted(i, end int) (int, *ParseError) {
	for k := i + 1; k < end; {
		c := w.src[k]
		switch {
		case c == '"':
			return k + 1 - i, nil
		case c == '\\' && k+1 < end && w.dqEscapes(w.src[k+1]):
			if w.src[k+1] != '\n' {
				w.emit(w.src[k+1], false, k+1)
			}
			k += 2
		default:
			if c == '$' && w.dollarFolds(k, end, false) {
				return 0, w.foldedExpansion(k)
			}
			n, _ := w.emitRune(k, false)
			k += n
		}
	}
	return 0, w.diverged(i)
}

// dqEscapes reports what a backslash escapes inside double quotes.
func (w *wordScanner) dqEscapes(c byte) bool {
	if w.dialect == Windows {
		return c == '"' || c == '$' || c == '`'
	}
	return c == '"' || c == '$' || c == '`' || c == '\\' || c == '\n'
}

// diverged reports a word whose end the Windows dialect reads differently
// from bash. It cannot happen in the POSIX dialect, where mvdan's parser
// and this scanner read bash's rules alike.
func (w *wordScanner) diverged(off int) *ParseError {
	return refuse(w.src, off, KindSyntax, "unterminated quote",
		`in the %s dialect this quote is never closed (there a backslash before " escapes the quote); use single quotes for text ending in a backslash`, w.dialect)
}

// scanned is what the scanner found in one word.
type scanned struct {
	value string // the word's value when nothing in it expands
	// expands is set when bash would expand unquoted characters in it:
	// a glob, a brace expansion or a tilde.
	expands bool
	// tildeAfter is set for a tilde bash expands after '=' or ':' (an
	// assignment, or a word shaped like one), which mvdan's expansion
	// does not do by itself.
	tildeAfter bool
}

// wordValue reads src[start:end] as one word in dialect d and finds what
// bash would expand unquoted: globs, brace expansion and tilde expansion.
// assignValue marks an assignment's value, where a tilde after '=' or
// ':' expands too. scratch, when not nil, lends its buffers to the scanner.
func wordValue(src string, start, end int, d Dialect, assignValue bool, scratch *wordScanner) (scanned, *ParseError) {
	raw := src[start:end]
	classes := classify(raw)
	if classes == 0 {
		return scanned{value: raw}, nil
	}
	if v, ok := plainQuoted(raw); ok && classes&classNonASCII == 0 {
		return scanned{value: v}, nil
	}
	var w wordScanner
	if scratch != nil {
		w = *scratch
	}
	w.src, w.dialect, w.out = src, d, w.out[:0]
	w.track = classes&classExpandable != 0
	w.unq, w.offs = w.unq[:0], w.offs[:0]
	err := w.scan(start, end)
	var sc scanned
	if err == nil && w.track {
		sc = w.expansions(assignValue)
	}
	if scratch != nil {
		*scratch = w // keep the grown buffers for the next word
	}
	if err != nil {
		return scanned{}, err
	}
	sc.value = string(w.out)
	return sc, nil
}

// plainQuoted returns the value of a word that is one quoted string with
// nothing to unescape inside, the usual shape of an agent's argument:
// 'text' with no other single quote, or "text" with no backslash or
// double quote (a word with $ or a backtick in it expands, and its value
// is not this one).
func plainQuoted(raw string) (string, bool) {
	if len(raw) < 2 || raw[0] != raw[len(raw)-1] {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	switch raw[0] {
	case '\'':
		return inner, strings.IndexByte(inner, '\'') < 0
	case '"':
		return inner, strings.IndexByte(inner, '"') < 0 && strings.IndexByte(inner, '\\') < 0
	}
	return "", false
}

// expansions finds the unquoted characters bash would expand.
func (w *wordScanner) expansions(assignValue bool) (sc scanned) {
	closeBracket := -1
	for i := len(w.out) - 1; i >= 0; i-- {
		if w.unq[i] && w.out[i] == ']' {
			closeBracket = i
			break
		}
	}
	for i, c := range w.out {
		if !w.unq[i] {
			continue
		}
		if c == '*' || c == '?' || (c == '[' && closeBracket > i) || (c == '{' && w.braceExpansion(i)) {
			sc.expands = true
			break
		}
	}
	leading, after := w.tilde(assignValue)
	sc.expands = sc.expands || leading || after
	sc.tildeAfter = after
	return sc
}

// braceExpansion reports whether the unquoted '{' at i opens a bash brace
// expansion: a matching unquoted '}' with an unquoted ',' or ".." between.
func (w *wordScanner) braceExpansion(i int) bool {
	depth, found := 0, false
	for k := i; k < len(w.out); k++ {
		if !w.unq[k] {
			continue
		}
		switch w.out[k] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return found
			}
		case ',':
			found = found || depth == 1
		case '.':
			if k+1 < len(w.out) && w.unq[k+1] && w.out[k+1] == '.' && depth == 1 {
				found = true
			}
		}
	}
	return false
}

// tilde finds the unquoted '~'s bash would expand: leading, at the start
// of the word; after, in assignments (or words shaped like one, NAME=...)
// right after the '=' or an unquoted ':'.
func (w *wordScanner) tilde(assignValue bool) (leading, after bool) {
	leading = len(w.out) > 0 && w.unq[0] && w.out[0] == '~'
	from := -1
	if assignValue {
		from = 0
	} else if eq := w.assignmentShape(); eq > 0 {
		from = eq + 1
	}
	if from < 0 {
		return leading, false
	}
	for i := max(from, 1); i < len(w.out); i++ {
		if w.unq[i] && w.out[i] == '~' && (i == from || (w.unq[i-1] && w.out[i-1] == ':')) {
			return leading, true
		}
	}
	return leading, false
}

// assignmentShape returns the index of the '=' of a word like NAME=value
// whose name and '=' are unquoted, or -1.
func (w *wordScanner) assignmentShape() int {
	for i, c := range w.out {
		if !w.unq[i] {
			return -1
		}
		if c == '=' {
			if i == 0 {
				return -1
			}
			return i
		}
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9')) {
			return -1
		}
	}
	return -1
}
