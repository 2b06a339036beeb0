//go:build windows

package windows_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/report"
	"github.com/chainrun/chainrun/winproc"
)

// quoted renders a path as one word of the command line.
func quoted(p string) string { return "'" + p + "'" }

func runChain(t *testing.T, src string, opts engine.Options) *engine.Result {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = time.Minute
	}
	res, err := engine.RunString(context.Background(), src, opts)
	if err != nil && !errors.Is(err, chain.ErrTimeout) {
		t.Fatalf("%s: %v", src, err)
	}
	if res == nil {
		t.Fatalf("%s: no result", src)
	}
	return res
}

// A timeout ends the whole tree: the program and the grandchild it
// started, which no pipe or group ties to chainrun.
func TestTimeoutKillsChildAndGrandchild(t *testing.T) {
	res := runChain(t, quoted(testprog.Executable(t)), engine.Options{
		Env: testprog.Environ("spawn"), Timeout: 3 * time.Second, Grace: 200 * time.Millisecond,
	})
	var pid, gpid int
	if _, err := fmt.Sscan(string(res.Stdout), &pid, &gpid); err != nil {
		t.Fatalf("no pids in %q: %v", res.Stdout, err)
	}
	if !res.TimedOut || res.ExitCode != 124 {
		t.Errorf("TimedOut %v, ExitCode %d; want true, 124", res.TimedOut, res.ExitCode)
	}
	if alive(pid) || alive(gpid) {
		t.Errorf("after Run: child %d alive %v, grandchild %d alive %v", pid, alive(pid), gpid, alive(gpid))
	}
}

// A batch-file shim found through PATH and PATHEXT (npm, npx are
// exactly this) runs through cmd.exe with ordinary arguments intact.
func TestPathextFindsCmdShim(t *testing.T) {
	bin := testprog.TempDir(t)
	shim := "@echo off\r\n\"%H%\" %*\r\n"
	if err := os.WriteFile(filepath.Join(bin, "npm.cmd"), []byte(shim), 0o644); err != nil {
		t.Fatal(err)
	}
	env := testprog.Environ("echo", "H="+testprog.Executable(t), "Path="+bin+";"+os.Getenv("PATH"), "PATHEXT=.COM;.EXE;.BAT;.CMD")
	args := []string{"install", "left pad", "--save-dev", `key="a b"`, "x&y"}
	res := runChain(t, `npm install 'left pad' --save-dev 'key="a b"' 'x&y'`, engine.Options{Env: env, Dir: testprog.TempDir(t)})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	seg := res.Segments[0]
	if seg.Kind != "batch" || !strings.EqualFold(filepath.Base(seg.Path), "npm.cmd") {
		t.Errorf("resolved %s %q, want batch npm.cmd", seg.Kind, seg.Path)
	}
	if got := strings.Split(string(res.Stdout), "\x00"); !slices.Equal(got, args) {
		t.Errorf("the shim's program got %q, want %q", got, args)
	}
}

// A chain with an argument cmd.exe cannot carry is refused as a whole
// before anything starts: the error names the segment and the argument,
// and no segment of it runs, not even the ones before.
func TestBatchArgumentRefused(t *testing.T) {
	dir := testprog.TempDir(t)
	os.WriteFile(filepath.Join(dir, "t.bat"), []byte("@echo RAN>ran.txt\r\n"), 0o644)
	res, err := engine.RunString(context.Background(), "echo first > first.txt && .\\t.bat 'two\nlines'", engine.Options{Dir: dir})
	var se *engine.SegmentError
	if res != nil || !errors.As(err, &se) || se.Segment != 1 || chain.KindOf(err) != chain.KindUnsupported ||
		!strings.Contains(err.Error(), "argument 1") {
		t.Fatalf("got result %v, error %v; want an unsupported refusal of segment 2 naming argument 1", res, err)
	}
	for _, f := range []string{"first.txt", "ran.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists: part of a refused chain ran", f)
		}
	}
	if err := winproc.CheckBatchArgs(filepath.Join(dir, "t.bat"), []string{"two\nlines"}); err == nil {
		t.Error("CheckBatchArgs accepted what Run refused")
	}
}

// A cmd.exe built-in that makes no sense in one segment is refused before
// anything runs.
func TestRefusedCmdBuiltin(t *testing.T) {
	dir := testprog.TempDir(t)
	_, err := engine.RunString(context.Background(), "echo x > first.txt && pushd C:\\\\", engine.Options{Dir: dir})
	if chain.KindOf(err) != chain.KindUnsupported || !strings.Contains(err.Error(), "pushd") {
		t.Fatalf("error %v; want pushd refused", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "first.txt")); err == nil {
		t.Error("first.txt exists: part of a refused chain ran")
	}
}

// decoded is the captured stdout as the JSON report gives it: decoded to
// UTF-8 on Windows.
func decoded(t *testing.T, res *engine.Result) (text, encoding string) {
	t.Helper()
	r := report.FromResult(res, nil)
	return r.Stdout, r.StdoutEncoding
}

// cmd.exe built-ins take part in pipelines like any program.
func TestCmdBuiltinInPipeline(t *testing.T) {
	dir := testprog.TempDir(t)
	body := "{\r\n  \"name\": \"x\",\r\n  \"verify\": \"café ✓\",\r\n  \"other\": 1\r\n}\r\n"
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(body), 0o644)

	// type's output reaches the next program as the file's own bytes.
	res := runChain(t, "type package.json | "+testprog.EnvVar+"=first-line "+quoted(testprog.Executable(t)), engine.Options{Dir: dir})
	if res.ExitCode != 0 || string(res.Stdout) != "{\r\n" {
		t.Errorf("type | head: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if k := res.Segments[0].Kind; k != "cmd-builtin" {
		t.Errorf("type ran as %q", k)
	}
	res = runChain(t, `type package.json | find "verify"`, engine.Options{Dir: dir})
	if res.ExitCode != 0 || strings.TrimSpace(string(res.Stdout)) != `"verify": "café ✓",` {
		t.Errorf("type | find: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}

	// Captured directly, a built-in's listing (cmd /u) comes back as text
	// whatever the code page, between other programs' output.
	os.WriteFile(filepath.Join(dir, "日本語 ✓.txt"), nil, 0o644)
	res = runChain(t, "dir /b; "+testprog.EnvVar+"=lines "+quoted(testprog.Executable(t))+" 2", engine.Options{Dir: dir})
	text, enc := decoded(t, res)
	if res.ExitCode != 0 || !strings.Contains(text, "日本語 ✓.txt\r\n") || !strings.Contains(text, "package.json\r\n") ||
		!strings.HasSuffix(text, "\r\n1\n2\n") {
		t.Errorf("dir /b: exit %d, %q (%s)", res.ExitCode, text, enc)
	}
	t.Logf("encoding %s", enc)
}

// The headline: findstr, a real program, reading a built-in's output.
func TestTypeFindstr(t *testing.T) {
	testprog.SkipUnderWine(t, "Wine's findstr is a stub that prints nothing")
	dir := testprog.TempDir(t)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte("{\r\n  \"verify\": true\r\n}\r\n"), 0o644)
	res := runChain(t, "type package.json | findstr verify", engine.Options{Dir: dir})
	if res.ExitCode != 0 || strings.TrimSpace(string(res.Stdout)) != `"verify": true` {
		t.Errorf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// Redirects to the null device create no file, under any spelling.
func TestNullDevice(t *testing.T) {
	dir := testprog.TempDir(t)
	h := quoted(testprog.Executable(t)) + " 3"
	for _, src := range []string{h + " 2>nul", h + " >NUL", h + " >/dev/null 2>&1", h + " 2>NUL.txt"} {
		res := runChain(t, src, engine.Options{Dir: dir, Env: testprog.Environ("lines")})
		if res.ExitCode != 0 {
			t.Errorf("%s: exit %d %s", src, res.ExitCode, res.Stderr)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			t.Errorf("%s created %q", src, e.Name())
		}
	}
}

// In the Windows dialect backslashes in paths stay literal and reach the
// program intact.
func TestWindowsDialectBackslashes(t *testing.T) {
	c, err := chain.ParseDialect(`prog C:\Windows\System32 \\server\share\dir .\rel\x 'C:\Program Files\' a\b\\c`, chain.Windows)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`C:\Windows\System32`, `\\server\share\dir`, `.\rel\x`, `C:\Program Files\`, `a\b\\c`}
	if got := c.Segments()[0].Args[1:]; !slices.Equal(got, want) {
		t.Fatalf("parsed %q, want %q", got, want)
	}
	res := runChain(t, quoted(testprog.Executable(t))+` C:\Windows\System32 \\server\share\dir .\rel\x 'C:\Program Files\' a\b\\c`,
		engine.Options{Env: testprog.Environ("echo")})
	if got := strings.Split(string(res.Stdout), "\x00"); !slices.Equal(got, want) {
		t.Errorf("program got %q, want %q", got, want)
	}
}

// Exit codes are unsigned 32-bit: the raw code is reported, the status is
// bash's 0-255 view.
func TestExitCodes(t *testing.T) {
	for raw, status := range map[uint32]int{0: 0, 3: 3, 300: 255, 0xC0000005: 255, 0xC000013A: 130} {
		res := runChain(t, fmt.Sprintf("%s %d", quoted(testprog.Executable(t)), raw), engine.Options{Env: testprog.Environ("exit-with")})
		seg := res.Segments[0]
		if seg.RawExitCode != raw || seg.ExitCode != status || res.ExitCode != status {
			t.Errorf("exit %#x: raw %#x, segment %d, chain %d; want status %d", raw, seg.RawExitCode, seg.ExitCode, res.ExitCode, status)
		}
	}
}

// There is no SIGPIPE on Windows: an upstream stage that never notices its
// reader is gone is terminated once the downstream stage has exited and
// the grace period passed.
func TestUpstreamTerminatedAfterDownstreamExit(t *testing.T) {
	h := quoted(testprog.Executable(t))
	res := runChain(t, testprog.EnvVar+"=spawn "+h+" | "+testprog.EnvVar+"=first-line "+h,
		engine.Options{Grace: 300 * time.Millisecond, Timeout: 30 * time.Second})
	if res.TimedOut {
		t.Fatalf("the chain ran into its timeout: the upstream stage was never terminated")
	}
	var pid, gpid int
	fmt.Sscan(string(res.Stdout), &pid, &gpid)
	if pid == 0 || alive(pid) || alive(gpid) {
		t.Errorf("upstream %d alive %v, its child %d alive %v (stdout %q)", pid, alive(pid), gpid, alive(gpid), res.Stdout)
	}
}

// singleQuoted renders an argument as one word: single quotes keep every
// character; a single quote inside is closed, escaped and reopened.
func singleQuoted(a string) string { return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'" }

// The batch vectors once more, end to end: parsed by chainrun, resolved
// as a batch file, quoted and spawned by the engine.
func TestBatchVectorsThroughRun(t *testing.T) {
	dir := writeScripts(t)
	for _, sname := range []string{"S1", "S2"} {
		for i, v := range batchVectors() {
			t.Run(fmt.Sprintf("%s/%d", sname, i), func(t *testing.T) {
				t.Parallel()
				limitUnderWine(t)
				if slices.ContainsFunc(v, func(a string) bool { return strings.Contains(a, "%") }) {
					testprog.SkipUnderWine(t, "Wine's cmd.exe lacks the %cd:~,% substring semantics")
				}
				src := singleQuoted(filepath.Join(dir, sname+".bat"))
				for _, a := range v {
					src += " " + singleQuoted(a)
				}
				cwd := testprog.TempDir(t)
				res := runChain(t, src, engine.Options{Dir: cwd, Env: testprog.Environ("echo", "H="+testprog.Executable(t))})
				got := strings.Split(string(res.Stdout), "\x00")
				assertNoInjection(t, cwd, got)
				for sname == "S2" && len(got) > len(v) && got[len(got)-1] == "" {
					got = got[:len(got)-1]
				}
				if res.ExitCode != 0 || res.Segments[0].Kind != "batch" || !slices.Equal(got, v) {
					t.Errorf("%s %q: exit %d (%s), program got %q, stderr %q", sname, v, res.ExitCode, res.Segments[0].Kind, got, res.Stderr)
				}
			})
		}
	}
}
