package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Subst is one command substitution, $(…) or `…`, in a segment's words,
// assignment values, redirect targets or here-strings. Its inner chain is
// a chain like any other: parsed with the same refusals, judged with the
// segment before anything runs, and run (judged again, audited) when the
// word that holds it expands, just before the segment starts.
type Subst struct {
	// Span covers the substitution in the outer Source, $( and ) or the
	// backticks included.
	Span Span
	// Chain is the inner chain. Its Source is the outer command line, so
	// its spans and any refusal inside point into the line as written.
	Chain *Chain
	// Backquotes is set for the `…` form.
	Backquotes bool
}

// SubstAt returns the substitution of the segment that starts at offset
// off of the source, or nil.
func (s *Segment) SubstAt(off int) *Subst {
	for _, sb := range s.Substs {
		if sb.Span.Start == off {
			return sb
		}
	}
	return nil
}

// substitution lowers the inner chain of a command substitution and
// notes it for the segment being lowered.
func (l *lowerer) substitution(cs *syntax.CmdSubst) *ParseError {
	at := l.off(cs.Pos())
	if len(cs.Stmts) == 0 {
		return refuse(l.src, at, KindUnsupported, "command substitution",
			"an empty command substitution is not supported; write the empty string ('') instead")
	}
	if cs.Backquotes && strings.Contains(l.src[at:l.off(cs.End())], `\`) {
		// Inside backticks a backslash escapes one more level, which the
		// words' source text would not show; $(…) has no such level.
		return refuse(l.src, at, KindUnsupported, "command substitution",
			"a backslash inside backticks is read twice by bash; write the substitution as $(…) instead")
	}
	if err := l.fileRedirectOnly(cs); err != nil {
		return err
	}
	inner := newLowerer(l.src, l.dialect, sourceFacts{segments: len(cs.Stmts) + 2, redirects: 4})
	if err := inner.file(&syntax.File{Stmts: cs.Stmts}); err != nil {
		if pe, ok := err.(*ParseError); ok {
			return pe
		}
		return refuse(l.src, at, KindUnsupported, "command substitution", "%v", err)
	}
	l.substs = append(l.substs, &Subst{Span: Span{at, l.off(cs.End())}, Chain: inner.chain, Backquotes: cs.Backquotes})
	return nil
}

// fileRedirectOnly refuses bash's $(< file), which reads the file without
// a command; cat names the read for the policy and runs it.
func (l *lowerer) fileRedirectOnly(cs *syntax.CmdSubst) *ParseError {
	if len(cs.Stmts) != 1 || cs.Stmts[0].Cmd != nil || len(cs.Stmts[0].Redirs) == 0 {
		return nil
	}
	return refuse(l.src, l.off(cs.Pos()), KindUnsupported, "command substitution",
		"$(< file) is not supported; write $(cat file), which reads the same file")
}

// takeSubsts hands the substitutions lowered since the last call to the
// segment, in source order.
func (l *lowerer) takeSubsts(seg *Segment) {
	if len(l.substs) == 0 {
		return
	}
	seg.Substs = l.substs
	l.substs = nil
	for i := 1; i < len(seg.Substs); i++ {
		for j := i; j > 0 && seg.Substs[j].Span.Start < seg.Substs[j-1].Span.Start; j-- {
			seg.Substs[j], seg.Substs[j-1] = seg.Substs[j-1], seg.Substs[j]
		}
	}
}
