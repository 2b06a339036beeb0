package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/report"
)

// job is a chain started by run with background true: an ordinary chain,
// parsed and judged first, that the call does not wait for. It ends,
// whole tree, on job_kill, when its timeout passes, and with the session.
type job struct {
	id      string
	command string
	dir     string
	started time.Time
	maxOut  int
	log     *jobLog
	cancel  context.CancelFunc
	done    chan struct{} // closed once res and err are set

	killed  atomic.Bool // job_kill stopped it
	adopted bool        // what a run call's chain left running in the background (cmd &)

	res   *engine.Result
	err   error
	ended time.Time
}

// errKilled is how a job stopped by job_kill ended.
var errKilled = errors.New("stopped by job_kill")

// running reports whether the job has not ended yet.
func (j *job) running() bool {
	select {
	case <-j.done:
		return false
	default:
		return true
	}
}

// startJob starts a background chain and returns once the policy let it
// start (or refused it: then the result is run's, and no job remains).
// Parsing and the engine's checks come first, here, so a refusal is
// answered at once; the engine then judges as for any chain, and the gate
// opens when it allowed the chain or the user approved it.
func (s *session) startJob(ctx context.Context, c *call, ap *approver) (*mcp.CallToolResult, RunResult, error) {
	ch, err := chain.ParseDialect(c.args.Command, c.opts.Dialect)
	if err == nil {
		err = engine.Check(ch, c.opts)
	}
	if err != nil {
		res, err := engine.RunString(ctx, c.args.Command, c.opts) // refused again, and audited
		return s.result(c, res, err, "", ap)
	}
	j, err := s.addJob(c)
	if err != nil {
		return nil, RunResult{}, err
	}
	g := &gate{opened: make(chan struct{})}
	if c.opts.Authorizer == nil {
		g.open()
	} else {
		c.opts.Authorizer = &gatedAuthorizer{inner: c.opts.Authorizer, g: g}
		ap.onApproved = g.open
	}
	c.opts.Stdout, c.opts.Stderr = j.log, j.log
	c.opts.Detach = func(*engine.Result) io.Writer { return j.log } // what it starts with & runs as long as the job
	jctx, cancel := context.WithCancel(s.ctx)
	j.cancel = cancel
	go func() {
		defer s.leave()
		defer cancel()
		j.finish(engine.Run(jctx, ch, c.opts))
	}()
	select {
	case <-g.opened:
		return s.jobStarted(c, j)
	case <-j.done:
	}
	s.forget(j.id)
	if ap.needInput {
		return s.askForInput(c, ap), RunResult{}, nil
	}
	return s.result(c, j.res, j.err, "", ap)
}

// jobStarted is run's answer for a started job: its id, running, and
// exit_code 0 (the start succeeded; the chain's own status comes from
// job_output); what the chain printed so far is left to job_output.
func (s *session) jobStarted(c *call, j *job) (*mcp.CallToolResult, RunResult, error) {
	out := RunResult{Run: *report.FromResult(&engine.Result{}, nil), Cwd: s.snapshot().Dir, Job: j.id, Running: true}
	text := fmt.Sprintf("started job %s in %s: %s\nread its output with job_output {\"job\":%q}; stop it with job_kill {\"job\":%q}\n",
		j.id, c.dir, c.args.Command, j.id, j.id)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

// addJob registers a new job with the session, within its limits.
func (s *session) addJob(c *call) (*job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	running := 0
	var oldest *job
	for _, j := range s.jobs {
		if j.running() {
			running++
		} else if oldest == nil || j.ended.Before(oldest.ended) {
			oldest = j
		}
	}
	if running >= MaxRunningJobs {
		return nil, argErrorf("%d background jobs are running, the most a session runs at once; stop one with job_kill", running)
	}
	if len(s.jobs) >= MaxJobs && oldest != nil {
		delete(s.jobs, oldest.id)
	}
	s.jobSeq++
	j := &job{
		id: "job-" + strconv.Itoa(s.jobSeq), command: c.args.Command, dir: c.dir, started: time.Now(),
		maxOut: c.opts.MaxOutput, log: newJobLog(JobLogSize), done: make(chan struct{}),
	}
	s.jobs[j.id] = j
	s.calls.Add(1) // the job's goroutine leaves
	return j, nil
}

func (s *session) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.jobs, id)
}

// job finds a job by id; an unknown id is an error the model can act on.
func (s *session) job(id string) (*job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.jobs[id]; j != nil {
		return j, nil
	}
	return nil, argErrorf("no job %q in this session (job_list shows them; jobs end with the session)", id)
}

// gate opens once the policy let a background chain start.
type gate struct {
	once   sync.Once
	opened chan struct{}
}

func (g *gate) open() { g.once.Do(func() { close(g.opened) }) }

// gatedAuthorizer opens the gate when the policy allows the chain
// outright; an ask opens it through the approver.
type gatedAuthorizer struct {
	inner chain.Authorizer
	g     *gate
}

func (a *gatedAuthorizer) Authorize(ctx context.Context, c *chain.Chain, dir string) (*chain.Decision, error) {
	d, err := a.inner.Authorize(ctx, c, dir)
	if err == nil && d != nil && d.Verdict == chain.Allow {
		a.g.open()
	}
	return d, err
}

// jobOutput is the job_output tool.
func (s *session) jobOutput(_ context.Context, _ *mcp.CallToolRequest, args JobOutputArgs) (*mcp.CallToolResult, JobOutput, error) {
	j, err := s.job(args.Job)
	if err != nil {
		return nil, JobOutput{}, err
	}
	if args.Offset < 0 {
		return nil, JobOutput{}, argErrorf("offset %d: want the next_offset of the previous call, or 0", args.Offset)
	}
	running := j.running() // before reading, so a job seen ended has all its output read
	raw, omitted, next := j.log.read(args.Offset)
	out := JobOutput{Job: j.id, Offset: args.Offset, NextOffset: next, Omitted: omitted, Running: running}
	head, tail := raw[0], raw[1]
	var b strings.Builder
	b.WriteString(decoded(head))
	if omitted > 0 {
		fmt.Fprintf(&b, "\n… %d bytes omitted …\n", omitted)
	}
	b.WriteString(decoded(tail))
	out.Output = b.String()
	if !running {
		out.ExitCode = ptr(j.exitCode())
		out.Error = report.NewError(j.err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: jobOutputText(&out)}}}, out, nil
}

// exitCode is an ended job's status as run reports it.
func (j *job) exitCode() int {
	if j.res == nil {
		return report.ExitStatus(nil, j.err)
	}
	return j.res.ExitCode
}

func jobOutputText(o *JobOutput) string {
	state := "running"
	if !o.Running {
		state = fmt.Sprintf("ended, exit %d", *o.ExitCode)
		if o.Error != nil {
			state += " (" + o.Error.Message + ")"
		}
	}
	text := fmt.Sprintf("job %s %s; output %d..%d (next_offset %d)\n", o.Job, state, o.Offset, o.NextOffset, o.NextOffset)
	if o.Output == "" {
		return text + "(no new output)\n"
	}
	return text + o.Output
}

// jobKill is the job_kill tool: the job's whole tree is stopped as a
// timeout stops it (polite stop, grace, kill), and its final result is
// returned. A job that already ended just returns its result.
func (s *session) jobKill(ctx context.Context, _ *mcp.CallToolRequest, args JobArgs) (*mcp.CallToolResult, RunResult, error) {
	j, err := s.job(args.Job)
	if err != nil {
		return nil, RunResult{}, err
	}
	j.killed.Store(true)
	j.cancel()
	select {
	case <-j.done:
	case <-ctx.Done():
		return nil, RunResult{}, ctx.Err()
	}
	res, out, _ := s.result(&call{opts: engine.Options{MaxOutput: j.maxOut}}, j.res, j.err, j.id, nil)
	// Stopping the job is what the call asked for, not a failure of it,
	// whatever had ended it.
	res.IsError = false
	return res, out, nil
}

// jobList is the job_list tool.
func (s *session) jobList(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, JobList, error) {
	s.mu.Lock()
	jobs := make([]*job, 0, len(s.jobs))
	for _, j := range s.jobs {
		jobs = append(jobs, j)
	}
	s.mu.Unlock()
	slices.SortFunc(jobs, func(a, b *job) int { return a.started.Compare(b.started) })
	out := JobList{Jobs: []JobInfo{}}
	var b strings.Builder
	for _, j := range jobs {
		info := JobInfo{Job: j.id, Command: j.command, Dir: j.dir, Running: j.running(), OutputBytes: j.log.size()}
		end := time.Now()
		if !info.Running {
			info.ExitCode, end = ptr(j.exitCode()), j.ended
		}
		info.DurationMS = report.Millis(end.Sub(j.started))
		out.Jobs = append(out.Jobs, info)
		state := "running"
		if !info.Running {
			state = fmt.Sprintf("exit %d", *info.ExitCode)
		}
		fmt.Fprintf(&b, "%s  %s  %s  (in %s, %d bytes of output)\n", j.id, state, j.command, j.dir, info.OutputBytes)
	}
	if len(jobs) == 0 {
		b.WriteString("no jobs\n")
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out, nil
}
