package posix

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

func init() {
	// start-child PIDFILE starts hang PIDFILE with Start and waits. It
	// holds no group, so no watchdog ever starts: only PR_SET_PDEATHSIG can
	// end the child when this process is killed.
	testprog.Register("start-child", func(args []string) int {
		exe, err := os.Executable()
		if err != nil {
			return 1
		}
		a := &Attr{Env: testprog.Environ("hang"), Files: []*os.File{nil, nil, os.Stderr}}
		if _, err := Start(exe, []string{exe, args[0]}, a); err != nil {
			return 1
		}
		time.Sleep(time.Hour)
		return 0
	})
}

// TestChildDiesWithParent: a direct child started by Start dies as soon
// as its parent is killed with SIGKILL, before any watchdog runs.
func TestChildDiesWithParent(t *testing.T) {
	pidfile := filepath.Join(testprog.TempDir(t), "pid")
	cmd := testprog.Command("start-child", pidfile)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var child int
	for i := 0; i < 500 && child == 0; i++ {
		time.Sleep(5 * time.Millisecond)
		b, _ := os.ReadFile(pidfile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	cmd.Process.Kill()
	cmd.Wait()
	if child == 0 {
		t.Fatal("the child recorded no pid")
	}
	start := time.Now()
	for childRuns(child) && time.Since(start) < time.Second {
		time.Sleep(time.Millisecond)
	}
	if childRuns(child) {
		syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("the child outlived its killed parent by %v", time.Since(start))
	}
	var ws syscall.WaitStatus
	syscall.Wait4(child, &ws, syscall.WNOHANG, nil) // if it was re-parented here
	t.Logf("the child was gone %v after its parent", time.Since(start).Round(time.Microsecond))
}

// childRuns reports whether pid exists and is no zombie.
func childRuns(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && !strings.HasPrefix(string(b[i+1:]), " Z")
}
