package engine

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// The report's shapes: its figures vary from run to run, its form does not.
const (
	bashReport  = `^\nreal\t\d+m\d+\.\d{3}s\nuser\t\d+m\d+\.\d{3}s\nsys\t\d+m\d+\.\d{3}s\n$`
	posixReport = `^real \d+\.\d{2}\nuser \d+\.\d{2}\nsys \d+\.\d{2}\n$`
)

// timedEnv is an environment with the test programs first in PATH and
// extra added.
func timedEnv(extra ...string) []string {
	env := []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH")}
	if v, ok := os.LookupEnv("SYSTEMROOT"); ok {
		env = append(env, "SYSTEMROOT="+v)
	}
	return append(env, extra...)
}

// runTimedChain runs cmd with timedEnv(env...).
func runTimedChain(t *testing.T, cmd string, env ...string) *Result {
	t.Helper()
	res, err := RunString(context.Background(), cmd, Options{Env: timedEnv(env...)})
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return res
}

// TestTimedPipeline: time runs its pipeline with the pipeline's status
// and writes bash's report to the chain's stderr, shaped by time -p and
// TIMEFORMAT (a chain variable or the environment).
func TestTimedPipeline(t *testing.T) {
	out := filepath.Join(testprog.TempDir(t), "err.txt")
	tests := []struct {
		name, cmd   string
		env         []string
		stdout      string
		exit        int
		stderrShape string
	}{
		{"default", "time exit-with 3", nil, "", 3, bashReport},
		{"pipeline status", "time exit-with 0 | exit-with 1", nil, "", 1, bashReport},
		{"pipeline status last", "time exit-with 1 | exit-with 0", nil, "", 0, bashReport},
		{"built-in", "time echo hi", nil, "hi\n", 0, bashReport},
		{"-p", "time -p echo x", nil, "x\n", 0, posixReport},
		{"-p wins over TIMEFORMAT", "TIMEFORMAT=%R; time -p true", nil, "", 0, posixReport},
		{"chain variable", "TIMEFORMAT='[%R|%2U|%lS|%P%%]'; time true", nil, "", 0,
			`^\[\d+\.\d{3}\|\d+\.\d{2}\|\d+m\d+\.\d{3}s\|\d+\.\d{2}%\]\n$`},
		{"environment", "time true", []string{"TIMEFORMAT=%0R"}, "", 0, `^\d+\n$`},
		{"unset is the default", "unset TIMEFORMAT; time true", []string{"TIMEFORMAT=%R"}, "", 0, bashReport},
		{"empty: no report", "TIMEFORMAT=; time echo a", nil, "a\n", 0, `^$`},
		{"bad format", "TIMEFORMAT=%q; time echo a", nil, "a\n", 0,
			"^chainrun: TIMEFORMAT: `q': invalid format character\n$"},
		{"the stage's stderr redirected, the report not", "time to-stderr gone 2>" + out, nil, "", 0, bashReport},
		{"skipped: no report", "false && time echo x", nil, "", 1, `^$`},
		{"only the timed pipeline", "echo a; time echo b; echo c", nil, "a\nb\nc\n", 0, bashReport},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runTimedChain(t, tt.cmd, tt.env...)
			if string(res.Stdout) != tt.stdout || res.ExitCode != tt.exit {
				t.Errorf("stdout %q exit %d, want %q %d (stderr %q)", res.Stdout, res.ExitCode, tt.stdout, tt.exit, res.Stderr)
			}
			if !regexp.MustCompile(tt.stderrShape).Match(res.Stderr) {
				t.Errorf("stderr %q, want the shape %q", res.Stderr, tt.stderrShape)
			}
		})
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "gone\n" {
		t.Errorf("the stage's redirected stderr holds %q (%v), want its own line alone", b, err)
	}
}

// TestTimedCPU: the report's user and system time are the stage's: a
// busy process's cannot both be zero.
func TestTimedCPU(t *testing.T) {
	res := runTimedChain(t, "TIMEFORMAT='%3U %3S'; time burn-cpu 100")
	f := strings.Fields(string(res.Stderr))
	if res.ExitCode != 0 || len(f) != 2 {
		t.Fatalf("exit %d, stderr %q", res.ExitCode, res.Stderr)
	}
	user, err1 := strconv.ParseFloat(f[0], 64)
	sys, err2 := strconv.ParseFloat(f[1], 64)
	if err1 != nil || err2 != nil || user+sys <= 0 {
		t.Errorf("user %q sys %q after 100 ms of work", f[0], f[1])
	}
}

// TestTimedBytes: the report is the chain's own output, counted to no
// segment, neither the timed one nor the next.
func TestTimedBytes(t *testing.T) {
	res := runTimedChain(t, "time to-stderr ab; to-stderr c")
	if a, c := res.Segments[0].BytesErr, res.Segments[1].BytesErr; a != 3 || c != 2 {
		t.Errorf("segments' stderr bytes %d and %d, want 3 and 2 (stderr %q)", a, c, res.Stderr)
	}
}
