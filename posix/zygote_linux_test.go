package posix

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/sandbox"
)

func init() {
	// start-carved PIDFILE ROOT starts hang PIDFILE through a carving
	// confinement of ROOT, writes the zygote's pid to PIDFILE.z and
	// waits: only the parent-death signals can end the two when it is
	// killed (it holds no group, so no watchdog starts).
	testprog.Register("start-carved", func(args []string) int {
		c, err := carving(args[1])
		if err != nil || c.carve == nil {
			return 1
		}
		exe, _ := os.Executable()
		a := &Attr{Env: testprog.Environ("hang"), Files: []*os.File{nil, nil, os.Stderr}, Confine: c}
		if _, err := Start(exe, []string{exe, args[0]}, a); err != nil {
			return 1
		}
		os.WriteFile(args[0]+".z", []byte(strconv.Itoa(c.zyg.pid)), 0o644)
		time.Sleep(time.Hour)
		return 0
	})
}

// carving confines to root, with root/locked denied for writing: a carve.
func carving(root string) (*Confinement, error) {
	os.Mkdir(filepath.Join(root, "locked"), 0o755)
	return Confine(sandbox.New(&sandbox.Config{DenyWrite: []string{filepath.Join(root, "locked")}}, []string{root}, os.TempDir()))
}

// carvedConfinement is a carving confinement of a new temporary root, or
// a skip where the kernel has no Landlock or no user namespaces.
func carvedConfinement(t *testing.T) (*Confinement, string) {
	if LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	root := testprog.TempDir(t)
	c, err := carving(root)
	if err != nil {
		t.Fatal(err)
	}
	if c.carve == nil {
		c.Close()
		t.Skip("no user namespace to carve in")
	}
	return c, root
}

// runIn starts the test program name with args through c (nil: plainly)
// in dir and returns its status and output.
func runIn(t *testing.T, c *Confinement, dir, name string, args ...string) (Status, string) {
	t.Helper()
	exe, _ := os.Executable()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a := &Attr{Dir: dir, Env: testprog.Environ(name), Files: []*os.File{nil, w, w}, Confine: c, PollWait: true}
	p, err := Start(exe, append([]string{exe}, args...), a)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(r)
	st, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return st, string(out)
}

// TestZygoteServesARun: the spawns of one confinement share one carving
// helper, and so one mount namespace not ours; each is this process's
// child, and each is confined (a carved path refuses a write the root
// around it allows).
func TestZygoteServesARun(t *testing.T) {
	c, root := carvedConfinement(t)
	defer c.Close()
	before := zygoteStarts.Load()
	ours, _ := os.Readlink("/proc/self/ns/mnt")
	var first string
	for i := 0; i < 5; i++ {
		st, out := runIn(t, c, root, "where-am-i")
		f := strings.Fields(out)
		if st.Code != 0 || len(f) != 2 {
			t.Fatalf("spawn %d: status %d, output %q", i, st.Code, out)
		}
		if first == "" {
			first = f[0]
		}
		if f[0] == ours || f[0] != first || f[1] != strconv.Itoa(os.Getpid()) {
			t.Errorf("spawn %d: mount namespace %s (ours %s, the first %s), parent %s (we are %d)", i, f[0], ours, first, f[1], os.Getpid())
		}
	}
	if st, out := runIn(t, c, root, "write-file", "locked/new"); st.Code == 0 {
		t.Errorf("a write under the carved path succeeded: %q", out)
	}
	if st, out := runIn(t, c, root, "write-file", "new"); st.Code != 0 {
		t.Errorf("a write inside the root failed: %q", out)
	}
	if n := zygoteStarts.Load() - before; n != 1 {
		t.Errorf("seven spawns started %d carving helpers, want 1", n)
	}
}

// TestZygoteExecErrors: a carved spawn that cannot exec fails as a plain
// one does, and leaves no zombie behind.
func TestZygoteExecErrors(t *testing.T) {
	c, root := carvedConfinement(t)
	defer c.Close()
	noexec := filepath.Join(root, "noexec")
	os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644)
	for _, tt := range []struct {
		path string
		want error
	}{{filepath.Join(root, "missing"), syscall.ENOENT}, {noexec, syscall.EACCES}, {root, syscall.EACCES}} {
		var msgs []string
		for _, conf := range []*Confinement{nil, c} {
			_, err := Start(tt.path, []string{"x"}, &Attr{Files: []*os.File{nil, nil, nil}, Confine: conf})
			if !errors.Is(err, tt.want) {
				t.Errorf("%s (confined %v): %v, want %v", tt.path, conf != nil, err, tt.want)
			}
			msgs = append(msgs, errString(err))
		}
		if msgs[0] != msgs[1] {
			t.Errorf("%s: confined %q, plain %q", tt.path, msgs[1], msgs[0])
		}
	}
	for _, pid := range childrenOf(os.Getpid()) {
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(b), ") Z ") {
			t.Errorf("a zombie child is left: %s", b)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestZygoteDiesWithChainrun: when the process that started a carved
// spawn is killed, neither the child nor the carving helper outlives it.
func TestZygoteDiesWithChainrun(t *testing.T) {
	if LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	root := testprog.TempDir(t)
	pidfile := filepath.Join(root, "pid")
	cmd := testprog.Command("start-carved", pidfile, root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var child, zyg int
	for i := 0; i < 500 && (child == 0 || zyg == 0); i++ {
		time.Sleep(5 * time.Millisecond)
		b, _ := os.ReadFile(pidfile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		b, _ = os.ReadFile(pidfile + ".z")
		zyg, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	cmd.Process.Kill()
	cmd.Wait()
	if child == 0 || zyg == 0 {
		t.Skipf("no carved child started (child %d, helper %d)", child, zyg)
	}
	start := time.Now()
	for (childRuns(child) || childRuns(zyg)) && time.Since(start) < time.Second {
		time.Sleep(time.Millisecond)
	}
	for what, pid := range map[string]int{"child": child, "carving helper": zyg} {
		if childRuns(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the %s outlived its killed parent by %v", what, time.Since(start))
		}
	}
}
