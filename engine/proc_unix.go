//go:build unix

package engine

import (
	"os"
	"syscall"

	"github.com/chainrun/chainrun/posix"
)

// unixProcess is a segment started by package posix in its pipeline's
// process group (or its own session).
type unixProcess struct{ p *posix.Process }

func startProcess(s *spawnSpec) (process, error) {
	a := &posix.Attr{Dir: s.Dir, Env: s.Env, Files: s.Files, Group: s.Pgid, Foreground: s.Interactive,
		PollWait: s.InPipeline}
	// A pipeline shares one process group in chainrun's session, as a
	// shell's job does (and the scheduler groups it with chainrun). Where
	// chainrun has a controlling terminal and the chain is not
	// interactive, each segment gets its own session instead, so that no
	// program can stop on or prompt through that terminal.
	a.Session = !s.Interactive && posix.HasControllingTerminal()
	path, argv := s.Target.Path, s.Args
	if s.Confine != nil {
		path, argv = s.Confine.apply(a, path, argv)
	}
	p, err := posix.Start(path, argv, a)
	if err != nil {
		return nil, err
	}
	return unixProcess{p}, nil
}

func (u unixProcess) Wait() (exitInfo, error) {
	st, err := u.p.Wait()
	return exitInfo{Code: st.Code, Signal: st.Signal, User: st.User, Sys: st.Sys}, err
}

func (u unixProcess) Interrupt() error { return u.p.Interrupt() }
func (u unixProcess) Kill() error      { return u.p.Kill() }
func (u unixProcess) Close() error     { return nil }
func (u unixProcess) Pid() int         { return u.p.Pid() }

func (u unixProcess) Group() int      { return u.p.Pgid() }
func (u unixProcess) Warning() string { return "" }

// Signal forwards any signal to the segment's group; one that is not a
// POSIX signal interrupts it.
func (u unixProcess) Signal(sig os.Signal) error {
	if s, ok := sig.(syscall.Signal); ok {
		return u.p.Signal(s)
	}
	return u.p.Interrupt()
}
