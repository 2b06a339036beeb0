package builtin

import (
	"strconv"
	"strings"
)

// Jobs is what wait needs of the shell: its background pipelines. A
// State without them (a pipeline stage, bash's subshell) has no
// children to wait for.
type Jobs interface {
	// WaitAll waits for every background pipeline.
	WaitAll()
	// WaitPID waits for the background pipeline whose last process has
	// id pid and returns its status; ok is false when the chain started
	// none. A status once waited for is remembered, as bash's is.
	WaitPID(pid int) (status int, ok bool)
	// WaitJob waits for job n (%N, from 1) and returns its status; ok is
	// false when there is no such job, or it was waited for already.
	WaitJob(n int) (status int, ok bool)
}

// wait is bash's wait: with no operand it waits for every background
// pipeline and returns 0; else it waits for each operand, a process id
// or a %N job spec, and returns the last one's status (127 for one that
// is no child of the chain, 1 for one that is neither).
func wait(io *IO, args []string, c Call, st State) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "wait [pid|%N …]", "Wait for the chain's background pipelines; the status is the last one named.")
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	jobs, _ := st.(Jobs)
	if c.InPipeline {
		jobs = nil
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		return io.fail(2, "wait: "+args[0]+": option not supported; name the process ids or %N jobs to wait for")
	}
	if len(args) == 0 {
		if jobs != nil {
			jobs.WaitAll()
		}
		return 0
	}
	code := 0
	for _, a := range args {
		code = waitOne(io, a, jobs)
	}
	return code
}

// waitOne waits for one operand of wait.
func waitOne(io *IO, a string, jobs Jobs) int {
	if spec, ok := strings.CutPrefix(a, "%"); ok {
		n, err := strconv.Atoi(spec)
		if err != nil || n < 1 {
			n = 0
		}
		if jobs != nil && n > 0 {
			if code, ok := jobs.WaitJob(n); ok {
				return code
			}
		}
		return io.fail(127, "wait: "+a+": no such job")
	}
	pid, err := strconv.Atoi(a)
	if err != nil || pid < 0 {
		return io.fail(1, "wait: `"+a+"': not a pid or valid job spec")
	}
	if jobs != nil {
		if code, ok := jobs.WaitPID(pid); ok {
			return code
		}
	}
	return io.fail(127, "wait: pid "+a+" is not a child of this shell")
}
