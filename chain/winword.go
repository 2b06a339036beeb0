package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bashWord returns the word mvdan's expansion should read for w: w itself
// in the POSIX dialect; in the Windows dialect a copy whose literals spell
// each backslash the dialect keeps as an escaped one, so the expansion
// keeps it too (C:\Users\*.txt globs in C:\Users, not C:Users…). A
// backslash before $ escapes the $ in both dialects: "$USERPROFILE"\x.
func (l *lowerer) bashWord(w *syntax.Word) *syntax.Word {
	if l.dialect != Windows || !strings.Contains(l.src[l.off(w.Pos()):l.off(w.End())], `\`) {
		return w
	}
	return &syntax.Word{Parts: l.windowsParts(w.Parts, false)}
}

func (l *lowerer) windowsParts(parts []syntax.WordPart, inDq bool) []syntax.WordPart {
	out := make([]syntax.WordPart, len(parts))
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			raw := l.src[l.off(p.Pos()):l.off(p.End())]
			out[i] = &syntax.Lit{ValuePos: p.ValuePos, ValueEnd: p.ValueEnd, Value: windowsLit(raw, inDq)}
		case *syntax.DblQuoted:
			q := *p
			q.Parts = l.windowsParts(p.Parts, true)
			out[i] = &q
		default:
			out[i] = p
		}
	}
	return out
}

// windowsLit re-spells a literal's source text for bash's reading: a
// backslash the Windows dialect escapes with stays an escape; one it
// keeps becomes "\\".
func windowsLit(raw string, inDq bool) string {
	var b strings.Builder
	for k := 0; k < len(raw); k++ {
		c := raw[k]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if !inDq && k+1 < len(raw) && raw[k+1] == '\n' {
			k++ // a line continuation
			continue
		}
		if k+1 < len(raw) && (inDq && strings.IndexByte("\"$`", raw[k+1]) >= 0 || !inDq && windowsEscapable(raw[k+1])) {
			b.WriteByte(c)
			b.WriteByte(raw[k+1])
			k++
			continue
		}
		b.WriteString(`\\`)
	}
	return b.String()
}
