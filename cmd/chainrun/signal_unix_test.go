//go:build unix

package main

import (
	"bufio"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalForwarded checks that SIGINT sent to chainrun reaches the
// running segment, keeps the next pipeline (after ;) from starting, and that
// chainrun exits with the status the chain ended with (128+2).
func TestSignalForwarded(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			// The helper programs of TestMain are on PATH while tests run.
			cmd := exec.Command("chainrun", "echo ready; hang; echo after")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A chainrun that ignored the signal is killed, and fails below.
			watchdog := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
			defer watchdog.Stop()
			r := bufio.NewReader(out)
			if line, err := r.ReadString('\n'); err != nil || line != "ready\n" {
				t.Fatalf("first line %q, %v", line, err)
			}
			// "ready" is printed by the chain, so chainrun already relays
			// signals; give hang a moment to start.
			time.Sleep(100 * time.Millisecond)
			start := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := r.ReadString(0)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.want {
				t.Fatalf("chainrun ended with %v, want exit status %d", err, tc.want)
			}
			if strings.Contains(rest, "after") {
				t.Fatalf("the chain went on after the signal: %q", rest)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("chainrun took %v to stop after the signal", d)
			}
		})
	}
}
