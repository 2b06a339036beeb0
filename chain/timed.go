package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// timeClause returns the time keyword that opens a pipeline statement, or
// nil. It refuses the forms whose meaning chainrun does not reproduce:
// time with no pipeline (bash then reports the shell's own times), time
// time, and time -- (which bash 5.2 reads as time -p).
func (l *lowerer) timeClause(st *syntax.Stmt) (*syntax.TimeClause, error) {
	tc, ok := st.Cmd.(*syntax.TimeClause)
	if !ok {
		return nil, nil
	}
	at := l.off(tc.Time)
	if tc.Stmt == nil {
		return nil, refuse(l.src, at, KindUnsupported, "time",
			"time with no pipeline reports the shell's own times, which chainrun does not keep; give it a command")
	}
	if _, ok := tc.Stmt.Cmd.(*syntax.TimeClause); ok {
		return nil, refuse(l.src, l.off(tc.Stmt.Pos()), KindUnsupported, "time",
			"time inside time is not supported; time the pipeline once")
	}
	if call, ok := tc.Stmt.Cmd.(*syntax.CallExpr); ok && len(call.Assigns) == 0 && len(call.Args) > 0 &&
		call.Args[0].Lit() == "--" {
		return nil, refuse(l.src, l.off(call.Args[0].Pos()), KindUnsupported, "time",
			"bash reads time -- as time -p; write time -p for the POSIX report, or drop the --")
	}
	return tc, nil
}

// timeCommand lowers time after a | as bash does: the keyword only opens
// a pipeline, so there it is the name of a program (/usr/bin/time), with
// -p its option and the stage its operands.
func (l *lowerer) timeCommand(tc *syntax.TimeClause) error {
	at := l.off(tc.Time)
	if tc.Stmt == nil {
		return refuse(l.src, at, KindUnsupported, "time",
			"time with no command after a | runs the time program with nothing to time; give it a command")
	}
	if _, ok := tc.Stmt.Cmd.(*syntax.CallExpr); !ok {
		return refuse(l.src, at, KindUnsupported, "time",
			"time after a | is the time program, which runs one simple command")
	}
	seg, err := l.segment(tc.Stmt)
	if err != nil {
		return err
	}
	if len(seg.Assigns) > 0 {
		return refuse(l.src, seg.Assigns[0].Span.Start, KindUnsupported, "time",
			"an assignment after time is a program's operand in bash; set it before time")
	}
	lead := []Word{{Span: Span{at, at + len("time")}, Fields: []string{"time"}}}
	if tc.PosixFormat {
		p := at + len("time") + strings.Index(l.src[at+len("time"):], "-p")
		lead = append(lead, Word{Span: Span{p, p + 2}, Fields: []string{"-p"}})
	}
	args := make([]string, 0, len(lead)+len(seg.Args))
	for _, w := range lead {
		args = append(args, w.Fields[0])
	}
	seg.Args = append(args, seg.Args...)
	seg.Words = append(lead, seg.Words...)
	seg.Builtin = ""
	seg.Span.Start = at
	seg.Text = l.src[seg.Span.Start:seg.Span.End]
	l.stage = append(l.stage, seg)
	return nil
}
