package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/redirect"
	"github.com/chainrun/chainrun/resolve"
)

// Run runs a parsed chain with bash's meaning and returns what it did.
//
// The whole chain is judged by opts.Authorizer before anything starts; a
// denial returns a *DeniedError and a nil Result, and nothing runs and no
// file is touched. Otherwise Run returns a Result describing every
// segment. A segment that cannot start (not found, not executable, a
// failed redirect) gets bash's status and its error in its SegmentResult;
// the chain goes on as bash's would. The returned error is non-nil only
// when the chain as a whole did not finish: it timed out (an error
// matching ErrTimeout; Result.ExitCode is 124), the context was canceled
// (ctx.Err()), or the OS failed us (KindInternal).
//
// When Run returns, every process the chain started has ended, and no
// goroutine or file of the run remains.
func Run(ctx context.Context, c *chain.Chain, opts Options) (*Result, error) {
	dir, err := startDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	rec := &AuditRecord{Command: c.Source, Dir: dir}
	if opts.Auditor != nil {
		defer func() { opts.Auditor.Audit(rec) }()
	}
	if err := Check(c, opts); err != nil {
		rec.Err = err
		return nil, err
	}
	if err := authorize(ctx, c, dir, opts, rec); err != nil {
		rec.Err = err
		return nil, err
	}
	defer guardConsole()()
	r := newRunner(ctx, c, opts, dir)
	res, err := r.run()
	if res != nil {
		res.Decision = rec.Decision
	}
	rec.Result, rec.Err = res, err
	return res, err
}

func startDir(d string) (string, error) {
	if d == "" {
		return os.Getwd()
	}
	return filepath.Abs(d)
}

// authorize applies the policy hooks: deny refuses, ask needs the
// approver's yes.
func authorize(ctx context.Context, c *chain.Chain, dir string, opts Options, rec *AuditRecord) error {
	if opts.Authorizer == nil {
		return nil
	}
	d, err := opts.Authorizer.Authorize(ctx, c, dir)
	if err != nil {
		return err
	}
	rec.Decision = d
	if d == nil {
		return &chain.DeniedError{Segment: -1, Reason: "no decision"}
	}
	switch d.Verdict {
	case chain.Allow:
		return nil
	case chain.Ask:
		if opts.Approver == nil {
			return deniedBy(c, d, chain.Ask, "needs approval")
		}
		ok, err := opts.Approver.Approve(ctx, c, d)
		if err != nil {
			return err
		}
		if !ok {
			return deniedBy(c, d, chain.Ask, "not approved")
		}
		return nil
	}
	return deniedBy(c, d, chain.Deny, "")
}

// deniedBy names the first segment with verdict v as the deciding one.
func deniedBy(c *chain.Chain, d *chain.Decision, v chain.Verdict, reason string) *chain.DeniedError {
	e := &chain.DeniedError{Segment: -1, Reason: reason, Decision: d}
	segs := c.Segments()
	for _, sd := range d.Segments {
		if sd.Verdict != v {
			continue
		}
		e.Segment, e.Rule = sd.Segment, sd.Rule
		if sd.Segment >= 0 && sd.Segment < len(segs) {
			e.Text = segs[sd.Segment].Text
		}
		if e.Reason == "" {
			e.Reason = strings.Join(sd.Reasons, "; ")
		}
		return e
	}
	if e.Reason == "" {
		e.Reason = strings.Join(d.Chain, "; ")
	}
	return e
}

// runner is the state of one Run.
type runner struct {
	ctx   context.Context
	c     *chain.Chain
	opts  Options
	dir   string   // the chain's current directory (logical, as bash's PWD)
	env   []string // the chain's environment
	envMy bool     // env is our own copy
	res   *Result

	stdin     *os.File
	stdinDone chan struct{} // the stdin copy goroutine, when there is one
	stdinW    *os.File
	ownStdin  bool
	out, errs *sink

	status int  // $?
	exited bool // exit ran

	mu        sync.Mutex
	live      []*stage
	stopping  bool // no new process may start
	timedOut  bool
	canceled  bool
	groups    []int // process groups the chain created
	ttyFd     int   // terminal handed to the chain (interactive), or -1
	sigStatus int   // 128+N when a forwarded signal found nothing running

	stages []stage // reused between pipelines

	outMark, errMark int64 // captured bytes counted up to the last pipeline
}

// stage is one running segment of the current pipeline.
type stage struct {
	res      *SegmentResult
	proc     process
	done     chan struct{} // a built-in running in a goroutine
	start    time.Time
	toOut    bool // its fd 1 or 2 is the chain's stdout sink
	toErr    bool // its fd 1 or 2 is the chain's stderr sink
	signaled bool
}

func newRunner(ctx context.Context, c *chain.Chain, opts Options, dir string) *runner {
	r := &runner{ctx: ctx, c: c, opts: opts, dir: dir, ttyFd: -1}
	if opts.Env != nil {
		r.env = opts.Env
	} else {
		r.env, r.envMy = os.Environ(), true
	}
	if pwd, ok := lookup(r.env, "PWD"); !ok || pwd != dir {
		r.setEnv("PWD", dir)
	}
	if r.opts.MaxOutput <= 0 {
		r.opts.MaxOutput = DefaultMaxOutput
	}
	if r.opts.Grace <= 0 {
		r.opts.Grace = DefaultGrace
	}
	return r
}

func (r *runner) run() (res *Result, err error) {
	start := time.Now()
	r.res = &Result{}
	segs := make([]SegmentResult, 0, 8)
	for _, p := range r.c.Pipelines {
		for _, s := range p.Segments {
			segs = append(segs, SegmentResult{Index: len(segs), Args: s.Args, Redirects: s.Redirects, Skipped: true})
		}
	}
	r.res.Segments = segs
	if err := r.ctx.Err(); err != nil {
		r.res.Canceled = true
		return r.finishErr(start, err)
	}
	if err := r.openStreams(); err != nil {
		r.closeStreams()
		return nil, err
	}
	prepareHost()

	var watchDone chan struct{}
	var wg sync.WaitGroup
	if r.ctx.Done() != nil || r.opts.Timeout > 0 || r.opts.Signals != nil {
		watchDone = make(chan struct{})
		wg.Add(1)
		go func() { defer wg.Done(); r.watch(watchDone) }()
	}

	seg := 0
	for i, p := range r.c.Pipelines {
		run := true
		if i > 0 {
			switch r.c.Ops[i-1] {
			case chain.OpAnd:
				run = r.status == 0
			case chain.OpOr:
				run = r.status != 0
			}
		}
		if run && !r.isStopping() {
			r.status = r.runPipeline(p, seg)
		}
		seg += len(p.Segments)
		if r.exited {
			break
		}
	}

	if watchDone != nil {
		close(watchDone)
		wg.Wait()
	}
	r.endChain()
	r.closeStreams()
	return r.finish(start)
}

func (r *runner) isStopping() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopping
}

// finish fills the chain-wide fields of the result.
func (r *runner) finish(start time.Time) (*Result, error) {
	res := r.res
	res.ExitCode = r.status
	if r.sigStatus != 0 {
		res.ExitCode = r.sigStatus
	}
	if r.out != nil && r.out.buf != nil {
		res.Stdout, res.StdoutOmitted = r.out.buf.bytes()
	}
	if r.errs != nil && r.errs != r.out && r.errs.buf != nil {
		res.Stderr, res.StderrOmitted = r.errs.buf.bytes()
	}
	switch {
	case r.timedOut:
		res.TimedOut = true
		res.ExitCode = 124
		return r.finishErr(start, timeoutError(r.opts.Timeout))
	case r.canceled:
		res.Canceled = true
		return r.finishErr(start, r.ctx.Err())
	}
	res.Duration = time.Since(start)
	return res, nil
}

func (r *runner) finishErr(start time.Time, err error) (*Result, error) {
	r.res.Duration = time.Since(start)
	return r.res, err
}

func timeoutError(d time.Duration) error {
	if d > 0 {
		return fmt.Errorf("chain %w after %v", chain.ErrTimeout, d)
	}
	return fmt.Errorf("chain %w: context deadline exceeded", chain.ErrTimeout)
}

// openStreams prepares the chain's stdin, stdout and stderr.
func (r *runner) openStreams() error {
	capture := !r.opts.NoCapture
	liveOut, liveErr := r.opts.Stdout, r.opts.Stderr
	if liveOut != nil && liveOut == liveErr {
		if _, isFile := liveOut.(*os.File); !isFile {
			lw := lockedWriter{mu: new(sync.Mutex), w: liveOut}
			liveOut, liveErr = lw, lw
		}
	}
	var err error
	if r.out, err = newSink(capture, r.opts.MaxOutput, liveOut); err != nil {
		return err
	}
	if r.opts.Combined {
		r.errs = r.out
	} else if r.errs, err = newSink(capture, r.opts.MaxOutput, liveErr); err != nil {
		return err
	}
	switch in := r.opts.Stdin.(type) {
	case nil:
		f, err := os.Open(os.DevNull)
		if err != nil {
			return err
		}
		r.stdin, r.ownStdin = f, true
	case *os.File:
		r.stdin = in
	default:
		pr, pw, err := os.Pipe()
		if err != nil {
			return err
		}
		r.stdin, r.ownStdin, r.stdinW = pr, true, pw
		r.stdinDone = make(chan struct{})
		go func() {
			defer close(r.stdinDone)
			io.Copy(pw, in)
			pw.Close()
		}()
	}
	if r.opts.Interactive {
		r.ttyFd = terminalOf(r.stdin)
	}
	return nil
}

// closeStreams ends the output drains and the stdin feeder.
func (r *runner) closeStreams() {
	wait := r.opts.Grace
	if r.out != nil {
		r.out.close(wait)
	}
	if r.errs != nil && r.errs != r.out {
		r.errs.close(wait)
	}
	if r.ownStdin && r.stdin != nil {
		r.stdin.Close() // a feeder blocked writing gets EPIPE
	}
	if r.stdinDone != nil {
		t := time.NewTimer(wait)
		select {
		case <-r.stdinDone:
		case <-t.C:
			// The caller's reader is blocked in Read; it alone keeps the
			// feeder alive, and the feeder ends when that Read returns.
		}
		t.Stop()
	}
}

// endChain ends whatever the chain left behind: members of its groups
// and, on Linux, descendants that escaped them.
func (r *runner) endChain() {
	r.mu.Lock()
	groups := r.groups
	r.mu.Unlock()
	sweepChain(groups)
}

// watch stops the chain on timeout or cancel, and forwards signals.
func (r *runner) watch(done <-chan struct{}) {
	var timeout <-chan time.Time
	if r.opts.Timeout > 0 {
		t := time.NewTimer(r.opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	for {
		select {
		case <-done:
			return
		case sig := <-r.opts.Signals:
			r.forward(sig)
			continue
		case <-timeout:
			r.stop(true)
		case <-r.ctx.Done():
			r.stop(errors.Is(r.ctx.Err(), context.DeadlineExceeded))
		}
		break
	}
	grace := time.NewTimer(r.opts.Grace)
	defer grace.Stop()
	for {
		select {
		case <-done:
			return
		case sig := <-r.opts.Signals:
			r.forward(sig)
		case <-grace.C:
			r.killAll()
		}
	}
}

// stop interrupts every running process and lets no new one start.
func (r *runner) stop(timedOut bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopping = true
	if timedOut {
		r.timedOut = true
	} else {
		r.canceled = true
	}
	for _, s := range r.live {
		s.signaled = true
		s.proc.Interrupt()
	}
}

func (r *runner) killAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.live {
		s.signaled = true
		s.proc.Kill()
	}
}

// signaler is implemented by processes that can take any signal.
type signaler interface{ Signal(os.Signal) error }

// forward passes a signal the caller received to every running group; the
// chain then starts nothing new, as a shell stops a script on Ctrl+C.
func (r *runner) forward(sig os.Signal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopping = true
	if len(r.live) == 0 {
		// Between processes: the chain ends as a shell killed by it would.
		r.sigStatus = signalStatus(sig)
	}
	for _, s := range r.live {
		s.signaled = true
		if sp, ok := s.proc.(signaler); ok {
			sp.Signal(sig)
		} else {
			s.proc.Interrupt()
		}
	}
}

// signalStatus is the status of a process a signal ended: 128+N.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// runPipeline runs one pipeline and returns its status. first is the
// chain-wide index of its first segment.
func (r *runner) runPipeline(p *chain.Pipeline, first int) int {
	n := len(p.Segments)
	if cap(r.stages) < n {
		r.stages = make([]stage, n)
	}
	stages := r.stages[:n]
	for i := range stages {
		stages[i] = stage{res: &r.res.Segments[first+i]}
	}
	in, inPipe := r.stdin, false
	pgid := 0
	for j, seg := range p.Segments {
		st := &stages[j]
		out := r.out.w
		var next, pw *os.File
		if j < n-1 {
			pr, w, err := stagePipe()
			if err != nil {
				r.failStage(st, seg, &SegmentError{Kind: chain.KindInternal, Segment: st.res.Index, Text: seg.Text, Err: err}, 1, nil)
			} else {
				next, pw, out = pr, w, w
			}
		}
		if st.res.Error == "" {
			r.startStage(st, seg, in, out, n > 1, &pgid)
		}
		if st.done == nil { // a goroutine built-in closes its own pipe ends
			if pw != nil {
				pw.Close()
			}
			if inPipe {
				in.Close()
			}
		}
		in, inPipe = next, next != nil
		if next == nil {
			in = r.stdin
		}
	}
	r.waitStages(stages)
	if pgid != 0 {
		restoreTerminal(r.ttyFd) // the pipeline had the terminal: take it back
	}
	r.countBytes(stages)

	status := stages[n-1].res.ExitCode
	if r.opts.Pipefail {
		for j := n - 1; j >= 0; j-- {
			if c := stages[j].res.ExitCode; c != 0 {
				status = c
				break
			}
		}
	}
	return status
}

// startStage starts one segment with stdin in and stdout out.
func (r *runner) startStage(st *stage, seg *chain.Segment, in, out *os.File, inPipeline bool, pgid *int) {
	res := st.res
	res.Skipped = false
	st.start = time.Now()
	env := r.env
	if len(seg.Assigns) > 0 {
		env = withAssigns(r.env, seg.Assigns)
	}
	if seg.IsBuiltin() || len(seg.Args) == 0 {
		r.startBuiltin(st, seg, in, out, env, inPipeline)
		return
	}
	// Resolve before opening redirects: a program that cannot be found
	// must not truncate its > target.
	target, err := resolve.Find(seg.Args[0], r.dir, env)
	if err != nil {
		kind, code, msg := chain.KindNotFound, 127, "command not found"
		if errors.Is(err, resolve.ErrNotExecutable) {
			kind, code, msg = chain.KindNotExecutable, 126, "Permission denied"
			if fi, e := os.Stat(filepath.Join(r.dir, seg.Args[0])); e == nil && fi.IsDir() {
				msg = "Is a directory"
			}
		}
		var re *resolve.Error
		if errors.As(err, &re) && re.Hint != "" {
			msg += " (" + re.Hint + ")"
		}
		r.failStage(st, seg, &SegmentError{Kind: kind, Segment: res.Index, Text: seg.Text, Err: err}, code, nil)
		r.reportUnstarted(st, seg, in, out, []byte("chainrun: "+seg.Args[0]+": "+msg+"\n"))
		return
	}
	res.Path, res.Kind = target.Path, string(target.Kind)
	files, opened, err := r.applyRedirects(seg, in, out)
	if err != nil {
		// bash's message goes to fd 2 as the earlier redirects left it.
		r.failStage(st, seg, &SegmentError{Kind: chain.KindRedirect, Segment: res.Index, Text: seg.Text, Err: err}, 1, nil)
		r.writeStderr(st, files[2], []byte("chainrun: "+err.Error()+"\n"))
		closeAll(opened)
		return
	}
	st.toOut, st.toErr = r.targets(files)
	spec := &spawnSpec{Target: target, Args: seg.Args, Env: env, Dir: r.dir, Files: files,
		Interactive: r.opts.Interactive && r.ttyFd >= 0, Pgid: *pgid, InPipeline: inPipeline,
		// Only chainrun reads its stdout: no other stage, file or live writer.
		Captured: (files[1] == r.out.w && r.out.buf != nil && r.out.live == nil) ||
			(files[1] == r.errs.w && r.errs.buf != nil && r.errs.live == nil)}
	r.mu.Lock()
	if r.stopping {
		r.mu.Unlock()
		closeAll(opened)
		res.Skipped = true
		return
	}
	proc, err := startProcess(spec)
	if err == nil {
		st.proc = proc
		if w, ok := proc.(interface{ warning() string }); ok {
			res.Warning = w.warning()
		}
		r.live = append(r.live, st)
		if g, ok := proc.(interface{ group() int }); ok {
			r.groups = append(r.groups, g.group())
			holdGroup(g.group())
			if *pgid == 0 {
				*pgid = g.group() // later stages join the first one's group
			}
		}
	}
	r.mu.Unlock()
	closeAll(opened)
	if err != nil {
		r.failStage(st, seg, &SegmentError{Kind: chain.KindNotExecutable, Segment: res.Index, Text: seg.Text, Err: err}, 126,
			[]byte("chainrun: "+seg.Args[0]+": "+describeExecError(err)+"\n"))
	}
}

func describeExecError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}

// applyRedirects builds the segment's fd table.
func (r *runner) applyRedirects(seg *chain.Segment, in, out *os.File) ([]*os.File, []*os.File, error) {
	files := []*os.File{in, out, r.errs.w}
	if len(seg.Redirects) == 0 {
		return files, nil, nil
	}
	o := redirect.Opener{Dir: r.dir, Windows: runtime.GOOS == "windows"}
	return o.Apply(files, seg.Redirects)
}

// targets reports whether a stage writes to the captured streams.
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

// reportUnstarted writes the message of a segment whose program could not
// be found or run to where its fd 2 would have pointed, as bash does,
// without opening any of its file targets: a program that does not exist
// must not truncate its > target. A message bound for a file goes to the
// chain's stderr instead; one bound for the null device is dropped.
func (r *runner) reportUnstarted(st *stage, seg *chain.Segment, in, out *os.File, msg []byte) {
	f := r.errs.w
	if len(seg.Redirects) > 0 {
		o := redirect.Opener{Dir: r.dir, Windows: runtime.GOOS == "windows"}
		d := o.Where([]*os.File{in, out, r.errs.w}, seg.Redirects, 2)
		switch {
		case d.Null:
			return
		case d.File != nil:
			f = d.File
		}
	}
	r.writeStderr(st, f, msg)
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

// waitStages waits for every stage of the pipeline.
func (r *runner) waitStages(stages []stage) {
	n := len(stages)
	if killUpstreamOnDownstreamExit && n > 1 && stages[n-1].proc != nil {
		// An upstream stage that ignores its broken pipe would run on:
		// after the grace period it is ended.
		r.waitStage(&stages[n-1])
		finished := false
		t := time.AfterFunc(r.opts.Grace, func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if finished {
				return
			}
			for j := 0; j < n-1; j++ {
				if stages[j].proc != nil && r.isLive(&stages[j]) {
					stages[j].proc.Kill()
				}
			}
		})
		for j := 0; j < n-1; j++ {
			r.waitStage(&stages[j])
		}
		r.mu.Lock()
		finished = true
		r.mu.Unlock()
		t.Stop()
		return
	}
	for j := range stages {
		r.waitStage(&stages[j])
	}
}

// isLive reports whether st is still running; r.mu is held.
func (r *runner) isLive(st *stage) bool {
	for _, s := range r.live {
		if s == st {
			return true
		}
	}
	return false
}

func (r *runner) waitStage(st *stage) {
	switch {
	case st.done != nil:
		<-st.done
	case st.proc != nil:
		ei, err := st.proc.Wait()
		end := time.Now()
		r.mu.Lock()
		for i, s := range r.live {
			if s == st {
				r.live = append(r.live[:i], r.live[i+1:]...)
				break
			}
		}
		st.res.Signalled = st.signaled
		r.mu.Unlock()
		st.proc.Close()
		st.res.ExitCode, st.res.Signal, st.res.RawExitCode = ei.Code, ei.Signal, ei.Raw
		if err != nil && st.res.Error == "" {
			se := &SegmentError{Kind: chain.KindInternal, Segment: st.res.Index, Text: "", Err: err}
			st.res.Error, st.res.Err = se.Error(), se
		}
		st.res.Duration = end.Sub(st.start)
		return
	default:
		if st.res.Skipped {
			return
		}
	}
	st.res.Duration = time.Since(st.start)
}

// countBytes attributes what the pipeline wrote to the captured streams:
// each stream's count goes to the last stage writing to it. The counts at
// the end of one pipeline are the marks the next one starts from.
func (r *runner) countBytes(stages []stage) {
	credit := func(s *sink, mark *int64, to func(*stage) *int64) {
		if s.r == nil {
			return
		}
		w := s.written()
		d := w - *mark
		*mark = w
		for j := len(stages) - 1; j >= 0 && d > 0; j-- {
			if p := to(&stages[j]); p != nil {
				*p += d
				return
			}
		}
	}
	credit(r.out, &r.outMark, func(st *stage) *int64 {
		if st.toOut {
			return &st.res.BytesOut
		}
		return nil
	})
	if r.errs != r.out {
		credit(r.errs, &r.errMark, func(st *stage) *int64 {
			if st.toErr {
				return &st.res.BytesErr
			}
			return nil
		})
	}
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}
