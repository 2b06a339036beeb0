package report

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/engine"
)

// Job is a background pipeline (cmd &) still running when the chain's
// last pipeline ended.
type Job struct {
	// N is its job number (%N); PID is $! after it.
	N   int `json:"n"`
	PID int `json:"pid"`
	// Command is the pipeline's text.
	Command string `json:"command"`
	// Segments are the indexes of its segments.
	Segments []int `json:"segments"`
	// Stopped is set when chainrun ended it at the chain's end.
	Stopped bool `json:"stopped"`
	// ExitCode is its status once it ended (wait's).
	ExitCode int `json:"exit_code"`
	// ID is the MCP session job it became, when it became one.
	ID string `json:"job,omitempty"`
}

// newJobs renders the result's background pipelines; nil when none.
func newJobs(jobs []engine.Job) []Job {
	if len(jobs) == 0 {
		return nil
	}
	out := make([]Job, len(jobs))
	for i, j := range jobs {
		out[i] = Job{N: j.N, PID: j.PID, Command: j.Text, Segments: j.Segments, Stopped: j.Killed, ExitCode: j.ExitCode}
	}
	return out
}

// KeepRunning is how to keep a server started with & running past the
// chain: chainrun's MCP server turns it into a session job.
const KeepRunning = "to keep a server running, start it through chainrun mcp (its run tool keeps what & left running as a " +
	"session job, or use background: true; then job_output and job_kill)"

// StoppedJobsText is the one line that says background pipelines were
// still running at the chain's end and were stopped with it; "" when
// none was.
func StoppedJobsText(res *engine.Result) string {
	if res == nil {
		return ""
	}
	var names []string
	for _, j := range res.Jobs {
		if j.Killed {
			names = append(names, fmt.Sprintf("%%%d %q", j.N, j.Text))
		}
	}
	if len(names) == 0 {
		return ""
	}
	what := "a background job"
	if len(names) > 1 {
		what = fmt.Sprintf("%d background jobs", len(names))
	}
	return fmt.Sprintf("stopped %s still running at the chain's end (%s): nothing chainrun starts outlives it; %s",
		what, strings.Join(names, ", "), KeepRunning)
}
