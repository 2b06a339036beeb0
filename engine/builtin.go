package engine

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/builtin"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/resolve"
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
	if seg.Builtin == chain.BuiltinRead && files[0] == r.stdin && r.stdinBlocks() {
		closeAll(opened)
		err := &SegmentError{Kind: chain.KindUnsupported, Segment: st.res.Index, Text: seg.Text, Err: errReadStdin}
		r.failStage(st, seg, err, 1, []byte("chainrun: read: "+errReadStdin.Error()+"\n"))
		return
	}
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
	var state builtin.State = (*builtinState)(r)
	if r.inBackground {
		state = r.frozen()
	}
	st.done = make(chan struct{})
	go func() {
		defer close(st.done)
		code, sigpipe := builtin.Run(call, state)
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

func (s *builtinState) Dir() string                       { return s.dir }
func (s *builtinState) Status() int                       { return s.status }
func (s *builtinState) Shell() *expand.Shell              { return (*runner)(s).shell() }
func (s *builtinState) Keep(sh *expand.Shell)             { (*runner)(s).keep(sh, false) }
func (s *builtinState) Exit()                             { s.exited = true }
func (s *builtinState) Loops() int                        { return s.flow.loops }
func (s *builtinState) Jump(cont bool, n int)             { (*runner)(s).loopJump(cont, n) }
func (s *builtinState) Options() *builtin.Options         { return &s.shopts }
func (s *builtinState) Hashed(name string) (string, bool) { return (*runner)(s).hashed(name) }
func (s *builtinState) Find(name string, env []string) (string, bool) {
	t, err := resolve.Find(name, s.dir, env)
	return t.Path, err == nil
}
func (s *builtinState) Chdir(dir string) {
	r := (*runner)(s)
	r.setEnv("OLDPWD", r.dir)
	r.setEnv("PWD", dir)
	r.dir = dir
}

// hashed is bash's hash table, read off the segments run so far: the path
// of the last program named name (a bare name, searched in PATH) that a
// pipeline of one segment ran, unless PATH was assigned after it. Reading
// it here, only when type or command -V asks, keeps the table off the
// path of every segment that starts.
func (r *runner) hashed(name string) (path string, ok bool) {
	i := 0
	for _, p := range r.c.Pipelines {
		for _, seg := range p.Segments {
			res := &r.res.Segments[i]
			i++
			switch {
			case res.Skipped:
			case setsPath(seg):
				path, ok = "", false
			case len(p.Segments) == 1 && res.Path != "" && ranName(res.Args) == name:
				path, ok = res.Path, true
			}
		}
	}
	return path, ok
}

// ranName is the program name a segment's words ran, behind command.
func ranName(args []string) string {
	if words := chain.CommandWords(args); words != nil {
		args = words
	}
	if len(args) == 0 || strings.ContainsAny(args[0], `/\`) {
		return ""
	}
	return args[0]
}

// setsPath reports a segment that assigns PATH for the chain, which
// empties bash's hash table.
func setsPath(seg *chain.Segment) bool {
	if len(seg.Args) == 0 || seg.Builtin == chain.BuiltinExport {
		for _, a := range seg.Assigns {
			if a.Name == "PATH" {
				return true
			}
		}
		for _, a := range seg.Args {
			if strings.HasPrefix(a, "PATH=") {
				return true
			}
		}
	}
	return false
}

// errReadStdin is why read does not read a stdin that could block it past
// the chain's end.
var errReadStdin = errors.New("the chain's stdin is a terminal or a pipe chainrun does not feed, which a read inside " +
	"chainrun could wait on past the chain's timeout; give read its input with < FILE, <<< TEXT, a pipe from a " +
	"command, or the stdin option")

// stdinBlocks reports whether a read built-in on the chain's own stdin
// could block beyond the chain's stop: a read inside chainrun is no
// process the stop can end. The null device, a regular file and the
// pipe chainrun feeds (closed by the stop) end; a terminal or a pipe
// handed in as it is may not, which matters only when a timeout or a
// context bounds the chain. (A forwarded signal reaches the writer of
// such a pipe too, in the caller's process group, and a terminal ends
// the read with Ctrl-D, as it does bash's.)
func (r *runner) stdinBlocks() bool {
	if r.ownStdin || r.opts.inherit != nil && r.opts.inherit.stdinOK && r.stdin == r.opts.Stdin {
		return false
	}
	if fi, err := r.stdin.Stat(); err == nil && fi.Mode().IsRegular() {
		return false
	}
	return r.ctx.Done() != nil || r.opts.Timeout > 0
}

// frozenState is what a built-in of a pipeline run in the background (&)
// reads: the chain's state as the pipeline starts, taken then, because
// the chain goes on meanwhile and changes its own. Like any stage of a
// subshell, it changes nothing of the chain.
type frozenState struct {
	sh     *expand.Shell
	dir    string
	status int
	opts   builtin.Options
	hashed func(string) (string, bool)
}

// frozen takes the state a background built-in reads.
func (r *runner) frozen() *frozenState {
	paths := map[string]string{}
	for _, p := range r.c.Pipelines {
		for _, seg := range p.Segments {
			if len(seg.Args) > 0 {
				if path, ok := r.hashed(seg.Args[0]); ok {
					paths[seg.Args[0]] = path
				}
			}
		}
	}
	return &frozenState{sh: cloneShell(r.shell()), dir: r.dir, status: r.status, opts: r.shopts,
		hashed: func(name string) (string, bool) { p, ok := paths[name]; return p, ok }}
}

// cloneShell copies sh with its own environment, variables and
// parameters, which a built-in may change.
func cloneShell(sh *expand.Shell) *expand.Shell {
	c := *sh
	c.Env, c.Vars, c.Declared, c.Params = slices.Clone(sh.Env), maps.Clone(sh.Vars), maps.Clone(sh.Declared), slices.Clone(sh.Params)
	return &c
}

func (f *frozenState) Dir() string                       { return f.dir }
func (f *frozenState) Status() int                       { return f.status }
func (f *frozenState) Shell() *expand.Shell              { return cloneShell(f.sh) }
func (f *frozenState) Keep(*expand.Shell)                {}
func (f *frozenState) Chdir(string)                      {}
func (f *frozenState) Exit()                             {}
func (f *frozenState) Options() *builtin.Options         { o := f.opts; return &o }
func (f *frozenState) Hashed(name string) (string, bool) { return f.hashed(name) }
func (f *frozenState) Find(name string, env []string) (string, bool) {
	t, err := resolve.Find(name, f.dir, env)
	return t.Path, err == nil
}
