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
	// Proc is set for a process substitution: ProcIn for <(…), whose
	// output the segment reads, ProcOut for >(…), whose input it writes.
	// The word becomes the path of a pipe (/dev/fd/N) and the inner chain
	// runs beside the segment; its status is ignored, as bash's is.
	Proc ProcDir
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
	inner := newLowerer(l.src, l.dialect, sourceFacts{segments: len(cs.Stmts) + 2, redirects: 4})
	inner.inSubst = true
	inner.params, inner.globstar = l.params, l.globstar
	var err error
	if fileRead(cs) {
		err = inner.readFile(cs.Stmts[0])
	} else {
		err = inner.file(&syntax.File{Stmts: cs.Stmts})
	}
	if err != nil {
		if pe, ok := err.(*ParseError); ok {
			return pe
		}
		return refuse(l.src, at, KindUnsupported, "command substitution", "%v", err)
	}
	l.substs = append(l.substs, &Subst{Span: Span{at, l.off(cs.End())}, Chain: inner.chain, Backquotes: cs.Backquotes})
	return nil
}

// fileRead reports bash's $(< file): one statement of one input
// redirect and no command, which reads the file.
func fileRead(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	st := cs.Stmts[0]
	return st.Cmd == nil && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn && st.Redirs[0].N == nil &&
		!st.Negated && !st.Background && !st.Coprocess
}

// readFile lowers $(< file) as the chain cat < file: what runs is a read
// of the file, which the policy judges as one (the redirect's target),
// and whose output is the file's bytes.
func (l *lowerer) readFile(st *syntax.Stmt) error {
	rd, err := l.redirect(st.Redirs[0])
	if err != nil {
		return err
	}
	seg := l.startSegment(1, 1)
	at := l.off(st.Pos())
	seg.Words = append(seg.Words, Word{Span: Span{at, at}, Fields: []string{"cat"}})
	seg.Args = append(seg.Args, "cat")
	seg.Redirects = append(seg.Redirects, rd)
	l.takeSubsts(seg)
	l.endSegment(seg, st, st.Redirs)
	p := l.newPipeline()
	p.Segments = []*Segment{seg}
	p.Span = seg.Span
	l.chain.Pipelines = append(l.chain.Pipelines, p)
	return nil
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
