package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

// startJob runs command in the background and returns the job id.
func (c *client) startJob(command string, extra map[string]any) string {
	c.t.Helper()
	args := map[string]any{"command": command, "background": true}
	for k, v := range extra {
		args[k] = v
	}
	var out RunResult
	res := c.call("run", args, &out)
	if res.IsError || out.Job == "" {
		c.t.Fatalf("%s: no job:\n%s", command, text(res))
	}
	if out.ExitCode != 0 || !out.Running || out.Error != nil {
		c.t.Errorf("%s: started job reports exit_code %d, running %v, error %v; want 0, true, none", command, out.ExitCode, out.Running, out.Error)
	}
	return out.Job
}

// readFrom reads a job's output with job_output from offset on until
// the job ended.
func (c *client) readFrom(job string, offset int64) (string, JobOutput) {
	c.t.Helper()
	var all strings.Builder
	out := JobOutput{NextOffset: offset}
	for range 2000 {
		c.call("job_output", map[string]any{"job": job, "offset": out.NextOffset}, &out)
		all.WriteString(out.Output)
		if !out.Running {
			return all.String(), out
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("job %s still runs", job)
	return "", out
}

// TestJobReadToEnd: a background job's output is read in pieces by
// offset until the job ends, and then has its exit code.
func TestJobReadToEnd(t *testing.T) {
	c := connect(t, Config{}, nil, "")
	flag := filepath.Join(testprog.TempDir(t), "flag")
	job := c.startJob("lines 3 && wait-for "+quote(flag)+" && lines 2 && exit-with 4", nil)
	var first JobOutput
	for first.NextOffset < 6 {
		c.call("job_output", map[string]any{"job": job}, &first)
	}
	if first.Output != "1\n2\n3\n" || !first.Running || first.ExitCode != nil {
		t.Errorf("first read %+v", first)
	}
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rest, out := c.readFrom(job, first.NextOffset)
	if rest != "1\n2\n" || out.ExitCode == nil || *out.ExitCode != 4 || out.Error != nil || out.NextOffset != 10 {
		t.Errorf("then %q, %+v; want \"1\\n2\\n\", exit 4, next_offset 10", rest, out)
	}
	var again JobOutput
	c.call("job_output", map[string]any{"job": job, "offset": out.NextOffset}, &again)
	if again.Output != "" || again.NextOffset != out.NextOffset || again.Running {
		t.Errorf("read past the end: %+v", again)
	}
}

// TestJobKill: job_kill stops the job's whole tree, a grandchild
// included, and returns its final result; a dev server keeps running
// between calls until then.
func TestJobKill(t *testing.T) {
	c := connect(t, Config{Grace: 300 * time.Millisecond}, nil, "")
	pidFile := filepath.Join(testprog.TempDir(t), "pids")
	job := c.startJob("echo serving && hang "+quote(pidFile)+" | spawn", nil)
	pids := pidsIn(t, pidFile, 1)
	var out JobOutput
	for out.NextOffset == 0 {
		c.call("job_output", map[string]any{"job": job}, &out)
	}
	if !out.Running || !strings.HasPrefix(out.Output, "serving\n") {
		t.Fatalf("job output %+v", out)
	}
	var list JobList
	c.call("job_list", nil, &list)
	if len(list.Jobs) != 1 || !list.Jobs[0].Running || list.Jobs[0].Job != job || list.Jobs[0].ExitCode != nil {
		t.Errorf("job_list %+v", list)
	}
	// spawn prints "PID CHILDPID": the grandchild shares no pipe with us.
	fields := strings.Fields(strings.TrimPrefix(out.Output, "serving\n"))
	for _, f := range fields {
		var pid int
		if _, err := fmt.Sscan(f, &pid); err == nil {
			pids = append(pids, pid)
		}
	}
	var final RunResult
	res := c.call("job_kill", map[string]any{"job": job}, &final)
	if res.IsError || final.Job != job || !final.Canceled || len(final.Segments) != 3 {
		t.Errorf("job_kill: %+v\n%s", final, text(res))
	}
	gone(t, pids, 2*time.Second)
	c.call("job_list", nil, &list)
	if len(list.Jobs) != 1 || list.Jobs[0].Running || list.Jobs[0].ExitCode == nil {
		t.Errorf("after job_kill, job_list %+v", list)
	}
	if res := c.call("job_kill", map[string]any{"job": job}, &final); res.IsError {
		t.Errorf("a second job_kill: %s", text(res))
	}
}

// TestJobEnds: jobs end by their timeout and with the session; refused
// and denied background chains start no job; an unknown job is an error.
func TestJobEnds(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		c := connect(t, Config{}, nil, "")
		job := c.startJob("hang", map[string]any{"timeout": "200ms"})
		_, out := c.readFrom(job, 0)
		if out.ExitCode == nil || *out.ExitCode != 124 || out.Error == nil || out.Error.Kind != "timeout" {
			t.Errorf("%+v", out)
		}
	})
	t.Run("session end", func(t *testing.T) {
		pidFile := filepath.Join(testprog.TempDir(t), "pids")
		c := connect(t, Config{}, nil, "")
		c.startJob("hang "+quote(pidFile), nil)
		pids := pidsIn(t, pidFile, 1)
		c.close()
		gone(t, pids, time.Second)
	})
	t.Run("refused and denied start nothing", func(t *testing.T) {
		audit := &auditLog{}
		c := connect(t, Config{Authorizer: stubPolicy{}, Auditor: audit}, nil, "")
		for _, cmd := range []string{"eval hang", "hang DENY", "hang ASK"} {
			var out RunResult
			res := c.call("run", map[string]any{"command": cmd, "background": true}, &out)
			if !res.IsError || out.Job != "" {
				t.Errorf("%s: %+v\n%s", cmd, out, text(res))
			}
		}
		var list JobList
		c.call("job_list", nil, &list)
		if len(list.Jobs) != 0 {
			t.Errorf("jobs %+v", list.Jobs)
		}
		if got := audit.commands(); len(got) != 3 {
			t.Errorf("audited %q, want the three", got)
		}
	})
	t.Run("unknown job", func(t *testing.T) {
		c := connect(t, Config{}, nil, "")
		for _, tool := range []string{"job_output", "job_kill"} {
			var out struct {
				Error *struct{ Kind, Message string } `json:"error"`
			}
			res := c.call(tool, map[string]any{"job": "job-9"}, &out)
			if !res.IsError || !strings.Contains(text(res), "no job") {
				t.Errorf("%s: %s", tool, text(res))
			}
			if out.Error == nil || out.Error.Kind != "argument" || !strings.Contains(out.Error.Message, "no job") {
				t.Errorf("%s: structured content %s, want the error, kind argument", tool, res.StructuredContent)
			}
		}
	})
}

// TestJobLog: a job's output is kept head and tail, read by offset, with
// the bytes no longer kept counted.
func TestJobLog(t *testing.T) {
	l := newJobLog(8) // 4 bytes of head, 4 of tail
	l.Write([]byte("abc"))
	for _, tc := range []struct {
		name       string
		write      string
		off        int64
		head, tail string
		omitted    int64
		next       int64
	}{
		{"within the head", "", 0, "abc", "", 0, 3},
		{"from an offset", "", 2, "c", "", 0, 3},
		{"head fills, tail starts", "de", 0, "abcd", "e", 0, 5},
		{"past the end", "", 99, "", "", 0, 5},
		{"tail wraps: middle dropped", "fghijk", 0, "abcd", "hijk", 3, 11},
		{"offset inside the gap", "", 5, "", "hijk", 2, 11},
		{"offset inside the tail", "", 9, "", "jk", 0, 11},
		{"a write larger than the tail", "0123456789", 11, "", "6789", 6, 21},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l.Write([]byte(tc.write))
			parts, omitted, next := l.read(tc.off)
			if string(parts[0]) != tc.head || string(parts[1]) != tc.tail || omitted != tc.omitted || next != tc.next {
				t.Errorf("read(%d) = %q %q omitted %d next %d; want %q %q %d %d",
					tc.off, parts[0], parts[1], omitted, next, tc.head, tc.tail, tc.omitted, tc.next)
			}
		})
	}
}

// TestJobLimit: a session runs at most MaxRunningJobs jobs at once.
func TestJobLimit(t *testing.T) {
	c := connect(t, Config{}, nil, "")
	for range MaxRunningJobs {
		c.startJob("hang", nil)
	}
	res := c.call("run", map[string]any{"command": "hang", "background": true}, nil)
	if !res.IsError || !strings.Contains(text(res), "job_kill") {
		t.Errorf("job %d: %s", MaxRunningJobs+1, text(res))
	}
}
