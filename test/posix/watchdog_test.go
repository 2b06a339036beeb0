//go:build unix

package posix_test

import (
	"context"
	"fmt"
	"os"

	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/posix"
)

func init() {
	// run-chain CHAIN runs CHAIN with the engine, as chainrun would.
	testprog.Register("run-chain", func(args []string) int {
		res, err := engine.RunString(context.Background(), args[0], engine.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 125
		}
		return res.ExitCode
	})
	// leave-orphan PIDFILE starts hang in a session of its own, waits
	// until it has recorded its pid, and exits: the daemon's double fork,
	// which leaves hang to the subreaper.
	testprog.Register("leave-orphan", func(args []string) int {
		c := testprog.Command("hang", args[0])
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		n := len(readPids(args[0]))
		if err := c.Start(); err != nil {
			return 1
		}
		waitForLines(args[0], n+1)
		return 0
	})
}

// TestKilledRunnerLeavesNothing kills the process running a chain with
// SIGKILL, which no code of its own survives, once its watchdog runs, and
// requires every process of the chain to be gone within a second: the stages of a pipeline, a
// grandchild in the stage's group, a great-grandchild in a session of its
// own, and (on Linux) an orphan the runner had adopted as subreaper.
func TestKilledRunnerLeavesNothing(t *testing.T) {
	for _, tc := range []struct {
		name, chain string
		pids        int
		escapees    []int // indexes of pids that left their group
	}{
		{"pipeline", "hang %[1]s | hang %[1]s", 2, nil},
		{"tree", "hang %[1]s | spawn-tree %[1]s", 4, []int{3}},
		{"orphan", "leave-orphan %[1]s; hang %[1]s", 2, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidfile := filepath.Join(testprog.TempDir(t), "pids")
			cmd := testprog.Command("run-chain", fmt.Sprintf(tc.chain, pidfile))
			cmd.Env = append(cmd.Env, "PATH="+testprog.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitForLines(pidfile, tc.pids)
			pids := readPids(pidfile)
			if len(pids) != tc.pids {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("recorded pids %v, want %d", pids, tc.pids)
			}
			// The watchdog starts once the chain has run posix.WatchdogDelay,
			// and records adopted orphans every 200 ms from then on.
			if !testprog.WaitForChild(cmd.Process.Pid, "chainrun-watchdog", 10*time.Second) {
				t.Error("the runner started no watchdog")
			}
			time.Sleep(500 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			deadline := time.Now().Add(time.Second)
			for _, pid := range pids {
				for alive(pid) && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond)
				}
			}
			for i, pid := range pids {
				escapee := false
				for _, e := range tc.escapees {
					escapee = escapee || e == i
				}
				if alive(pid) {
					if escapee && runtime.GOOS != "linux" {
						t.Logf("process %d left its group: found only on Linux (documented)", pid)
					} else {
						t.Errorf("process %d (%d of %v) outlived the killed runner by 1 s", pid, i, pids)
					}
					syscallKill(pid)
				}
				reap(pid)
			}
		})
	}
}

// reap collects pid's status if it ended as a child of this process
// (which the tests' chains make a subreaper).
func reap(pid int) {
	var ws syscall.WaitStatus
	syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}

func init() {
	// watchdog-after CHAIN runs CHAIN and prints how long it took and,
	// once a watchdog started during the chain would run, whether one does.
	testprog.Register("watchdog-after", func(args []string) int {
		start := time.Now()
		res, err := engine.RunString(context.Background(), args[0], engine.Options{})
		took := time.Since(start)
		if err != nil || res.ExitCode != 0 {
			fmt.Fprintln(os.Stderr, res.ExitCode, err)
			return 125
		}
		// A watchdog the chain's timer started is up within a second or two,
		// however loaded the machine; none starts after a chain ended.
		time.Sleep(3 * posix.WatchdogDelay)
		deadline := time.Now().Add(2 * time.Second)
		for took >= posix.WatchdogDelay && !posix.WatchdogRunning() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Println(took >= posix.WatchdogDelay, posix.WatchdogRunning())
		return 0
	})
	// nap MS sleeps MS milliseconds.
	testprog.Register("nap", func(args []string) int {
		ms, _ := strconv.Atoi(args[0])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		return 0
	})
}

// TestShortChainStartsNoWatchdog: a chain that ends before posix.WatchdogDelay,
// of built-ins or of one quick process, starts no watchdog, so the fork and
// exec of the watchdog is not part of short runs; one that runs longer does.
// A chain slowed past the delay by a loaded machine proves nothing either
// way and is tried again.
func TestShortChainStartsNoWatchdog(t *testing.T) {
	for _, tc := range []struct {
		name, chain string
		watchdog    bool
	}{
		{"builtins", "true && echo x >/dev/null; cd / && pwd >/dev/null", false},
		{"quick process", "exit-with 0", false},
		{"long process", "nap 100", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for try := 0; ; try++ {
				cmd := testprog.Command("watchdog-after", tc.chain)
				cmd.Env = append(cmd.Env, "PATH="+testprog.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%v: %s", err, out)
				}
				var long, watchdog bool
				if _, err := fmt.Sscan(string(out), &long, &watchdog); err != nil {
					t.Fatalf("output %q: %v", out, err)
				}
				if long != tc.watchdog {
					if try < 20 {
						continue
					}
					t.Skipf("in 20 tries the chain never ended on the wanted side of %v", posix.WatchdogDelay)
				}
				if watchdog != tc.watchdog {
					t.Errorf("a watchdog runs after the chain: %v, want %v", watchdog, tc.watchdog)
				}
				return
			}
		})
	}
}
