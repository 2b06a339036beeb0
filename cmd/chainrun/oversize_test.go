package main

import (
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/report"
)

// TestOversizeRefused passes a command line one byte over the limit:
// exit 2, kind syntax or unsupported, and nothing runs. (Windows caps a
// whole command line at 32767 characters, so it cannot be passed there.)
func TestOversizeRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a command line this long cannot be passed on Windows")
	}
	src := "echo " + strings.Repeat("a", chain.MaxSourceLen-len("echo "))
	for _, tc := range []struct {
		src     string
		refused bool
	}{{src, false}, {src + "a", true}} {
		out, err := exec.Command("chainrun", "--explain", "--json", "--", tc.src).Output()
		var ee *exec.ExitError
		switch {
		case tc.refused && (!errors.As(err, &ee) || ee.ExitCode() != report.ExitRefused):
			t.Errorf("%d bytes: %v, want exit status 2", len(tc.src), err)
		case tc.refused && !strings.Contains(string(out), `"error":{"kind":`):
			t.Errorf("%d bytes: no error in %.200s", len(tc.src), out)
		case !tc.refused && err != nil:
			t.Errorf("%d bytes (the limit): %v, want it accepted", len(tc.src), err)
		}
	}
}
