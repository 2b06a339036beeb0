//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

func init() {
	// deaf PIDFILE ignores SIGINT, SIGTERM and SIGHUP, records its pid and
	// hangs: only SIGKILL ends it.
	testprog.Register("deaf", func(args []string) int {
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
		testprog.AppendPid(args[0])
		time.Sleep(time.Hour)
		return 0
	})
}

// startChainrun starts the test binary as chainrun with args and waits
// until the chain's processes have written n pids to pidfile.
func startChainrun(t *testing.T, pidfile string, n int, args ...string) (*exec.Cmd, []int) {
	t.Helper()
	cmd := testprog.Command("chainrun", args...)
	cmd.Env = append(cmd.Env, "PATH="+testprog.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500 && len(pidsIn(pidfile)) < n; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	pids := pidsIn(pidfile)
	if len(pids) < n {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the chain recorded pids %v, want %d", pids, n)
	}
	return cmd, pids
}

func pidsIn(file string) []int {
	b, _ := os.ReadFile(file)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if p, err := strconv.Atoi(f); err == nil {
			pids = append(pids, p)
		}
	}
	return pids
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc (macOS): kill(0) is all there is
	}
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || !strings.HasPrefix(string(b[i+1:]), " Z")
}

// requireGone waits up to d for every pid to end, then kills and fails
// on those left.
func requireGone(t *testing.T, pids []int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for running(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, pid := range pids {
		if running(pid) {
			t.Errorf("process %d of the chain outlived chainrun by %v", pid, d)
			syscall.Kill(pid, syscall.SIGKILL)
		}
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}

// TestKilledChainrunLeavesNothing: chainrun killed by a signal it cannot
// handle takes the chain's processes with it within a second. It kills
// once the watchdog runs (posix.WatchdogDelay into the chain), as most kills of
// a chain that runs a while come.
func TestKilledChainrunLeavesNothing(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGSEGV, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			pidfile := filepath.Join(testprog.TempDir(t), "pids")
			cmd, pids := startChainrun(t, pidfile, 2, fmt.Sprintf("hang %[1]s | deaf %[1]s", pidfile))
			if !testprog.WaitForChild(cmd.Process.Pid, "chainrun-watchdog", 10*time.Second) {
				t.Error("chainrun started no watchdog")
			}
			cmd.Process.Signal(sig)
			cmd.Wait()
			requireGone(t, pids, time.Second)
		})
	}
}

// TestForwardedSignalEscalates: a forwarded signal the chain ignores is
// followed by SIGKILL after the grace period, as a timeout's SIGTERM is;
// chainrun exits 128+9, which says the kill ended the chain.
func TestForwardedSignalEscalates(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			pidfile := filepath.Join(testprog.TempDir(t), "pids")
			cmd, pids := startChainrun(t, pidfile, 1, "--grace", "300ms", "deaf "+pidfile+"; echo-argv after")
			start := time.Now()
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
				requireGone(t, pids, time.Second)
				t.Fatalf("chainrun still ran 5 s after %v", sig)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 137 {
				t.Errorf("chainrun ended with %v, want exit status 137", err)
			}
			if d := time.Since(start); d < 300*time.Millisecond {
				t.Errorf("the kill came after %v, before the grace period", d)
			}
			requireGone(t, pids, time.Second)
		})
	}
}
