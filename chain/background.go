package chain

import "mvdan.cc/sh/v3/syntax"

// OpBackground is the & after a background pipeline as SegmentOps shows
// it; Chain.Ops has ; there, which is how the chain goes on.
const OpBackground Op = "&"

// BuiltinWait is bash's wait: it waits for the chain's background
// pipelines (all of them, or those its operands name by process id or
// %N job number) and returns the status of the last one named.
const BuiltinWait Builtin = "wait"

// background checks a statement written with &: a pipeline (a single
// command included) runs in the background, the chain going on at once
// (Pipeline.Background). What runs it in a subshell of its own is
// refused, naming the construct: an && or || list, a timed pipeline, a
// command substitution's chain (whose output bash reads to its end, so
// nothing in it outlives it), a part of a compound command (which runs
// as its own run: & there would end with the part), and the &| of zsh.
func (l *lowerer) background(st *syntax.Stmt) error {
	at := l.off(st.Semicolon)
	if st.Disown {
		return refuse(l.src, at, KindUnsupported, "background", "&| and &! (zsh's disown) are not supported; use & alone")
	}
	if l.inSubst {
		return refuse(l.src, at, KindUnsupported, "background",
			"running in the background (&) inside a command substitution is not supported; bash waits for the substitution's output to end: run it without &")
	}
	if l.inPart {
		return refuse(l.src, at, KindUnsupported, "background",
			"running in the background (&) inside if, a loop, case, a group, a subshell or a process substitution is not supported; put & after the whole compound command, or run it without &")
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			return refuse(l.src, at, KindUnsupported, "background",
				"running an && or || list in the background (&) is not supported; make it a subshell, ( … ) &, "+
					"or run the list with the MCP run tool's background=true")
		}
	case *syntax.TimeClause:
		return refuse(l.src, at, KindUnsupported, "background",
			"timing a pipeline run in the background (time … &) is not supported; drop time, or &")
	}
	return nil
}

// backgroundProcSubst refuses a process substitution in a pipeline run
// in the background: its inner run is waited for when a pipeline ends,
// which would make the next foreground pipeline wait for it.
func (l *lowerer) backgroundProcSubst(p *Pipeline) *ParseError {
	for _, s := range p.Segments {
		for _, sb := range s.Substs {
			if sb.Proc != "" {
				return refuse(l.src, sb.Span.Start, KindUnsupported, "background",
					"a process substitution in a pipeline run in the background (&) is not supported; write its output to a file first")
			}
		}
	}
	return nil
}
