package engine

import (
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/chainrun/chainrun/chain"
)

// background is the state of a chain's background pipelines (cmd &).
type background struct {
	jobs         []*bgJob
	lastBg       int  // $!: the last background pipeline's pid
	inBackground bool // a background pipeline's stages are starting
}

// bgJob is one background pipeline. Its goroutine waits for its stages
// and records into res, which the chain's result takes (reap) once done
// is closed, so the two goroutines never share a SegmentResult.
type bgJob struct {
	n      int // job number, %N
	pid    int // $! after it
	first  int // chain-wide index of its first segment
	text   string
	stages []stage
	res    []SegmentResult
	done   chan struct{}
	status int  // set before done is closed
	reaped bool // res is in the chain's result
	waited bool // wait named it or waited for all: its %N is gone, as in bash
	forgot bool // wait without operands waited for it: its pid is gone too
	killed bool // ended by chainrun at the chain's end
}

// startBackground starts p in the background, as bash's & does: a
// subshell of the chain's state as it is now, stdin from the null device,
// its output interleaved into the chain's streams or its redirects. Each
// segment is expanded and judged again as it starts, here, as any
// pipeline's is. The chain goes on at once with status 0.
func (r *runner) startBackground(p *chain.Pipeline, first int) int {
	n := len(p.Segments)
	j := &bgJob{n: r.nextJob(), first: first, text: r.c.Source[p.Span.Start:p.Span.End], done: make(chan struct{})}
	j.res = slices.Clone(r.res.Segments[first : first+n])
	j.stages = make([]stage, n)
	in, err := os.Open(os.DevNull)
	if err != nil {
		st := &stage{res: &r.res.Segments[first]}
		r.failStage(st, p.Segments[0], &SegmentError{Kind: chain.KindInternal, Segment: first, Text: p.Segments[0].Text, Err: err}, 1, nil)
		return 1
	}
	r.inBackground = true
	r.startStages(p, j.stages, j.res, in)
	r.inBackground = false
	for i := range j.res {
		started(&r.res.Segments[first+i], &j.res[i]) // as it started; the job's goroutine goes on with its own
	}
	j.pid = r.jobPID(j)
	r.jobs, r.lastBg = append(r.jobs, j), j.pid
	pipefail := r.shopts.Pipefail
	go func() {
		r.waitStages(j.stages)
		in.Close()
		j.status = pipelineStatus(j.stages, pipefail)
		close(j.done)
	}()
	return 0
}

// cleanJobs drops from the job table (their %N) the jobs that have
// ended, as bash does after each foreground pipeline; wait still knows
// their process ids.
func (r *runner) cleanJobs() {
	for _, j := range r.jobs {
		if j.waited {
			continue
		}
		select {
		case <-j.done:
			r.reap(j)
			j.waited = true
		default:
		}
	}
}

// started copies to dst what starting a background stage recorded in
// src: the fields nothing but the start writes, so that the job's
// goroutine, which records how it ends, may run meanwhile.
func started(dst, src *SegmentResult) {
	dst.Skipped, dst.Args, dst.Redirects, dst.Path, dst.Kind = src.Skipped, src.Args, src.Redirects, src.Path, src.Kind
	dst.Sandboxed, dst.Warning = src.Sandboxed, src.Warning
}

// nextJob is the job number of the next background pipeline: one more
// than the highest not yet waited for, as bash numbers them.
func (r *runner) nextJob() int {
	n := 0
	for _, j := range r.jobs {
		if !j.waited {
			n = max(n, j.n)
		}
	}
	return n + 1
}

// jobPID is $! for a started job: its last stage's process id, or
// another stage's when the last one is a built-in or did not start. A job
// without any process (built-ins alone) gets a number no process has at
// once, which wait still knows.
func (r *runner) jobPID(j *bgJob) int {
	for i := len(j.stages) - 1; i >= 0; i-- {
		if p := j.stages[i].proc; p != nil {
			return p.Pid()
		}
	}
	return 1<<30 + os.Getpid()%(1<<16)*(1<<12) + len(r.jobs)%(1<<12)
}

// reap waits for j and puts what it did into the chain's result.
func (r *runner) reap(j *bgJob) {
	<-j.done
	if !j.reaped {
		copy(r.res.Segments[j.first:], j.res)
		j.reaped = true
	}
}

// WaitAll, WaitPID and WaitJob are wait's view of the jobs (builtin.Jobs).
func (s *builtinState) WaitAll() {
	for _, j := range s.jobs {
		(*runner)(s).reap(j)
		j.waited, j.forgot = true, true
	}
}

func (s *builtinState) WaitPID(pid int) (int, bool) {
	for i := len(s.jobs) - 1; i >= 0; i-- {
		if j := s.jobs[i]; j.pid == pid && !j.forgot {
			(*runner)(s).reap(j)
			j.waited = true
			return j.status, true
		}
	}
	return 0, false
}

func (s *builtinState) WaitJob(n int) (int, bool) {
	for _, j := range s.jobs {
		if j.n == n && !j.waited {
			(*runner)(s).reap(j)
			j.waited = true
			return j.status, true
		}
	}
	return 0, false
}

// lastBackground is $!, "" before any background pipeline.
func (r *runner) lastBackground() string {
	if r.lastBg == 0 {
		return ""
	}
	return strconv.Itoa(r.lastBg)
}

// endBackground settles the background pipelines still running when the
// chain's last pipeline has ended: handed over (Options.Detach) or ended
// as a timeout ends a chain, whole trees, so nothing outlives Run. Either
// way Result.Jobs names them.
func (r *runner) endBackground() {
	var running []*bgJob
	for _, j := range r.jobs {
		select {
		case <-j.done:
			r.reap(j)
		default:
			running = append(running, j)
		}
	}
	if len(running) == 0 {
		return
	}
	for _, j := range running {
		r.res.Jobs = append(r.res.Jobs, Job{N: j.n, PID: j.pid, Text: j.text, Segments: indexes(j)})
	}
	if r.opts.Detach != nil && !r.isStopping() {
		r.detach(running)
	} else {
		r.stopJobs(running)
	}
	for i, j := range running {
		r.reap(j)
		r.res.Jobs[i].ExitCode, r.res.Jobs[i].Killed = j.status, j.killed
	}
}

func indexes(j *bgJob) []int {
	out := make([]int, len(j.stages))
	for i := range out {
		out[i] = j.first + i
	}
	return out
}

// stopJobs ends the jobs still running as a timeout does: interrupt,
// the grace period, then kill, each process's whole tree.
func (r *runner) stopJobs(running []*bgJob) {
	r.mu.Lock()
	r.stopping = true
	for _, s := range r.live {
		s.signaled = true
		s.proc.Interrupt()
	}
	r.mu.Unlock()
	for _, j := range running {
		j.killed = true
	}
	r.awaitJobs(running)
}

// awaitJobs waits for the jobs to end after a stop, killing what is left
// after the grace period.
func (r *runner) awaitJobs(running []*bgJob) {
	all := allDone(running)
	t := time.NewTimer(r.opts.Grace)
	defer t.Stop()
	select {
	case <-all:
	case <-t.C:
		r.killAll()
		<-all
	}
}

// allDone is closed once every job has ended.
func allDone(jobs []*bgJob) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		for _, j := range jobs {
			<-j.done
		}
		close(c)
	}()
	return c
}

// detach hands the chain's result as it stands to Options.Detach, sends
// the jobs' later output where it says, and waits for them to end, or
// ends them when the context is canceled.
func (r *runner) detach(running []*bgJob) {
	res := *r.res
	res.ExitCode, res.Duration = r.status, time.Since(r.began)
	res.Segments = slices.Clone(r.res.Segments)
	res.Jobs = slices.Clone(r.res.Jobs)
	res.Dir, res.Env, res.Vars = r.dir, r.env, r.vars
	var resumeOut, resumeErr func(io.Writer)
	res.Stdout, res.StdoutOmitted, resumeOut = r.out.handOff()
	if r.errs != r.out {
		res.Stderr, res.StderrOmitted, resumeErr = r.errs.handOff()
	}
	w := r.opts.Detach(&res)
	resumeOut(w)
	if resumeErr != nil {
		resumeErr(w)
	}
	select {
	case <-allDone(running):
	case <-r.ctx.Done():
		r.stop(false)
		for _, j := range running {
			j.killed = true
		}
		r.awaitJobs(running)
	}
}

// handOff takes what the sink captured so far, once the bytes already in
// its pipe are read, and holds the drain until resume names where later
// output goes. A sink children write to directly (a file, the null
// device) keeps doing so.
func (s *sink) handOff() (captured []byte, omitted int64, resume func(io.Writer)) {
	if s.r == nil {
		return nil, 0, func(io.Writer) {}
	}
	want := s.written()
	for deadline := time.Now().Add(100 * time.Millisecond); s.read.Load() < want && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	s.mu.Lock()
	if s.buf != nil {
		captured, omitted = s.buf.bytes()
	}
	return captured, omitted, func(w io.Writer) {
		s.buf, s.live = nil, w
		s.mu.Unlock()
	}
}
