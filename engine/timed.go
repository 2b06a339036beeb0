package engine

import (
	"errors"
	"time"

	"github.com/chainrun/chainrun/chain"
)

// runTimed runs a pipeline and, after a time keyword, writes bash's
// report of it to the chain's stderr: the chain's own, never a stage's
// redirected one (time ls 2>/dev/null still reports). User and system
// time add up what the waited stages' process trees used; a built-in
// runs inside chainrun and adds nothing.
func (r *runner) runTimed(p *chain.Pipeline, first int) int {
	if !p.Timed {
		return r.runPipeline(p, first)
	}
	start := time.Now()
	status := r.runPipeline(p, first)
	real := time.Since(start)
	var user, sys time.Duration
	for _, st := range r.stages[:len(p.Segments)] {
		user, sys = user+st.cpu[0], sys+st.cpu[1]
	}
	format := bashTimeFormat
	if p.TimePOSIX {
		format = posixTimeFormat
	} else if v, ok := r.shell().Lookup("TIMEFORMAT"); ok {
		format = v // set but empty: no report
	}
	if format == "" {
		return status
	}
	report, err := timeReport(format, real, user, sys)
	var fe *TimeFormatError
	if errors.As(err, &fe) {
		report = "chainrun: " + fe.Error() + "\n"
	}
	n, _ := r.errs.w.Write([]byte(report))
	r.skipBytes(r.errs, int64(n)) // the report is the chain's, no segment's output
	return status
}

// skipBytes marks n bytes chainrun itself wrote to sink s as counted, so
// no segment is credited with them. They are added to the mark rather than
// read back from the drain, which may not have read them yet (on Windows
// a pipe's pending count can lag the write): a later segment would be
// credited with them.
func (r *runner) skipBytes(s *sink, n int64) {
	switch {
	case s.r == nil:
	case s == r.out:
		r.outMark += n
	case s == r.errs:
		r.errMark += n
	}
}
