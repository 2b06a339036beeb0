package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/tools"
)

// TestToolsRunInChains runs built-in tools as pipeline stages, with
// redirects, and checks a timeout ends one that waits.
func TestToolsRunInChains(t *testing.T) {
	dir := testprog.TempDir(t)
	cases := []struct{ line, out string }{
		{"printf 'a\\nb\\nc\\n' | head -n 2 | wc -l", "2\n"},
		{"printf 'b\\na\\nb\\n' | sort | uniq -c", "      1 a\n      2 b\n"},
		{"mkdir -p d/e && printf x > d/e/f && cp -r d g && cat g/e/f && rm -rf d g && ls d 2>/dev/null || echo gone", "xgone\n"},
		{"basename a/b.txt .txt; dirname a/b.txt", "b\na\n"},
	}
	for _, c := range cases {
		res, err := RunString(context.Background(), c.line, Options{Dir: dir, Tools: tools.ModeAlways})
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if string(res.Stdout) != c.out {
			t.Errorf("%s: stdout %q, want %q (stderr %q)", c.line, res.Stdout, c.out, res.Stderr)
		}
	}
	// A tool whose reader is gone ends as a program killed by SIGPIPE.
	big := strings.Repeat("line\n", 1<<18)
	if err := os.WriteFile(filepath.Join(dir, "big"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := RunString(context.Background(), "cat big | head -n 1", Options{Dir: dir, Tools: tools.ModeAlways, Pipefail: true})
	if err != nil || string(res.Stdout) != "line\n" || res.ExitCode != 141 || res.Segments[0].ExitCode != 141 {
		t.Errorf("cat big | head -n 1: stdout %q, status %d, cat's %d (%v); want line, 141, 141", res.Stdout, res.ExitCode, res.Segments[0].ExitCode, err)
	}
	res, err = RunString(context.Background(), "sleep 30", Options{Dir: dir, Tools: tools.ModeAlways, Timeout: 50 * time.Millisecond})
	if err == nil || !res.TimedOut || res.Segments[0].Kind != "tool" || res.Segments[0].ExitCode != 143 {
		t.Errorf("sleep 30 under a timeout: %+v, %v", res, err)
	}
}
