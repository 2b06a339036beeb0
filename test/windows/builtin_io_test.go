//go:build windows

package windows_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestBuiltinBrokenPipe: a built-in writing to a pipe nobody reads ends
// with 141, as on POSIX: alone it ends the chain, as a stage only itself.
func TestBuiltinBrokenPipe(t *testing.T) {
	for _, tt := range []struct {
		name, cmd, after string
		code             int
	}{
		{"alone", "echo hi; echo after > %s", "", 141},
		{"stage", "true | echo hi; echo after > %s", "after\n", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := testprog.TempDir(t)
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			pr.Close()
			defer pw.Close()
			after := filepath.Join(dir, "after")
			res := runChain(t, strings.Replace(tt.cmd, "%s", quoted(after), 1),
				engine.Options{Stdout: pw, NoCapture: true, Dialect: chain.POSIX})
			b, _ := os.ReadFile(after)
			if res.ExitCode != tt.code || string(b) != tt.after {
				t.Errorf("status %d, after %q; want %d %q", res.ExitCode, b, tt.code, tt.after)
			}
		})
	}
}

// TestBuiltinWriteError: a built-in that cannot write says so, status 1.
func TestBuiltinWriteError(t *testing.T) {
	dir := testprog.TempDir(t)
	ro := filepath.Join(dir, "ro")
	if err := os.WriteFile(ro, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(ro) // read-only: every write fails
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stderr strings.Builder
	res := runChain(t, "echo hi; printf x", engine.Options{Stdout: f, Stderr: &stderr, NoCapture: true})
	if res.ExitCode != 1 || !strings.HasPrefix(stderr.String(), "chainrun: echo: write error: ") ||
		!strings.Contains(stderr.String(), "chainrun: printf: write error: ") {
		t.Errorf("status %d stderr %q", res.ExitCode, stderr.String())
	}
}

// TestDevFdTargets: /dev/fd/N is the segment's fd N on Windows too.
func TestDevFdTargets(t *testing.T) {
	dir := testprog.TempDir(t)
	res := runChain(t, "echo a 3>f >/dev/fd/3; echo b >/dev/fd/2; echo c >/proc/self/fd/1", engine.Options{Dir: dir, Dialect: chain.POSIX})
	b, _ := os.ReadFile(filepath.Join(dir, "f"))
	if string(b) != "a\n" || string(res.Stderr) != "b\n" || string(res.Stdout) != "c\n" {
		t.Errorf("f %q stderr %q stdout %q", b, res.Stderr, res.Stdout)
	}
	_, err := engine.RunString(t.Context(), "echo a >/dev/fd/12", engine.Options{Dir: dir})
	if !errors.Is(err, chain.ErrUnsupported) && chain.KindOf(err) != chain.KindUnsupported {
		t.Errorf("/dev/fd/12: %v, want a refusal", err)
	}
}

// TestPrintfAndTest: printf and test/[ are engine built-ins, so they work
// on Windows, where neither program exists, also as pipeline stages.
func TestPrintfAndTest(t *testing.T) {
	dir := testprog.TempDir(t)
	if err := os.WriteFile(filepath.Join(dir, "x.txt"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, cmd, stdout string }{
		{"printf", `printf '%s-%05.1f|%q|%x\n' a 2.25 'a b' 255`, "a-002.2|a\\ b|ff\n"},
		{"printf reuses", `printf '<%s>' a b | printf '%b\n' 'x\ty'`, "x\ty\n"},
		{"test files", `[ -f x.txt ] && test -s x.txt && [ ! -d x.txt ] && echo yes`, "yes\n"},
		{"test -v", `V=1 test -v V && [ -v NOPE_XYZ ] || echo unset`, "unset\n"},
		{"test strings", `[ a \< b ] && test 3 -lt 5 && echo ok | [ -n y ] && echo piped`, "piped\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := runChain(t, tt.cmd, engine.Options{Dir: dir, Dialect: chain.POSIX})
			if string(res.Stdout) != tt.stdout || res.ExitCode != 0 {
				t.Errorf("stdout %q status %d stderr %q; want %q", res.Stdout, res.ExitCode, res.Stderr, tt.stdout)
			}
		})
	}
}
