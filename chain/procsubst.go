package chain

import (
	"runtime"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ProcDir says which way a process substitution's pipe runs.
type ProcDir string

const (
	// ProcIn is <(…): the segment reads what the inner chain writes.
	ProcIn ProcDir = "<"
	// ProcOut is >(…): the inner chain reads what the segment writes.
	ProcOut ProcDir = ">"
)

// ProcFdBase is the descriptor the first process substitution of a
// segment gets; later ones count down from it, as bash's do (/dev/fd/63,
// /dev/fd/62, …). Redirects cannot name these descriptors (MaxFd), so in
// a child a /dev/fd/N above MaxFd is always a process substitution's pipe.
const ProcFdBase = 63

// procSubst lowers the inner chain of a process substitution and notes
// it for the segment being lowered, as a command substitution's is: the
// policy judges it with the segment before anything runs, and the engine
// runs it (judged again, audited) when the word that holds it expands.
func (l *lowerer) procSubst(ps *syntax.ProcSubst) *ParseError {
	at := l.off(ps.Pos())
	if runtime.GOOS == "windows" {
		return refuse(l.src, at, KindUnsupported, "process substitution",
			"process substitution <(…) / >(…) is not supported; Windows has no /dev/fd: write to a file first, or use a pipeline")
	}
	if len(ps.Stmts) == 0 {
		return refuse(l.src, at, KindUnsupported, "process substitution",
			"an empty process substitution is not supported; name /dev/null instead")
	}
	inner := newLowerer(l.src, l.dialect, sourceFacts{segments: len(ps.Stmts) + 2, redirects: 4})
	inner.params, inner.globstar, inner.inPart = l.params, l.globstar, true
	if err := inner.file(&syntax.File{Stmts: ps.Stmts}); err != nil {
		if pe, ok := err.(*ParseError); ok {
			return pe
		}
		return refuse(l.src, at, KindUnsupported, "process substitution", "%v", err)
	}
	dir := ProcIn
	if ps.Op == syntax.CmdOut {
		dir = ProcOut
	}
	l.substs = append(l.substs, &Subst{Span: Span{at, l.off(ps.End())}, Chain: inner.chain, Proc: dir})
	return nil
}

// ProcFd returns the descriptor the process substitution sb of the
// segment gets in its child, counting down from ProcFdBase in source
// order, or -1 when sb is no process substitution of s.
func (s *Segment) ProcFd(sb *Subst) int {
	n := 0
	for _, x := range s.Substs {
		if x == sb {
			if x.Proc == "" {
				return -1
			}
			return ProcFdBase - n
		}
		if x.Proc != "" {
			n++
		}
	}
	return -1
}

// HasProcSubst reports whether the segment holds a process substitution.
func (s *Segment) HasProcSubst() bool {
	for _, sb := range s.Substs {
		if sb.Proc != "" {
			return true
		}
	}
	return false
}

// paramProcSubst refuses <( or >( in the word of ${X:-…} and its kind:
// the parser reads it as text, where bash, outside double quotes, runs it.
func (l *lowerer) paramProcSubst(pe *syntax.ParamExp) *ParseError {
	if pe.Exp == nil || pe.Exp.Word == nil {
		return nil
	}
	for _, p := range pe.Exp.Word.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		i := strings.Index(lit.Value, "<(")
		if j := strings.Index(lit.Value, ">("); i < 0 || j >= 0 && j < i {
			i = j
		}
		if i >= 0 {
			return refuse(l.src, l.off(lit.Pos())+i, KindUnsupported, "process substitution",
				"a process substitution inside ${…} is not supported; write it as a word of its own")
		}
	}
	return nil
}
