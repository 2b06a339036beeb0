package engine

import (
	"os"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/redirect"
)

// stage is one running segment of the current pipeline.
type stage struct {
	res      *SegmentResult
	proc     process
	done     chan struct{} // a built-in running in a goroutine
	start    time.Time
	cpu      [2]time.Duration // user and system CPU time of its process tree
	toOut    bool             // its fd 1 or 2 is the chain's stdout sink
	toErr    bool             // its fd 1 or 2 is the chain's stderr sink
	signaled bool
	judged   *redirect.Judged // its file targets as the policy judged them
}

// runPipeline runs one pipeline and returns its status. first is the
// chain-wide index of its first segment.
//
// Every stage starts before any is waited for, as in a shell. chainrun
// closes its own copy of each pipe end as soon as the stages on both sides
// hold theirs, so every reader sees EOF and every writer SIGPIPE when the
// other side ends.
func (r *runner) runPipeline(p *chain.Pipeline, first int) int {
	if p.Background {
		return r.startBackground(p, first)
	}
	n := len(p.Segments)
	if cap(r.stages) < n {
		r.stages = make([]stage, n)
	}
	stages := r.stages[:n]
	pgid := r.startStages(p, stages, r.res.Segments[first:first+n], r.stdin)
	r.waitStages(stages)
	if len(r.proc.runs) > 0 {
		r.waitProcs() // the process substitutions' inner runs
	}
	if pgid != 0 {
		r.host.restoreTerminal(r.ttyFd) // the pipeline had the terminal: take it back
	}
	r.countBytes(stages)
	if len(r.jobs) > 0 {
		r.cleanJobs()
	}
	return pipelineStatus(stages, r.shopts.Pipefail)
}

// startStages starts every stage of p, each recording in res, the first
// reading stdin, and returns the process group they run in (0 when none).
func (r *runner) startStages(p *chain.Pipeline, stages []stage, res []SegmentResult, stdin *os.File) int {
	n := len(p.Segments)
	for i := range stages {
		stages[i] = stage{res: &res[i]}
	}
	in, inPipe := stdin, false
	pgid := 0
	sub := n > 1 || p.Background // a stage of several, or a background pipeline, is a subshell
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
			r.startStage(st, seg, in, out, sub, &pgid)
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
			in = stdin
		}
	}
	return pgid
}

// pipelineStatus is bash's: the last stage's status, or with pipefail the
// rightmost non-zero one.
func pipelineStatus(stages []stage, pipefail bool) int {
	n := len(stages)
	status := stages[n-1].res.ExitCode
	if pipefail {
		for j := n - 1; j >= 0; j-- {
			if c := stages[j].res.ExitCode; c != 0 {
				status = c
				break
			}
		}
	}
	return status
}

// waitStages waits for every stage of the pipeline.
func (r *runner) waitStages(stages []stage) {
	n := len(stages)
	if r.host.stopsUpstream() && n > 1 && stages[n-1].proc != nil {
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

// waitStage waits for one stage and records how it ended. A process
// leaves r.live, under r.mu, before Close releases it, so stop and
// killAll never reach a released process.
func (r *runner) waitStage(st *stage) {
	switch {
	case st.done != nil && st.proc == nil: // a built-in (a tool is a process)
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
		st.cpu = [2]time.Duration{ei.User, ei.Sys}
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

// closeAll closes files chainrun opened for a stage once the stage holds
// its own copies (or will never start).
func closeAll(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}
