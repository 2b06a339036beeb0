package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/builtin"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/redirect"
	"github.com/chainrun/chainrun/resolve"
)

// startStage starts one segment with stdin in and stdout out, in the order
// that keeps a failure harmless: resolve the program, then open its
// redirects, then spawn it. An engine built-in has nothing to resolve or
// spawn (startBuiltin) but shares the redirect step, so a redirect fails
// the same way whatever the segment runs.
func (r *runner) startStage(st *stage, seg *chain.Segment, in, out *os.File, inPipeline bool, pgid *int) {
	st.res.Skipped = false
	st.start = time.Now()
	if seg.Compound != nil {
		r.startCompound(st, seg, in, out, inPipeline)
		return
	}
	defer r.closeProcFds() // what a stage that did not start left
	seg, ok := r.expandStage(st, seg, inPipeline)
	if !ok {
		return
	}
	if r.shopts.Xtrace {
		r.writeStderr(st, nil, builtin.Trace(r.depth, seg.Assigns, seg.Args, r.env))
	}
	if seg.Builtin == "" && len(seg.Args) > 1 && seg.Args[0] == string(chain.BuiltinCommand) {
		if seg, ok = r.commandTarget(st, seg); !ok {
			return
		}
	}
	env := r.env
	if len(seg.Assigns) > 0 {
		env = withAssigns(r.env, seg.Assigns)
	}
	if seg.IsBuiltin() || len(seg.Args) == 0 {
		r.startBuiltin(st, seg, in, out, env, inPipeline)
		if !inPipeline {
			r.substStatus(st, seg)
		}
		return
	}
	if t := r.toolFor(seg, env); t != nil && r.proc.fds == nil { // a tool would open chainrun's /dev/fd
		r.startTool(st, seg, t, in, out, env, pgid)
		return
	}
	target, ok := r.resolveStage(st, seg, in, out, env)
	if !ok {
		return
	}
	files, opened, ok := r.redirectStage(st, seg, in, out)
	if !ok {
		return
	}
	spec := &spawnSpec{Target: target, Args: seg.Args, Env: env, Dir: r.dir, Files: files,
		Interactive: r.opts.Interactive && r.ttyFd >= 0 && !r.inBackground, Pgid: *pgid, InPipeline: inPipeline, Confine: r.confined(seg.Args),
		// Only chainrun reads its stdout: no other stage, file or live writer.
		Captured: (files[1] == r.out.w && r.out.buf != nil && r.out.live == nil) ||
			(files[1] == r.errs.w && r.errs.buf != nil && r.errs.live == nil)}
	st.res.Sandboxed = spec.Confine != nil
	r.spawnStage(st, seg, spec, opened, pgid)
}

// commandTarget is the segment command NAME … runs: NAME and its words, a
// built-in or a program, as if command were not there (a chain has no
// functions for command to skip). The policy judged NAME through the
// command wrapper. A NAME chainrun does not run behind command (a built-in
// that changes the chain, a shell built-in) ends the chain with status 2,
// as the parser refuses it when it is written out.
func (r *runner) commandTarget(st *stage, seg *chain.Segment) (*chain.Segment, bool) {
	out := *seg
	words := chain.CommandWords(seg.Args)
	if words == nil {
		out.Builtin = chain.BuiltinCommand // command -v or -V, known only now
		return &out, true
	}
	out.Args = words
	if msg := chain.CommandTargetRefusal(out.Args, r.c.Dialect); msg != "" {
		err := &SegmentError{Kind: chain.KindUnsupported, Segment: st.res.Index, Text: seg.Text, Err: errors.New(msg)}
		r.failStage(st, seg, err, 2, []byte("chainrun: "+msg+"\n"))
		r.exited = true
		return nil, false
	}
	out.Builtin, _ = seg.CommandBuiltin(out.Args)
	return &out, true
}

// resolveStage finds the segment's program with the segment's environment
// and the chain's current directory. A program that resolves has its
// redirects opened next (redirectStage), so the hot path opens each
// target once; one that does not fails as in bash, which applies the
// redirects before it looks for the program (notFound). On failure ok is
// false.
func (r *runner) resolveStage(st *stage, seg *chain.Segment, in, out *os.File, env []string) (t resolve.Target, ok bool) {
	t, err := resolve.Find(seg.Args[0], r.dir, env)
	if err != nil {
		r.notFound(st, seg, in, out, err)
		return t, false
	}
	st.res.Path, st.res.Kind = t.Path, string(t.Kind)
	return t, true
}

// notFound fails a segment whose program cannot be found or run as bash
// does: its redirects are applied first (a > target is created or
// truncated, a failing redirect is reported with status 1 instead), then
// the program's status and message go to fd 2 as the redirects left it
// (2> e1 puts it in e1, 2>&1 | down the pipe).
func (r *runner) notFound(st *stage, seg *chain.Segment, in, out *os.File, err error) {
	files, opened, ok := r.redirectStage(st, seg, in, out)
	if !ok {
		return
	}
	kind, code, msg := r.unresolved(seg.Args[0], err)
	r.failStage(st, seg, &SegmentError{Kind: kind, Segment: st.res.Index, Text: seg.Text, Err: err}, code, nil)
	r.writeStderr(st, files[2], []byte("chainrun: "+seg.Args[0]+": "+msg+"\n"))
	closeAll(opened)
}

// unresolved is bash's view of a program resolve.Find refused: 127
// "command not found" for a name searched in PATH, 127 "No such file or
// directory" for a path, or 126 "Permission denied" ("Is a directory" for
// a directory), followed by the resolver's hint when it has one (ErrDot's
// "use ./name").
func (r *runner) unresolved(name string, err error) (kind chain.ErrorKind, code int, msg string) {
	kind, code, msg = chain.KindNotFound, 127, "command not found"
	if errors.Is(err, resolve.ErrNoFile) {
		msg = redirect.Describe(fs.ErrNotExist)
	}
	if errors.Is(err, resolve.ErrNotExecutable) {
		kind, code, msg = chain.KindNotExecutable, 126, "Permission denied"
		if fi, e := os.Stat(filepath.Join(r.dir, name)); e == nil && fi.IsDir() {
			msg = "Is a directory"
		}
	}
	var re *resolve.Error
	if errors.As(err, &re) && re.Hint != "" {
		msg += " (" + re.Hint + ")"
	}
	return kind, code, msg
}

// redirectStage builds the stage's fd table (in, out and the chain's
// stderr, then its redirects in source order) and notes which captured
// streams it writes to. A redirect that fails fails the stage as in bash:
// status 1 and a *SegmentError of KindRedirect, bash's message on fd 2 as
// the earlier redirects left it, and the files already opened closed; ok
// is then false. opened are the files the stage's redirects opened, for
// the caller to close once the stage holds its own copies.
func (r *runner) redirectStage(st *stage, seg *chain.Segment, in, out *os.File) (files, opened []*os.File, ok bool) {
	files = []*os.File{in, out, r.errs.w}
	files, procEnds := procTable(files, r.takeProcFds())
	opened = procEnds
	if len(seg.Redirects) > 0 {
		var err error
		o := r.opener()
		o.Judged = st.judged
		if r.confined(seg.Args) != nil {
			o.Confine = r.opts.Sandbox.Check
		}
		var more []*os.File
		files, more, err = o.Apply(files, seg.Redirects)
		opened = append(more, procEnds...)
		if errors.Is(err, redirect.ErrChanged) {
			r.refuseChanged(st, seg, err)
			closeAll(opened)
			return nil, nil, false
		}
		if err != nil {
			r.failStage(st, seg, &SegmentError{Kind: chain.KindRedirect, Segment: st.res.Index, Text: seg.Text, Err: err}, 1, nil)
			r.writeStderr(st, files[2], []byte("chainrun: "+err.Error()+"\n"))
			closeAll(opened)
			return nil, nil, false
		}
	}
	st.toOut, st.toErr = r.targets(files)
	return files, opened, true
}

// refuseChanged stops the chain at a segment whose redirect target is no
// longer the file the policy judged: what it would open was never judged,
// so the segment is denied at run time, as a stricter verdict is.
func (r *runner) refuseChanged(st *stage, seg *chain.Segment, err error) {
	de := &chain.DeniedError{Segment: seg.Index, Text: seg.Text, AtRunTime: true,
		Reason: "redirect target " + err.Error() + " (a link, file or directory was swapped in after the judgement); the segment did not start"}
	r.failStage(st, seg, &SegmentError{Kind: chain.KindDenied, Segment: st.res.Index, Text: seg.Text, Err: de}, 1, nil)
	r.denied, r.exited = de, true
}

// opener opens redirect targets relative to the chain's current directory,
// with the host's null device names.
func (r *runner) opener() redirect.Opener {
	return redirect.Opener{Dir: r.dir, Windows: runtime.GOOS == "windows", Feeds: &r.feeds}
}

// spawnStage starts the program, unless the chain began stopping while the
// stage was being prepared: then its files are closed and it stays
// skipped. Starting and joining r.live are one step under r.mu, so a stop
// either reaches the new process or keeps it from starting. A program the
// OS will not run gets 126 and its reason on the chain's stderr.
func (r *runner) spawnStage(st *stage, seg *chain.Segment, spec *spawnSpec, opened []*os.File, pgid *int) {
	r.mu.Lock()
	if r.stopping {
		r.mu.Unlock()
		closeAll(opened)
		st.res.Skipped = true
		return
	}
	proc, err := startProcess(spec)
	if err == nil {
		r.track(st, proc, pgid)
	}
	r.mu.Unlock()
	closeAll(opened)
	if err != nil {
		r.failStage(st, seg, &SegmentError{Kind: chain.KindNotExecutable, Segment: st.res.Index, Text: seg.Text, Err: err}, 126,
			[]byte("chainrun: "+seg.Args[0]+": "+describeExecError(err)+noShebangHint(err, seg.Args[0])+"\n"))
	}
}

// noShebangHint says how to run a file the kernel will not execute
// (ENOEXEC): a script without a #! line, or an empty file. bash would run
// it as a shell script itself; chainrun starts no shell behind the
// policy's back, so the user names the shell, which the policy then
// judges as one.
func noShebangHint(err error, name string) string {
	if !errors.Is(err, syscall.ENOEXEC) {
		return ""
	}
	return " (a script without a #! line or an empty file; chainrun starts no shell for it: run sh " + name +
		" or bash " + name + ", or give it a #! line)"
}

// track makes a started process one the stop and the sweep can reach, and
// its group the one the pipeline's later stages join; r.mu is held.
func (r *runner) track(st *stage, proc process, pgid *int) {
	st.proc = proc
	st.res.Warning = proc.Warning()
	r.live = append(r.live, st)
	if g := proc.Group(); g != 0 {
		r.groups = append(r.groups, g)
		r.host.holdGroup(g)
		if *pgid == 0 {
			*pgid = g // later stages join the first one's group
		}
	}
}

// describeExecError is the OS's reason without the path, which the
// message already names as the user wrote it.
func describeExecError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}

// targets reports whether a stage writes to the captured streams, so that
// countBytes can credit it with their bytes.
func (r *runner) targets(files []*os.File) (toOut, toErr bool) {
	for i := 1; i <= 2 && i < len(files); i++ {
		if files[i] == r.out.w {
			toOut = true
		}
		if files[i] == r.errs.w {
			toErr = true
		}
	}
	return
}

// writeStderr writes one of chainrun's own messages to a segment's fd 2
// (f), or to the chain's stderr when the segment has none.
func (r *runner) writeStderr(st *stage, f *os.File, msg []byte) {
	if f == nil {
		f = r.errs.w
	}
	f.Write(msg)
	if f == r.errs.w {
		st.toErr = true
	}
	if f == r.out.w {
		st.toOut = true
	}
}

// failStage records a segment that could not start; msg, if any, goes to
// the chain's stderr as bash would print it.
func (r *runner) failStage(st *stage, seg *chain.Segment, err *SegmentError, code int, msg []byte) {
	st.res.Skipped = false
	st.res.ExitCode = code
	st.res.Error, st.res.Err = err.Error(), err
	if msg != nil {
		r.errs.w.Write(msg)
		st.toErr = true
	}
}
