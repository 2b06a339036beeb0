package testprog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	// The test binary is "testprog.test": a rule that dropped any
	// extension from argv0 would run this program instead of the tests
	// and fail loudly.
	Register("testprog", func([]string) int {
		fmt.Fprintln(os.Stderr, "the test binary ran as the program testprog")
		return 1
	})
	Register("call-bindir", func([]string) int {
		defer func() { fmt.Print(recover()) }()
		BinDir()
		return 0
	})
	Main(m)
}

// result runs cmd and returns its stdout, stderr and exit code.
func result(t *testing.T, cmd *exec.Cmd, stdin string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

func TestPrograms(t *testing.T) {
	dir := TempDir(t)
	for _, tc := range []struct {
		name     string
		args     []string
		stdin    string
		out, err string
		code     int
	}{
		{name: "show-argv", args: []string{"a b", "", `c"d`}, out: "[a b]\n[]\n[c\"d]\n"},
		{name: "echo-argv", args: []string{"x", "y z"}, out: "x\ny z\n"},
		{name: "print-env", args: []string{"TESTPROG_B", "TESTPROG_A"}, out: "TESTPROG_A=1\nTESTPROG_B unset\n"},
		{name: "cat-stdin", stdin: "abc\ndef", out: "abc\ndef"},
		{name: "first-line", stdin: "one\ntwo\n", out: "one\n"},
		{name: "to-stderr", args: []string{"a", "b"}, err: "a b\n"},
		{name: "lines", args: []string{"3"}, out: "1\n2\n3\n"},
		{name: "lines", err: "usage: lines N\n", code: 2},
		{name: "show-dir", out: filepath.Base(dir) + "\n"},
		{name: "exit-with", args: []string{"3"}, code: 3},
		{name: "exit-with"},
		{name: "exit-with", args: []string{"x"}, err: "strconv.ParseInt: parsing \"x\": invalid syntax\n", code: 100},
	} {
		t.Run(fmt.Sprint(tc.name, tc.args), func(t *testing.T) {
			cmd := Command(tc.name, tc.args...)
			cmd.Env = append(cmd.Env, "TESTPROG_A=1")
			cmd.Dir = dir
			out, errs, code := result(t, cmd, tc.stdin)
			if out != tc.out || errs != tc.err || code != tc.code {
				t.Errorf("stdout %q, stderr %q, exit %d; want %q, %q, %d", out, errs, code, tc.out, tc.err, tc.code)
			}
		})
	}
}

// On Windows exit-with passes the whole 32-bit code.
func TestExitWithWideCode(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("exit codes are 8 bits here")
	}
	const want = 0xC0000005
	if _, _, code := result(t, Command("exit-with", strconv.Itoa(want)), ""); uint32(code) != want {
		t.Errorf("exit code %#x, want %#x", uint32(code), uint32(want))
	}
}

// A program's environment no longer names it, so the children it starts
// through links are not taken for copies of itself.
func TestSelectorNotInherited(t *testing.T) {
	out, _, _ := result(t, Command("dump-env"), "")
	env := strings.Split(out, "\x00")
	if len(env) < 2 {
		t.Fatalf("environment %q", out)
	}
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); sameKey(k, EnvVar) {
			t.Errorf("the program's environment has %q", kv)
		}
	}
}

// Environ replaces a selector already in the environment.
func TestEnvironReplaces(t *testing.T) {
	t.Setenv(EnvVar, "hang")
	var got []string
	for _, kv := range Environ("show-argv", "X=1") {
		if k, _, _ := strings.Cut(kv, "="); sameKey(k, EnvVar) || k == "X" {
			got = append(got, kv)
		}
	}
	if want := []string{EnvVar + "=show-argv", "X=1"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Started through its link in BinDir, the binary runs the program the
// link is named after; EnvVar, when set, wins.
func TestLinkedName(t *testing.T) {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !sameKey(k, EnvVar) {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(Path("echo-argv"), "a", "b")
	cmd.Env = env
	if out, errs, code := result(t, cmd, ""); out != "a\nb\n" || code != 0 {
		t.Errorf("through the link: stdout %q, stderr %q, exit %d", out, errs, code)
	}
	cmd = exec.Command(Path("echo-argv"), "a")
	cmd.Env = Environ("show-argv")
	if out, _, _ := result(t, cmd, ""); out != "[a]\n" {
		t.Errorf("link and %s: stdout %q, want show-argv's", EnvVar, out)
	}
	dir := BinDir()
	if filepath.Dir(Path("hang")) != dir {
		t.Errorf("Path outside BinDir %s", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != len(programs) {
		t.Errorf("BinDir holds %d entries (%v), want one for each of %d programs", len(entries), err, len(programs))
	}
}

func TestUnknownSelector(t *testing.T) {
	cmd := exec.Command(Executable(t))
	cmd.Env = append(os.Environ(), EnvVar+"=no-such-program")
	if _, errs, code := result(t, cmd, ""); code != 2 || !strings.Contains(errs, "no-such-program") {
		t.Errorf("stderr %q, exit %d; want 2 and the name", errs, code)
	}
}

func TestBinDirRefusedInProgram(t *testing.T) {
	out, _, _ := result(t, Command("call-bindir"), "")
	if !strings.Contains(out, `BinDir called from the program "call-bindir"`) {
		t.Errorf("stdout %q, want the panic", out)
	}
}

// spawn prints its own pid and its child's; both are killed here.
func TestSpawn(t *testing.T) {
	cmd := Command("spawn")
	r, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(r).ReadString('\n')
	var pid, child int
	if _, err := fmt.Sscan(line, &pid, &child); err != nil || pid != cmd.Process.Pid || child == 0 {
		t.Fatalf("spawn printed %q, started as %d", line, cmd.Process.Pid)
	}
	if p, err := os.FindProcess(child); err == nil {
		p.Kill()
		p.Release()
	}
}

// hang records its pid in the file it is given.
func TestHangRecordsPid(t *testing.T) {
	file := filepath.Join(TempDir(t), "pids")
	cmd := Command("hang", file)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	want := strconv.Itoa(cmd.Process.Pid) + "\n"
	var got string
	for range 500 {
		if b, _ := os.ReadFile(file); len(b) > 0 {
			got = string(b)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got != want {
		t.Errorf("pid file %q, want %q", got, want)
	}
}

func TestRegisterRefuses(t *testing.T) {
	for _, name := range []string{"", "a/b", `a\b`, "x=y", "..", "HANG"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) accepted", name)
				}
			}()
			Register(name, func([]string) int { return 0 })
		}()
	}
}

func TestCommandsCoverRegistry(t *testing.T) {
	cmds := Commands()
	for name := range programs {
		if cmds[name] == nil {
			t.Errorf("Commands lacks %s", name)
		}
	}
	if len(cmds) != len(programs) {
		t.Errorf("%d commands for %d programs", len(cmds), len(programs))
	}
}
