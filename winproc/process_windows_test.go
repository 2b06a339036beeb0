//go:build windows

package winproc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/internal/testprog"
	"golang.org/x/sys/windows"
)

// TestMain lets the test binary be the programs the tests start: those of
// testprog, and echo, which prints its argv (argv0 left out) by the
// post-2008 rules, NUL-separated. test/windows registers the same echo:
// testprog cannot, since it must not import winproc.
func TestMain(m *testing.M) {
	testprog.Register("echo", func([]string) int {
		args := ParseCommandLine(windows.UTF16PtrToString(windows.GetCommandLine()))
		fmt.Print(strings.Join(args[1:], "\x00"))
		return 0
	})
	testprog.Main(m)
}

// run starts the helper with args and returns its stdout and exit code.
func run(t *testing.T, helper string, env []string, args ...string) (string, uint32, *Process) {
	t.Helper()
	exe := testprog.Executable(t)
	line, err := ComposeCommandLine(append([]string{exe}, args...))
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := Start(&Attr{Path: exe, CommandLine: line, Env: testprog.Environ(helper, env...), Stdout: w, Stderr: w})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(r)
	code, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return string(out), code, p
}

func TestStartArgv(t *testing.T) {
	args := []string{"a", "", "b c", `C:\dir with space\`, `say "hi"`, `a\\"b`, "日本語", "&|<>^%PATH%"}
	out, code, p := run(t, "echo", nil, args...)
	defer p.Close()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if got := strings.Split(out, "\x00"); !slices.Equal(got, args) {
		t.Errorf("got %q want %q", got, args)
	}
	if !p.Jobbed() {
		t.Errorf("not in a job: %s", p.Warning)
	}
	t.Logf("born in its job through PROC_THREAD_ATTRIBUTE_JOB_LIST: %v", p.bornInJob)
}

func TestEscapeArgMatchesXSys(t *testing.T) {
	for _, v := range vectors() {
		for _, a := range v {
			if got, want := EscapeArg(a), windows.EscapeArg(a); got != want {
				t.Errorf("EscapeArg(%q) = %s, x/sys says %s", a, got, want)
			}
		}
	}
}

func TestExitCodeUnsigned(t *testing.T) {
	for _, want := range []uint32{0, 3, 255, 256, 0xC000013A, 0xC0000005} {
		_, got, p := run(t, "exit-with", nil, fmt.Sprint(want))
		p.Close()
		if got != want {
			t.Errorf("exit code %#x, want %#x", got, want)
		}
	}
}

func TestEnvBlockReachesChild(t *testing.T) {
	out, _, p := run(t, "dump-env", []string{"Chainrun_X=1", "CHAINRUN_X=2", "ZZ_ÜNICODE=é"})
	p.Close()
	env := strings.Split(out, "\x00")
	var xs []string
	for _, kv := range env {
		if strings.EqualFold(environ.Key(kv), "CHAINRUN_X") || strings.HasPrefix(kv, "ZZ_") {
			xs = append(xs, kv)
		}
	}
	if !slices.Equal(xs, []string{"Chainrun_X=2", "ZZ_ÜNICODE=é"}) {
		t.Errorf("got %q", xs)
	}
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.EqualFold(environ.Key(kv), "SYSTEMROOT") }) {
		t.Error("SYSTEMROOT missing")
	}
}

func isProcessInJob(t *testing.T, proc, job windows.Handle) bool {
	var in int32
	r, _, err := kernel32.NewProc("IsProcessInJob").Call(uintptr(proc), uintptr(job), uintptr(unsafe.Pointer(&in)))
	if r == 0 {
		t.Fatalf("IsProcessInJob: %v", err)
	}
	return in != 0
}

func alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, 0)
	return ev == uint32(windows.WAIT_TIMEOUT)
}

// startSpawner starts the helper that starts a hanging grandchild and
// returns the process and the grandchild's pid.
func startSpawner(t *testing.T) (*Process, int) {
	t.Helper()
	exe := testprog.Executable(t)
	line, _ := ComposeCommandLine([]string{exe})
	r, w, _ := os.Pipe()
	p, err := Start(&Attr{Path: exe, CommandLine: line, Env: testprog.Environ("spawn"), Stdout: w})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	line, err = bufio.NewReader(r).ReadString('\n')
	r.Close()
	var pid, gpid int
	if _, perr := fmt.Sscan(line, &pid, &gpid); perr != nil {
		p.Close()
		t.Fatalf("spawner said %q (%v)", line, err)
	}
	return p, gpid
}

func TestKillEndsTree(t *testing.T) {
	p, gpid := startSpawner(t)
	defer p.Close()
	if !isProcessInJob(t, p.handle, p.job) {
		t.Fatal("child not in its job")
	}
	// Child and grandchild, plus a console host where one is started.
	if n, _ := p.ActiveProcesses(); n < 2 {
		t.Errorf("ActiveProcesses = %d, want at least 2", n)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait()
	if err != nil || code != KilledExitCode {
		t.Errorf("exit %d %v, want %d", code, err, KilledExitCode)
	}
	if !p.WaitTree(5 * time.Second) {
		t.Error("tree still running after Kill")
	}
	if alive(gpid) {
		t.Errorf("grandchild %d survived", gpid)
	}
}

// The fallback for Windows without PROC_THREAD_ATTRIBUTE_JOB_LIST: the
// process starts suspended, joins its job, then resumes, so its child is
// born in the job too and Kill ends both.
func TestSuspendedFallbackEndsTree(t *testing.T) {
	jobListUnsupported = true
	defer func() { jobListUnsupported = false }()
	p, gpid := startSpawner(t)
	defer p.Close()
	if p.bornInJob || !p.Jobbed() {
		t.Fatalf("bornInJob %v, jobbed %v (%s): the fallback did not run", p.bornInJob, p.Jobbed(), p.Warning)
	}
	if !isProcessInJob(t, p.handle, p.job) {
		t.Fatal("child not in its job")
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if !p.WaitTree(5 * time.Second) {
		t.Error("tree still running after Kill")
	}
	if alive(gpid) {
		t.Errorf("grandchild %d survived", gpid)
	}
}

func TestCloseEndsTree(t *testing.T) {
	p, gpid := startSpawner(t)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(p.Pid) || alive(gpid) {
		t.Errorf("alive after Close: child %v grandchild %v", alive(p.Pid), alive(gpid))
	}
}

func TestStartRefusesRelativePath(t *testing.T) {
	if _, err := Start(&Attr{Path: "cmd.exe", CommandLine: "cmd.exe"}); err == nil {
		t.Fatal("relative path accepted")
	}
}

func TestStartMissingProgram(t *testing.T) {
	_, err := Start(&Attr{Path: `C:\does\not\exist.exe`, CommandLine: `"C:\does\not\exist.exe"`})
	if err == nil {
		t.Fatal("no error")
	}
}

// TestCPUTimes: a busy process's CPU time is not zero, from the job's
// accounting or (under Wine, which keeps none) the process's own times.
func TestCPUTimes(t *testing.T) {
	out, code, p := run(t, "burn-cpu", nil, "100")
	defer p.Close()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	user, kernel, err := p.CPUTimes()
	if err != nil {
		t.Fatal(err)
	}
	if user < 0 || kernel < 0 || user+kernel == 0 {
		t.Errorf("user %v kernel %v after 100 ms of work", user, kernel)
	}
}
