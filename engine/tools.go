package engine

import (
	"context"
	"errors"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/resolve"
	"github.com/chainrun/chainrun/tools"
)

// toolFor returns the built-in tool the segment runs instead of a program
// (package tools; Options.Tools says when), or nil.
func (r *runner) toolFor(seg *chain.Segment, env []string) *tools.Tool {
	t, ok := tools.Lookup(seg.Args[0])
	windows := runtime.GOOS == "windows"
	if !ok {
		return nil
	}
	switch r.opts.Tools.For(windows) {
	case tools.ModeAlways:
		return t
	case tools.ModeMissing:
		target, err := resolve.Find(seg.Args[0], r.dir, env)
		if err != nil && !errors.Is(err, resolve.ErrNotExecutable) {
			return t
		}
		if err == nil && windows && tools.WindowsShadowed(target.Path, systemRoot(env), seg.Args) {
			return t
		}
	}
	return nil
}

// startTool runs a built-in tool in a goroutine with the segment's fd
// table, as startBuiltin runs a pipeline stage, and tracks it as a process
// (toolProcess) so that a timeout, a cancel or a forwarded signal stops it
// as it stops a program.
func (r *runner) startTool(st *stage, seg *chain.Segment, t *tools.Tool, in, out *os.File, env []string, pgid *int) {
	files, opened, ok := r.redirectStage(st, seg, in, out)
	if !ok {
		return
	}
	st.res.Kind = "tool"
	ctx, cancel := context.WithCancel(r.ctx)
	p := &toolProcess{cancel: cancel, done: make(chan struct{}), stdin: files[0]}
	st.done = p.done // the goroutine closes its own pipe ends
	r.mu.Lock()
	if r.stopping {
		r.mu.Unlock()
		cancel()
		closeAll(opened)
		r.closeEnds(in, out)
		close(p.done)
		st.res.Skipped = true
		return
	}
	r.track(st, p, pgid)
	r.mu.Unlock()
	call := tools.Call{Ctx: ctx, Args: seg.Args, Dir: r.dir, Env: env, Stdin: files[0], Stdout: files[1], Stderr: files[2]}
	go func() {
		defer close(p.done)
		p.code, p.sigpipe = t.Run(call)
		cancel()
		closeAll(opened)
		r.closeEnds(in, out)
	}()
}

// closeEnds closes a goroutine stage's pipe ends, not the chain's own.
func (r *runner) closeEnds(in, out *os.File) {
	if in != r.stdin {
		in.Close()
	}
	if out != r.out.w {
		out.Close()
	}
}

// toolProcess is a built-in tool as the runner's stop and wait see it.
type toolProcess struct {
	cancel  context.CancelFunc
	done    chan struct{}
	stdin   *os.File
	code    int
	sigpipe bool
	stopped atomic.Bool // Interrupt or Kill reached it
}

func (p *toolProcess) Wait() (exitInfo, error) {
	<-p.done
	if p.stopped.Load() {
		// As a program that SIGTERM ended: the tool stopped part way.
		return exitInfo{Code: 128 + int(syscall.SIGTERM), Signal: int(syscall.SIGTERM)}, nil
	}
	if p.sigpipe {
		return exitInfo{Code: p.code, Signal: int(syscall.SIGPIPE)}, nil
	}
	return exitInfo{Code: p.code}, nil
}

// Interrupt ends the tool at its next step; a read blocked on a pipe is
// woken where the OS allows a deadline on it.
func (p *toolProcess) Interrupt() error {
	select {
	case <-p.done:
		return nil
	default:
	}
	p.stopped.Store(true)
	p.cancel()
	if p.stdin != nil {
		p.stdin.SetReadDeadline(time.Now())
	}
	return nil
}

func (p *toolProcess) Kill() error                { return p.Interrupt() }
func (p *toolProcess) Close() error               { return nil }
func (p *toolProcess) Pid() int                   { return 0 }
func (p *toolProcess) Signal(sig os.Signal) error { return p.Interrupt() }
func (p *toolProcess) Group() int                 { return 0 }
func (p *toolProcess) Warning() string            { return "" }

// systemRoot is the Windows directory, where find.exe and sort.exe live.
func systemRoot(env []string) string {
	v, _ := lookup(env, "SystemRoot")
	return v
}
