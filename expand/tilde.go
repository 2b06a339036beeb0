package expand

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assignTildes returns w with the tilde-prefixes bash expands after '='
// and ':' replaced by their expansion, as a single-quoted part so nothing
// expands it again. mvdan's expansion does only a word's leading tilde;
// bash also does these in assignments (PATH=~/bin:~/go/bin) and in
// arguments shaped like one (make PREFIX=~/x). argShape says w is an
// argument, whose tildes count from its first '='; an assignment value's
// count from its start (its leading tilde is mvdan's).
func (sh *Shell) assignTildes(w *syntax.Word, argShape bool) *syntax.Word {
	out := &syntax.Word{Parts: make([]syntax.WordPart, 0, len(w.Parts)+2)}
	seenEq := !argShape
	for i, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			out.Parts = append(out.Parts, p)
			seenEq = true // a quoted '=' does not make an assignment
			continue
		}
		more := i < len(w.Parts)-1
		out.Parts = append(out.Parts, sh.litTildes(lit.Value, &seenEq, more)...)
	}
	return out
}

// litTildes splits one unquoted literal at the tilde-prefixes it expands.
func (sh *Shell) litTildes(v string, seenEq *bool, more bool) []syntax.WordPart {
	var parts []syntax.WordPart
	start := 0
	for k := 0; k < len(v); k++ {
		switch c := v[k]; {
		case c == '\\':
			k++
		case c == '=' && !*seenEq:
			*seenEq = true
			if home, end, ok := sh.tildeAt(v, k+1, more); ok {
				parts = append(parts, &syntax.Lit{Value: v[start : k+1]}, &syntax.SglQuoted{Value: home})
				start, k = end, end-1
			}
		case c == ':' && *seenEq:
			if home, end, ok := sh.tildeAt(v, k+1, more); ok {
				parts = append(parts, &syntax.Lit{Value: v[start : k+1]}, &syntax.SglQuoted{Value: home})
				start, k = end, end-1
			}
		}
	}
	return append(parts, &syntax.Lit{Value: v[start:]})
}

// tildeAt expands the tilde-prefix at v[i], if there is one: '~' and the
// characters up to the next '/' or ':' or the literal's end (a prefix
// running into a quoted part or an expansion is not expanded, as in bash).
func (sh *Shell) tildeAt(v string, i int, more bool) (home string, end int, ok bool) {
	if i >= len(v) || v[i] != '~' {
		return "", 0, false
	}
	end = i + 1
	for end < len(v) && v[end] != '/' && v[end] != ':' {
		if v[end] == '\\' {
			return "", 0, false
		}
		end++
	}
	if end == len(v) && more {
		return "", 0, false
	}
	name := v[i+1 : end]
	key := "HOME"
	if name != "" {
		key = "HOME " + name
	}
	vr := sh.lookupVar(key)
	if !vr.IsSet() || strings.ContainsRune(name, '$') {
		return "", 0, false
	}
	return vr.Str, end, true
}

// colonTilde returns w with a leading tilde-prefix that ends at ':'
// expanded (~:x is $HOME:x in bash); mvdan's expansion ends the prefix
// only at '/'. Other words are returned as they are.
func (sh *Shell) colonTilde(w *syntax.Word) *syntax.Word {
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "~") {
		return w
	}
	if end := strings.IndexAny(lit.Value, "/:"); end < 0 || lit.Value[end] != ':' {
		return w
	}
	home, end, ok := sh.tildeAt(lit.Value, 0, len(w.Parts) > 1)
	if !ok {
		return w
	}
	parts := append([]syntax.WordPart{&syntax.SglQuoted{Value: home}, &syntax.Lit{Value: lit.Value[end:]}}, w.Parts[1:]...)
	return &syntax.Word{Parts: parts}
}
