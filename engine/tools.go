package engine

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"
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
	return r.toolForArgs(seg.Args, env)
}

// toolForArgs is toolFor for an argv (a command env or xargs runs). In a
// sandboxed run there is none: a tool works in chainrun's own process,
// which the kernel does not hold to the boundary, so the real program
// runs, confined, or the segment fails as bash's would.
func (r *runner) toolForArgs(args, env []string) *tools.Tool {
	if r.jail != nil {
		return nil
	}
	windows := runtime.GOOS == "windows"
	mode := r.opts.Tools.For(windows)
	if mode == tools.ModeNever {
		return nil
	}
	t, ok := tools.Lookup(args[0])
	if !ok {
		return nil
	}
	switch mode {
	case tools.ModeAlways:
		return t
	case tools.ModeMissing:
		target, err := resolve.Find(args[0], r.dir, env)
		if err != nil && !errors.Is(err, resolve.ErrNotExecutable) {
			return t
		}
		if err == nil && windows && (tools.WindowsShadowed(target.Path, systemRoot(env), args) ||
			target.Kind == resolve.CmdBuiltin && tools.CmdShadowed(args)) {
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
	call.Exec = r.toolExec(p, r.dir)
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
	mu      sync.Mutex
	child   process     // the program env or xargs runs, while it runs
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
	p.mu.Lock()
	if p.child != nil {
		p.child.Interrupt()
	}
	p.mu.Unlock()
	if p.stdin != nil {
		p.stdin.SetReadDeadline(time.Now())
	}
	return nil
}

// Kill ends the tool and the program it runs at once.
func (p *toolProcess) Kill() error {
	p.Interrupt()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.child != nil {
		p.child.Kill()
	}
	return nil
}

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

// toolExec runs the commands of env and xargs as a segment's program is
// run: a tool when Options.Tools says so, else the program found with the
// command's environment, started in its own group and stopped with the
// tool (p). Its streams must be files (they are the segment's, or the
// null device).
func (r *runner) toolExec(p *toolProcess, dir string) tools.Exec {
	var exec tools.Exec
	exec = func(ctx context.Context, argv, env []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
		if t := r.toolForArgs(argv, env); t != nil {
			code, _ := t.Run(tools.Call{Ctx: ctx, Args: argv, Dir: dir, Env: env, Stdin: stdin, Stdout: stdout, Stderr: stderr, Exec: exec})
			return code, nil
		}
		if env == nil {
			env = []string{} // nil would hand the child chainrun's own
		}
		target, err := resolve.Find(argv[0], dir, withDefaultPath(env))
		if err != nil {
			if errors.Is(err, resolve.ErrNotExecutable) {
				return 126, fs.ErrPermission
			}
			return 127, fs.ErrNotExist
		}
		files, ok := asFiles(stdin, stdout, stderr)
		if !ok {
			return 126, errors.New("the command's streams are not files")
		}
		return p.runChild(r, &spawnSpec{Target: target, Args: argv, Env: env, Dir: dir, Files: files})
	}
	return exec
}

// runChild starts the program, unless the tool was stopped, and waits.
func (p *toolProcess) runChild(r *runner, spec *spawnSpec) (int, error) {
	p.mu.Lock()
	if p.stopped.Load() {
		p.mu.Unlock()
		return 128 + int(syscall.SIGTERM), nil
	}
	proc, err := startProcess(spec)
	if err != nil {
		p.mu.Unlock()
		return 126, err
	}
	p.child = proc
	p.mu.Unlock()
	if g := proc.Group(); g != 0 {
		r.mu.Lock()
		r.groups = append(r.groups, g)
		r.host.holdGroup(g)
		r.mu.Unlock()
	}
	ei, err := proc.Wait()
	p.mu.Lock()
	p.child = nil
	p.mu.Unlock()
	proc.Close()
	return ei.Code, err
}

// asFiles returns the streams as files.
func asFiles(s ...any) ([]*os.File, bool) {
	files := make([]*os.File, len(s))
	for i, x := range s {
		f, ok := x.(*os.File)
		if !ok {
			return nil, false
		}
		files[i] = f
	}
	return files, true
}

// withDefaultPath gives an environment without PATH (env -i) the search
// path execvp uses then, on POSIX: /bin:/usr/bin.
func withDefaultPath(env []string) []string {
	if _, ok := lookup(env, "PATH"); ok || runtime.GOOS == "windows" {
		return env
	}
	return append(env[:len(env):len(env)], "PATH=/bin:/usr/bin")
}
