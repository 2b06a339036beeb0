package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestRunLeavesJob: what a run call's chain leaves running with & becomes
// a session job. The call returns when the chain's last pipeline ends,
// with its own status and output and the job's id (structured and in the
// text), whatever the call's timeout; job_output reads the job's later
// output; job_kill ends its tree; nothing is left.
func TestRunLeavesJob(t *testing.T) {
	c := connect(t, Config{Grace: 300 * time.Millisecond, Timeout: 2 * time.Second}, nil, "")
	dir := testprog.TempDir(t)
	pidFile := filepath.Join(dir, "pids")
	var out RunResult
	res := c.call("run", map[string]any{"command": "hang " + quote(pidFile) + " & echo started; exit 3"}, &out)
	if res.IsError || out.Job == "" || !out.Running || out.ExitCode != 3 || out.Stdout != "started\n" {
		t.Fatalf("run: %+v\n%s", out, text(res))
	}
	if len(out.Jobs) != 1 || out.Jobs[0].ID != out.Job || out.Jobs[0].Stopped || out.Jobs[0].Command != "hang "+quote(pidFile) {
		t.Errorf("jobs %+v", out.Jobs)
	}
	if !strings.Contains(text(res), "job "+out.Job) || !strings.Contains(text(res), "job_kill") {
		t.Errorf("the text does not name the job and how to stop it:\n%s", text(res))
	}
	pids := pidsIn(t, pidFile, 1)
	time.Sleep(2200 * time.Millisecond) // the call's timeout covers the chain, not the job
	var jo JobOutput
	c.call("job_output", map[string]any{"job": out.Job}, &jo)
	if !jo.Running {
		t.Fatalf("the job ended: %+v", jo)
	}
	var final RunResult
	if res := c.call("job_kill", map[string]any{"job": out.Job}, &final); res.IsError || final.Job != out.Job {
		t.Errorf("job_kill: %+v\n%s", final, text(res))
	}
	gone(t, pids, 2*time.Second)
	var list JobList
	c.call("job_list", nil, &list)
	if len(list.Jobs) != 1 || list.Jobs[0].Running {
		t.Errorf("job_list %+v", list)
	}
}

// TestRunLeavesJobOutput: the job's output after the call returned is
// job_output's; an adopted job that ends reports its pipeline's status;
// a session that ends ends its adopted jobs.
func TestRunLeavesJobOutput(t *testing.T) {
	c := connect(t, Config{}, nil, "")
	flag := filepath.Join(testprog.TempDir(t), "flag")
	var out RunResult
	c.call("run", map[string]any{"command": "wait-for " + quote(flag) + " && lines 2 && exit-with 6 & echo fg"}, &out)
	if out.Job != "" {
		t.Fatalf("an && list ran in the background: %+v", out)
	}
	res := c.call("run", map[string]any{"command": "lines 2 | wait-for " + quote(flag) + " & echo fg"}, &out)
	if out.Job == "" || out.Stdout != "fg\n" {
		t.Fatalf("run: %+v\n%s", out, text(res))
	}
	c.call("run", map[string]any{"command": "write-file " + quote(flag) + " x"}, nil)
	_, jo := c.readFrom(out.Job, 0)
	if jo.ExitCode == nil || *jo.ExitCode != 0 {
		t.Errorf("ended job %+v", jo)
	}
	pidFile := filepath.Join(testprog.TempDir(t), "pids")
	c.call("run", map[string]any{"command": "hang " + quote(pidFile) + " &"}, &out)
	pids := pidsIn(t, pidFile, 1)
	c.close()
	gone(t, pids, 2*time.Second)
}
