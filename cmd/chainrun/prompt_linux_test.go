//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/chainrun/chainrun/internal/testprog"
)

// openPty opens a pseudo-terminal pair: the controlling side and the
// terminal a program sees.
func openPty(t *testing.T) (ctrl, tty *os.File) {
	t.Helper()
	ctrl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	fd := int(ctrl.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctrl.Close(); tty.Close() })
	return ctrl, tty
}

// TestPrompt answers the ask prompt on a terminal: y runs the chain, n
// refuses it with status 3 and runs nothing; with the terminal as
// chainrun's controlling terminal or only as its stdin and stderr.
func TestPrompt(t *testing.T) {
	for _, tc := range []struct {
		answer string
		ctty   bool // the terminal is chainrun's controlling terminal
		status int
		ran    bool
	}{
		{"y\n", true, 0, true}, {"n\n", true, 3, false}, {"\n", true, 3, false},
		{"y\n", false, 0, true}, {"n\n", false, 3, false},
	} {
		t.Run(fmt.Sprintf("%q ctty=%v", tc.answer, tc.ctty), func(t *testing.T) {
			dir := testprog.TempDir(t)
			settings := filepath.Join(dir, "settings.json")
			if err := os.WriteFile(settings, []byte(`{"permissions":{"allow":["Bash(show-argv:*)"]}}`), 0o666); err != nil {
				t.Fatal(err)
			}
			ctrl, tty := openPty(t)
			cmd := exec.Command("chainrun", "--policy", settings, "show-argv a && print-env X > ran.txt")
			cmd.Dir = dir
			cmd.Stdin, cmd.Stderr = tty, tty
			if tc.ctty {
				// chainrun's controlling terminal, as under a shell; the
				// chain then runs in the terminal's foreground.
				cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			}
			var out bytes.Buffer
			cmd.Stdout = &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			watchdog := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
			defer watchdog.Stop()

			// Read the terminal until the question, then answer it.
			var seen bytes.Buffer
			buf := make([]byte, 256)
			for !strings.Contains(seen.String(), "Run this chain? [y/N] ") {
				n, err := ctrl.Read(buf)
				if err != nil {
					t.Fatalf("reading the prompt: %v; so far: %q", err, seen.String())
				}
				seen.Write(buf[:n])
			}
			if !strings.Contains(seen.String(), `segment 2 "print-env X > ran.txt" asks`) {
				t.Errorf("the prompt does not say which segment asks:\n%s", seen.String())
			}
			if _, err := ctrl.Write([]byte(tc.answer)); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			status := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tc.status {
				ctrl.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
				n, _ := ctrl.Read(buf)
				t.Fatalf("status %d, want %d; terminal after the answer: %q", status, tc.status, buf[:n])
			}
			_, statErr := os.Stat(filepath.Join(dir, "ran.txt"))
			if ran := statErr == nil; ran != tc.ran || strings.Contains(out.String(), "[a]") != tc.ran {
				t.Fatalf("chain ran = %v (stdout %q), want %v", ran, out.String(), tc.ran)
			}
		})
	}
}
