//go:build windows

package windows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/tools"
	"golang.org/x/sys/windows"
)

// noPosixEnv is an environment whose Path holds only the Windows system
// directory (and extra): no ls, cat, rm or grep anywhere, as on a machine
// without Git for Windows.
func noPosixEnv(t *testing.T, extra ...string) []string {
	sys, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	path := strings.Join(append([]string{sys}, extra...), ";")
	return []string{"Path=" + path, "PATHEXT=.COM;.EXE;.BAT;.CMD", "SystemRoot=" + os.Getenv("SystemRoot")}
}

// TestBuiltinToolsWithoutPosixTools runs the chains models write on
// Windows with no POSIX tools on Path: the built-in tools run in their
// place and print what GNU's would; Windows' find.exe still runs for its
// own shape of command (find "x").
func TestBuiltinToolsWithoutPosixTools(t *testing.T) {
	dir := testprog.TempDir(t)
	for name, data := range map[string]string{"a.txt": "first\nsecond\nthird\n", "axe.txt": "", "box": "", "nothing": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "build", "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	bin := testprog.TempDir(t)
	goExe := filepath.Join(bin, "go.exe")
	if err := os.WriteFile(goExe, []byte("MZ"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := noPosixEnv(t, bin)
	cases := []struct {
		src, out string
		kinds    []string
	}{
		{`ls | find "x"`, "a.txt\naxe.txt\nbox\n", []string{"tool", "native"}},
		{`rm -rf build && mkdir -p build && cp a.txt build/ && cat build/a.txt | head -n 1`, "first\n",
			[]string{"tool", "tool", "tool", "tool", "tool"}},
		{`cat a.txt | wc -l`, "3\n", []string{"tool", "tool"}},
		{`which go`, goExe + "\n", []string{"tool"}},
		{`find . -maxdepth 1 -name a.txt`, "./a.txt\n", []string{"tool"}},
		{`ls build`, "a.txt\n", []string{"tool"}}, // rm -rf took build/old
		// cmd's own rmdir, for its own /options
		{`rmdir /s /q build`, "", []string{"cmd-builtin"}},
	}
	for _, c := range cases {
		res := runChain(t, c.src, engine.Options{Dir: dir, Env: env})
		out := strings.ReplaceAll(string(res.Stdout), "\r\n", "\n")
		if res.ExitCode != 0 || out != c.out {
			t.Errorf("%s: status %d stdout %q, want 0 %q (stderr %q)", c.src, res.ExitCode, out, c.out, res.Stderr)
		}
		for i, k := range c.kinds {
			if i < len(res.Segments) && res.Segments[i].Kind != k {
				t.Errorf("%s: segment %d ran as %q (%s), want %q", c.src, i, res.Segments[i].Kind, res.Segments[i].Path, k)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "build")); err == nil {
		t.Error("rmdir /s /q build left build")
	}
}

// TestBuiltinToolsNever: with the tools turned off a missing program is
// bash's "command not found".
func TestBuiltinToolsNever(t *testing.T) {
	res := runChain(t, `ls`, engine.Options{Dir: testprog.TempDir(t), Env: noPosixEnv(t), Tools: tools.ModeNever})
	if res.ExitCode != 127 || !strings.Contains(string(res.Stderr), "command not found") {
		t.Errorf("ls with tools never: status %d stderr %q, want 127 command not found", res.ExitCode, res.Stderr)
	}
}

// TestBuiltinToolsRunPrograms: xargs and find -exec start a Windows
// program through the engine (CreateProcess in a job) with the words they
// built.
func TestBuiltinToolsRunPrograms(t *testing.T) {
	dir := testprog.TempDir(t)
	testprog.MakeTree(t, dir, "a.txt")
	env := append(noPosixEnv(t), testprog.EnvVar+"=echo")
	exe := quoted(testprog.Executable(t))
	for _, c := range []struct{ src, out string }{
		{`printf 'x "y z"' | xargs ` + exe, "x\x00y z"},
		{`find . -name a.txt -exec ` + exe + ` {} ';'`, "./a.txt"},
	} {
		res := runChain(t, c.src, engine.Options{Dir: dir, Env: env})
		if res.ExitCode != 0 || string(res.Stdout) != c.out {
			t.Errorf("%s: status %d stdout %q, want 0 %q (stderr %q)", c.src, res.ExitCode, res.Stdout, c.out, res.Stderr)
		}
	}
}
