package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/engine"
)

// adoption is what a run call's chain left when its last pipeline ended:
// the chain's result as it stood, and the session job that its
// background pipelines (cmd &), still running, became; job is nil when
// the session could take no more jobs (err says why) and the engine
// stopped them.
type adoption struct {
	res *engine.Result
	job *job
	err error
}

// runAdopting runs the call's chain. Background pipelines still running
// when its last pipeline ends become one session job, as run with
// background=true starts one: the call returns then, with the result so
// far and the job; the job's later output goes to its log, and it ends
// with job_kill or the session, never with the call's request. Otherwise
// (no such pipelines) it returns the chain's result, job nil.
func (s *session) runAdopting(ctx context.Context, c *call) (res *engine.Result, j *job, err error) {
	rctx, cancel := context.WithCancel(s.ctx)
	stopReq := context.AfterFunc(ctx, cancel) // until the job is adopted, the request's cancel stops the chain
	adopted := make(chan adoption, 1)
	var kept *job // set by Detach, in the engine's goroutine, before Run returns there
	c.opts.Detach = func(res *engine.Result) io.Writer {
		nj, err := s.addJob(c)
		if err != nil {
			cancel() // the engine stops them, as the CLI does
			adopted <- adoption{res: res, err: err}
			return nil
		}
		stopReq()
		nj.cancel, nj.adopted, kept = cancel, true, nj
		adopted <- adoption{res: res, job: nj}
		return nj.log
	}
	type ended struct {
		res *engine.Result
		err error
	}
	endc := make(chan ended, 1)
	go func() {
		res, err := engine.RunString(rctx, c.args.Command, c.opts)
		if kept != nil {
			defer s.leave() // addJob counted the job as a call
			defer cancel()
			kept.finish(res, err)
			return
		}
		endc <- ended{res, err}
	}()
	select {
	case a := <-adopted:
		if a.job != nil {
			return a.res, a.job, nil
		}
	case e := <-endc:
		stopReq()
		cancel()
		return e.res, nil, e.err
	}
	e := <-endc
	stopReq()
	cancel()
	return e.res, nil, e.err
}

// finish records how a job's chain ended. A job whose background
// pipelines the chain left reports the last one's status, as wait would.
func (j *job) finish(res *engine.Result, err error) {
	if j.killed.Load() && errors.Is(err, context.Canceled) {
		err = errKilled
	}
	if res != nil && len(res.Jobs) > 0 && j.adopted {
		cp := *res
		cp.ExitCode = res.Jobs[len(res.Jobs)-1].ExitCode
		res = &cp
	}
	j.res, j.err, j.ended = res, err, time.Now()
	close(j.done)
}

// adoptedResult is run's answer for a chain whose background pipelines
// became job j: the chain's result up to its end, the job's id in the
// structured result and in the text, and how to read and stop it.
func (s *session) adoptedResult(c *call, res *engine.Result, j *job, ap *approver) (*mcp.CallToolResult, RunResult, error) {
	out, rr, err := s.result(c, res, nil, j.id, ap)
	if err != nil || out == nil {
		return out, rr, err
	}
	rr.Running = true
	names := make([]string, len(rr.Jobs))
	for i := range rr.Jobs {
		rr.Jobs[i].ID = j.id
		names[i] = fmt.Sprintf("%%%d %q (pid %d)", rr.Jobs[i].N, rr.Jobs[i].Command, rr.Jobs[i].PID)
	}
	text := fmt.Sprintf("still running in the background as job %s: %s\nread its output with job_output {\"job\":%q}; "+
		"stop it with job_kill {\"job\":%q}; it ends with the session\n", j.id, strings.Join(names, ", "), j.id, j.id)
	if tc, ok := out.Content[0].(*mcp.TextContent); ok {
		tc.Text += text
	}
	return out, rr, nil
}
