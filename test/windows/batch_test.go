//go:build windows

package windows_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/winproc"
)

// batchVectors are the argument vectors batch files must receive intact,
// without cmd.exe acting on any of their characters: winproc's table,
// which its unit tests check against the command-line rules.
// It is read on first use, not at init: the test binary also runs as a
// helper program from other directories, where the path does not resolve.
var batchVectors = sync.OnceValue(func() [][]string { return loadVectors("../../winproc/testdata/batch-vectors.json") })

func loadVectors(path string) [][]string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var v [][]string
	if err := json.Unmarshal(b, &v); err != nil {
		panic(fmt.Sprintf("%s: %v", path, err))
	}
	return v
}

// The three ways a batch file hands its arguments on.
var batchScripts = map[string]string{
	"S1": `@"%H%" %*`,
	"S2": `@"%H%" %1 %2 %3 %4 %5 %6 %7 %8 %9`,
	"S3": `@"%H%" "%~1" "%~2" "%~3" "%~4" "%~5" "%~6" "%~7" "%~8" "%~9"`,
}

// writeScripts writes the scripts into a fresh directory whose name holds
// a space and an ampersand, as real install paths do.
func writeScripts(t *testing.T) string {
	dir := filepath.Join(testprog.TempDir(t), "bat dir & co")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range batchScripts {
		if err := os.WriteFile(filepath.Join(dir, name+".bat"), []byte(body+"\r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runBatch runs script with args through cmd.exe the way chainrun does, in
// a fresh working directory, and returns the argv the echo helper saw and
// that directory.
func runBatch(t *testing.T, script string, args []string, env ...string) ([]string, string, uint32) {
	t.Helper()
	line, err := winproc.BatchCommandLine(script, args)
	if err != nil {
		t.Fatal(err)
	}
	cwd := testprog.TempDir(t)
	s := start(t, systemCmd(t), line, cwd, testprog.Environ("echo", append([]string{"H=" + testprog.Executable(t)}, env...)...))
	out, code := s.finish(t)
	var got []string
	if out != "" || len(args) > 0 {
		got = strings.Split(out, "\x00")
	}
	return got, cwd, code
}

func assertNoInjection(t *testing.T, cwd string, got []string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(cwd, "file.txt")); err == nil {
		t.Errorf("file.txt was created: cmd.exe ran part of an argument")
	}
	for _, a := range got {
		if strings.Contains(a, "INJECTED") && !strings.Contains(a, "echo INJECTED") {
			t.Errorf("INJECTED in output: %q", got)
		}
	}
}

// Every vector through S1 (%*), S2 (%1…%9) and S3 ("%~1"…): the program
// behind the batch file gets exactly the arguments chainrun was given,
// and cmd.exe runs nothing of them.
func TestBatchVectors(t *testing.T) {
	dir := writeScripts(t)
	for _, sname := range []string{"S1", "S2", "S3"} {
		for i, v := range batchVectors() {
			t.Run(fmt.Sprintf("%s/%d", sname, i), func(t *testing.T) {
				t.Parallel()
				limitUnderWine(t)
				hasPercent := slices.ContainsFunc(v, func(a string) bool { return strings.Contains(a, "%") })
				if hasPercent {
					testprog.SkipUnderWine(t, "Wine's cmd.exe lacks the %cd:~,% substring semantics")
				}
				if sname == "S3" && slices.ContainsFunc(v, func(a string) bool { return strings.Contains(a, `"`) }) {
					testprog.SkipUnderWine(t, `Wine's %~1 strips every quote, not only the outer pair`)
				}
				got, cwd, code := runBatch(t, filepath.Join(dir, sname+".bat"), v)
				assertNoInjection(t, cwd, got)
				if sname != "S1" {
					// %1…%9 that were not given expand to nothing; S3
					// quotes them into trailing empty arguments.
					for len(got) > len(v) && got[len(got)-1] == "" {
						got = got[:len(got)-1]
					}
				}
				if code != 0 || !slices.Equal(got, v) {
					t.Errorf("%s %q: exit %d, program got %q", sname, v, code, got)
				}
			})
		}
	}
}

// %FOO% must stay literal whatever variables with carets exist: the
// caret-escaping others use breaks on these.
func TestBatchPercentWithCaretVariables(t *testing.T) {
	testprog.SkipUnderWine(t, "Wine's cmd.exe lacks the %cd:~,% substring semantics")
	dir := writeScripts(t)
	for _, env := range []string{"FOO=123", "FOO^=123", "^F^O^O^=123"} {
		got, cwd, code := runBatch(t, filepath.Join(dir, "S1.bat"), []string{"%FOO%"}, env)
		assertNoInjection(t, cwd, got)
		if code != 0 || !slices.Equal(got, []string{"%FOO%"}) {
			t.Errorf("with %s: exit %d, got %q", env, code, got)
		}
	}
}

// The control: handing the batch file to CreateProcess directly, with the
// quoting every C runtime understands, lets cmd.exe run part of the
// argument. This proves the file.txt check above can fail.
func TestBatchNaiveLineIsInjectable(t *testing.T) {
	dir := writeScripts(t)
	script := filepath.Join(dir, "S1.bat")
	line, err := winproc.ComposeCommandLine([]string{script, `"&echo INJECTED>file.txt`})
	if err != nil {
		t.Fatal(err)
	}
	cwd := testprog.TempDir(t)
	s := start(t, script, line, cwd, testprog.Environ("echo", "H="+testprog.Executable(t)))
	s.finish(t)
	if _, err := os.Stat(filepath.Join(cwd, "file.txt")); err != nil {
		t.Fatalf("the naive line did not inject (%v): the injection checks prove nothing here", err)
	}
}

// What cannot be passed is refused before anything starts, naming the
// argument.
func TestBatchRefusals(t *testing.T) {
	dir := writeScripts(t)
	for _, args := range [][]string{{"ok", "two\nlines"}, {"cr\r"}, {"nul\x00"}, {strings.Repeat("%", 1100)}} {
		_, err := winproc.BatchCommandLine(filepath.Join(dir, "S1.bat"), args)
		var ae *winproc.ArgError
		if !errors.As(err, &ae) || ae.Index < 1 {
			t.Errorf("%.30q: got %v, want an *ArgError naming the argument", args, err)
		}
	}
}
