package engine

import (
	"os"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/builtin"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
)

// startBuiltin runs an engine built-in (package builtin): inline when it
// is the whole pipeline (so cd and exit affect the chain), in a goroutine
// writing to its pipe when it is one stage of several (so they affect
// nothing after, as in bash's subshell).
func (r *runner) startBuiltin(st *stage, seg *chain.Segment, in, out *os.File, env []string, inPipeline bool) {
	files, opened, ok := r.redirectStage(st, seg, in, out)
	if !ok {
		return
	}
	st.res.Kind = "builtin"
	call := builtin.Call{Seg: seg, Files: files, Env: env, InPipeline: inPipeline}
	if !inPipeline {
		code, sigpipe := builtin.Run(call, (*builtinState)(r))
		closeAll(opened)
		st.res.ExitCode = code
		if sigpipe {
			// bash itself would have died of the SIGPIPE: nothing after
			// this runs, and the chain's status is the signal's.
			st.res.Signal = int(syscall.SIGPIPE)
			r.exited = true
		}
		st.res.Duration = time.Since(st.start)
		return
	}
	st.done = make(chan struct{})
	go func() {
		defer close(st.done)
		code, sigpipe := builtin.Run(call, (*builtinState)(r))
		closeAll(opened)
		if in != r.stdin {
			in.Close()
		}
		if out != r.out.w {
			out.Close()
		}
		st.res.ExitCode = code
		if sigpipe {
			st.res.Signal = int(syscall.SIGPIPE)
		}
		st.res.Duration = time.Since(st.start)
	}()
}

// builtinState is the runner as the built-ins see it (builtin.State).
// A built-in in a pipeline stage only reads it.
type builtinState runner

func (s *builtinState) Dir() string           { return s.dir }
func (s *builtinState) Status() int           { return s.status }
func (s *builtinState) Shell() *expand.Shell  { return (*runner)(s).shell() }
func (s *builtinState) Keep(sh *expand.Shell) { (*runner)(s).keep(sh, false) }
func (s *builtinState) Exit()                 { s.exited = true }
func (s *builtinState) Chdir(dir string) {
	r := (*runner)(s)
	r.setEnv("OLDPWD", r.dir)
	r.setEnv("PWD", dir)
	r.dir = dir
}
