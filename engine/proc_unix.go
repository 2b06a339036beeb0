//go:build unix

package engine

import (
	"github.com/chainrun/chainrun/posix"
)

// unixProcess is a segment started by package posix in its own session,
// or in the chain's foreground group when interactive.
type unixProcess struct{ p *posix.Process }

func startProcess(s *spawnSpec) (process, error) {
	a := &posix.Attr{Dir: s.Dir, Env: s.Env, Files: s.Files}
	if s.Interactive {
		if s.Pgid > 0 {
			a.Group = s.Pgid
		} else {
			a.Foreground = true
		}
	}
	p, err := posix.Start(s.Target.Path, s.Args, a)
	if err != nil {
		return nil, err
	}
	return unixProcess{p}, nil
}

func (u unixProcess) Wait() (exitInfo, error) {
	st, err := u.p.Wait()
	u.p.Release()
	return exitInfo{Code: st.Code, Signal: st.Signal}, err
}

func (u unixProcess) Interrupt() error { return u.p.Interrupt() }
func (u unixProcess) Kill() error      { return u.p.Kill() }
func (u unixProcess) Close() error     { return nil }
func (u unixProcess) Pid() int         { return u.p.Pid() }

// group is the process group the segment runs in.
func (u unixProcess) group() int { return u.p.Pgid() }
