package expand

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/chain"
)

// ProcStarter starts the inner chain of a process substitution in shell
// sh (a copy of the state the segment starts in), connected to a pipe
// whose other end the segment's child gets as descriptor fd. It returns
// once the inner chain has started; the engine waits for it. An error
// fails the expansion of the segment.
type ProcStarter func(s *chain.Subst, fd int, sh *Shell) error

// procSubst is mvdan's ProcSubst hook: the word becomes /dev/fd/N, the
// path of the child's descriptor N. A plan knows the path without running
// anything; a run starts the inner chain through the Shell's StartProc.
func (s *Shell) procSubst(ps *syntax.ProcSubst) (string, error) {
	var sb *chain.Subst
	if s.segment != nil {
		sb = s.segment.SubstAt(int(ps.Pos().Offset()))
	}
	if sb == nil || sb.Proc == "" {
		return "", unsupportedf("process substitution outside a segment's words is not supported")
	}
	fd := s.segment.ProcFd(sb)
	path := "/dev/fd/" + strconv.Itoa(fd)
	if s.unknown != nil {
		return path, nil
	}
	if s.StartProc == nil {
		return "", unsupportedf("process substitution needs a runner to run its inner chain, and none is set")
	}
	return path, s.StartProc(sb, fd, s.Clone())
}
