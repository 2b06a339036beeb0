package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/posix"
)

// TestSandboxCarvedOneHelper: the segments of a run whose boundary
// carves paths out of the root all start through one helper, so they
// share one mount namespace (each helper makes its own), not the test's;
// each is the test's own child; and no helper is left after the run.
func TestSandboxCarvedOneHelper(t *testing.T) {
	if posix.LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	p := newSandboxPlace(t)
	res := p.run(t, strings.Repeat("where-am-i; ", 7)+"where-am-i | where-am-i", p.b)
	ours, _ := os.Readlink("/proc/self/ns/mnt")
	lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	if res.ExitCode != 0 || len(lines) != 8 {
		t.Fatalf("status %d, output %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	first := strings.Fields(lines[0])[0]
	if first == ours {
		t.Skip("no user namespace to carve in")
	}
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != 2 || f[0] != first || f[1] != strconv.Itoa(os.Getpid()) {
			t.Errorf("segment %d: %q, want mount namespace %s and parent %d", i, l, first, os.Getpid())
		}
	}
	if z := sandboxHelpers(); len(z) > 0 {
		t.Errorf("carving helpers %v outlived the run", z)
	}
}

// TestSandboxCarvedCancel: cancelling a carved run ends its processes,
// and its helper.
func TestSandboxCarvedCancel(t *testing.T) {
	if posix.LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	p := newSandboxPlace(t)
	pidfile := filepath.Join(p.root, "pids")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var helpers []int
	go func() {
		for i := 0; i < 1000 && len(pidsIn(pidfile)) < 2; i++ {
			time.Sleep(5 * time.Millisecond)
		}
		helpers = sandboxHelpers()
		cancel()
	}()
	env := []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH")}
	RunString(ctx, "hang "+pidfile+" | hang "+pidfile, Options{Dir: p.root, Env: env, Sandbox: p.b})
	pids := pidsIn(pidfile)
	if len(pids) != 2 {
		t.Fatalf("the chain recorded pids %v", pids)
	}
	for _, pid := range append(pids, helpers...) {
		if runs(pid) {
			t.Errorf("process %d outlived the cancelled run", pid)
		}
	}
	if len(helpers) != 1 {
		t.Errorf("the run had carving helpers %v, want one", helpers)
	}
}

// sandboxHelpers are this process's children that are carving helpers.
func sandboxHelpers() []int {
	var out []int
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			argv, _ := os.ReadFile("/proc/" + f + "/cmdline")
			if pid, _ := strconv.Atoi(f); strings.HasPrefix(string(argv), "chainrun-sandbox\x00") {
				out = append(out, pid)
			}
		}
	}
	return out
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

// runs reports whether pid exists and is no zombie.
func runs(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && !strings.HasPrefix(string(b[i+1:]), " Z")
}
