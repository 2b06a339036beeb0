package posix

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

func pidfdSupported() bool { return pidfdWorks() }

// TestSweepOrphansOfAnyThread: processes started from different OS
// threads leave orphans; all of them are re-parented to the main thread,
// where Sweep reads, and Sweep kills every one.
func TestSweepOrphansOfAnyThread(t *testing.T) {
	if !EnableSubreaper() {
		t.Skip("PR_SET_CHILD_SUBREAPER refused")
	}
	dir := testprog.TempDir(t)
	var groups []int
	var orphans []int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A locked goroutine forks from a thread of its own, so the
			// children's parents are threads other than the leader.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			file := filepath.Join(dir, strconv.Itoa(i))
			p := startHelper(t, &Attr{}, "orphan", file)
			HoldGroup(p.Pgid())
			if st, err := p.Wait(); err != nil || st.Code != 0 {
				t.Errorf("helper %d: %+v %v", i, st, err)
			}
			b, err := os.ReadFile(file)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil || pid == 0 {
				t.Errorf("helper %d recorded no orphan: %v", i, err)
				return
			}
			mu.Lock()
			groups, orphans = append(groups, p.Pgid()), append(orphans, pid)
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, pid := range orphans {
		if ppid, _, _, ok := readStat(pid); !ok || ppid != os.Getpid() {
			t.Errorf("orphan %d has parent %d, want this process %d", pid, ppid, os.Getpid())
		}
	}
	listed := listChildren(os.Getpid())
	for _, pid := range orphans {
		found := false
		for _, c := range listed {
			found = found || c == pid
		}
		if !found {
			t.Errorf("orphan %d missing from the leader's children %v", pid, listed)
		}
	}
	if n := Sweep(nil); n != 0 {
		t.Errorf("Sweep without groups killed %d processes", n)
	}
	for _, g := range groups {
		ReleaseGroup(g)
	}
	if n := Sweep(groups); n != len(orphans) {
		t.Errorf("Sweep killed %d, want %d", n, len(orphans))
	}
	for _, pid := range orphans {
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("orphan %d survived the sweep", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
