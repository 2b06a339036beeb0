//go:build unix

package posix

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestMain lets the test binary be the programs the tests start (see
// testprog), with two of this package's own.
func TestMain(m *testing.M) {
	testprog.Register("selfkill", selfkill)
	testprog.Register("orphan", orphan)
	testprog.Main(m)
}

// selfkill dies of its own SIGTERM.
func selfkill(args []string) int {
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	time.Sleep(10 * time.Second)
	return 0
}

// orphan FILE leaves a child behind in a session of its own, as a daemon
// would, records the child's pid in FILE and exits.
func orphan(args []string) int {
	c := testprog.Command("hang")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return 1
	}
	if err := os.WriteFile(args[0], []byte(strconv.Itoa(c.Process.Pid)), 0o644); err != nil {
		return 1
	}
	return 0
}

// startHelper starts the test program name with args.
func startHelper(t *testing.T, a *Attr, name string, args ...string) *Process {
	t.Helper()
	exe := testprog.Executable(t)
	a.Env = testprog.Environ(name)
	a.Files = []*os.File{nil, os.Stdout, os.Stderr}
	p, err := Start(exe, append([]string{exe}, args...), a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// openFds counts this process's open descriptors.
func openFds(t *testing.T) int {
	dir := "/dev/fd"
	if runtime.GOOS == "linux" {
		dir = "/proc/self/fd"
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestWaitStatus: both ways of waiting report bash's status for an exit
// code and for a signal, and a poller wait leaves no pidfd behind.
func TestWaitStatus(t *testing.T) {
	for _, poll := range []bool{false, true} {
		for _, tc := range []struct {
			mode string
			args []string
			want Status
		}{
			{"exit-with", []string{"0"}, Status{Code: 0}},
			{"exit-with", []string{"3"}, Status{Code: 3}},
			{"selfkill", nil, Status{Code: 128 + int(syscall.SIGTERM), Signal: int(syscall.SIGTERM)}},
		} {
			t.Run(fmt.Sprintf("poll=%v/%s%v", poll, tc.mode, tc.args), func(t *testing.T) {
				StartWatchdog() // its pipe is the process's, open from the first Start on
				before := openFds(t)
				p := startHelper(t, &Attr{PollWait: poll}, tc.mode, tc.args...)
				if poll && runtime.GOOS == "linux" && pidfdSupported() && p.pidfd < 0 {
					t.Error("a PollWait start on this kernel got no pidfd")
				}
				st, err := p.Wait()
				if err != nil {
					t.Fatal(err)
				}
				if st.Code != tc.want.Code || st.Signal != tc.want.Signal {
					t.Errorf("status %+v, want %+v", st, tc.want)
				}
				if after := openFds(t); after != before {
					t.Errorf("%d descriptors open after Wait, %d before", after, before)
				}
				if err := p.Kill(); err != os.ErrProcessDone {
					t.Errorf("Kill after Wait: %v, want os.ErrProcessDone", err)
				}
			})
		}
	}
}

// TestWaitCPUTime: Wait reports the CPU time the process used, which a
// busy process cannot have left at zero.
func TestWaitCPUTime(t *testing.T) {
	for _, poll := range []bool{false, true} {
		st, err := startHelper(t, &Attr{PollWait: poll}, "burn-cpu", "50").Wait()
		if err != nil {
			t.Fatal(err)
		}
		if st.Code != 0 || st.User+st.Sys <= 0 || st.User < 0 || st.Sys < 0 {
			t.Errorf("poll=%v: status %+v, want code 0 and some CPU time", poll, st)
		}
	}
}

// TestWaitPollConcurrent: many poller waits at once, each woken by its
// own process's exit.
func TestWaitPollConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 20 {
		p := startHelper(t, &Attr{PollWait: true}, "exit-with", strconv.Itoa(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if st, err := p.Wait(); err != nil || st.Code != i {
				t.Errorf("process %d: %+v %v", i, st, err)
			}
		}()
	}
	wg.Wait()
}
