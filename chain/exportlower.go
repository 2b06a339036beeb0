package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/internal/expr"
)

// export lowers `export NAME=value NAME …`, which mvdan parses as a
// declaration. An argument NAME=value expands as an assignment does (no
// splitting, no globbing, tilde after = and :), the way bash treats the
// assignment arguments of export; any other argument expands as a word.
// The segment's Args are then export's argv, as the built-in reads it.
func (l *lowerer) export(st *syntax.Stmt, dc *syntax.DeclClause) (*Segment, error) {
	if len(st.Redirs) > 0 {
		// export writes nothing but its errors; a redirect would only
		// create or truncate the file, which is kept simple by refusing.
		return nil, refuse(l.src, l.off(st.Redirs[0].Pos()), KindUnsupported, "redirect",
			"export with a redirect is not supported; drop the redirect")
	}
	seg := l.startSegment(len(dc.Args)+1, 0)
	seg.Builtin = BuiltinExport
	at := l.off(dc.Variant.Pos())
	seg.Words = append(seg.Words, Word{Span: Span{at, l.off(dc.Variant.End())}, Fields: []string{"export"}})
	seg.Args = append(seg.Args, "export")
	for _, a := range dc.Args {
		if err := l.exportArg(seg, a); err != nil {
			return nil, err
		}
	}
	l.takeSubsts(seg)
	l.endSegment(seg, dc, nil)
	return seg, nil
}

func (l *lowerer) exportArg(seg *Segment, a *syntax.Assign) *ParseError {
	if a.Append || a.Index != nil || a.Array != nil {
		return refuse(l.src, l.off(a.Pos()), KindUnsupported, "array assignment",
			"only plain NAME=value assignments are supported")
	}
	switch {
	case a.Naked && a.Name != nil:
		name := a.Name.Value
		seg.Words = append(seg.Words, Word{Span: Span{l.off(a.Pos()), l.off(a.End())}, Fields: []string{name}})
		seg.Args = append(seg.Args, name)
		return nil
	case a.Naked:
		if raw := l.src[l.off(a.Value.Pos()):l.off(a.Value.End())]; strings.HasPrefix(raw, "-") {
			return refuse(l.src, l.off(a.Pos()), KindUnsupported, "export option",
				"export %s is not supported; chainrun's export takes NAME and NAME=value", raw)
		}
		return l.addWord(seg, a.Value, expr.Fields, "")
	}
	prefix := a.Name.Value + "="
	if a.Value == nil {
		seg.Words = append(seg.Words, Word{Span: Span{l.off(a.Pos()), l.off(a.End())}, Fields: []string{prefix}})
		seg.Args = append(seg.Args, prefix)
		return nil
	}
	if c := (&syntax.Word{Parts: append([]syntax.WordPart(nil), a.Value.Parts...)}); syntax.SplitBraces(c) {
		// bash brace-expands export's arguments into several NAME=…
		// words and then reads them by other rules (no tilde after =).
		return refuse(l.src, l.off(a.Value.Pos()), KindUnsupported, "brace expansion",
			"brace expansion in export %s… makes several assignments; write the value out, or quote the braces", prefix)
	}
	return l.addWord(seg, a.Value, expr.Literal, prefix)
}

// builtinArgs refuses the options of engine built-ins that chainrun does
// not implement where they are written literally: unset -f and -n act on
// functions and name references, which a chain has none of.
func (l *lowerer) builtinArgs(seg *Segment, b Builtin) *ParseError {
	switch b {
	case BuiltinSet:
		return l.setArgs(seg)
	case BuiltinCommand:
		return l.commandQueryArgs(seg)
	case BuiltinRead:
		return l.readArgs(seg)
	case BuiltinShopt:
		return l.shoptArgs(seg)
	case BuiltinUnset:
	default:
		return nil
	}
	for i, a := range seg.Args[1:] {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		if a != "-v" {
			return refuse(l.src, seg.Words[i+1].Span.Start, KindUnsupported, "unset option",
				"unset %s is not supported; chainrun's unset removes variables: unset NAME", a)
		}
	}
	return nil
}
