//go:build unix

package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestBuiltinWriteErrors: a built-in that cannot write says so as bash's
// does ("echo: write error: No space left on device", status 1), and one
// with nothing to write succeeds.
func TestBuiltinWriteErrors(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	const full = "chainrun: %s: write error: No space left on device\n"
	for _, tt := range []struct {
		name, cmd, stderr string
		code              int
	}{
		{"echo", "echo hi > /dev/full", "echo", 1},
		{"echo -n", "echo -n > /dev/full", "", 0},
		{"echo in pipeline", "echo hi > /dev/full | true", "echo", 0},
		{"pwd", "pwd > /dev/full", "pwd", 1},
		{"cd -", "cd / && cd - > /dev/full", "cd", 1},
		{"stderr full too", "echo hi 2>/dev/full >/dev/full", "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := RunString(context.Background(), tt.cmd, Options{Env: []string{"OLDPWD=/", "HOME=/"}})
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.stderr != "" {
				want = sprintf(full, tt.stderr)
			}
			if res.ExitCode != tt.code || string(res.Stderr) != want {
				t.Errorf("status %d stderr %q, want %d %q", res.ExitCode, res.Stderr, tt.code, want)
			}
		})
	}
}

// TestBuiltinBrokenPipe: a built-in writing to a pipe nobody reads ends as
// bash's process would, by SIGPIPE (141): alone, it ends the chain (bash
// dies); as a pipeline stage, only that stage, and the chain goes on.
func TestBuiltinBrokenPipe(t *testing.T) {
	for _, tt := range []struct {
		name, cmd, after string
		code             int
	}{
		{"alone", "echo hi; echo after > %s", "", 141},
		{"pwd alone", "pwd; echo after > %s", "", 141},
		{"stage", "true | echo hi; echo after > %s", "after\n", 0},
		{"exit 141 is no signal", "exit 141 | true; echo after > %s", "after\n", 0},
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
			res, err := RunString(context.Background(), sprintf(tt.cmd, after),
				Options{Stdout: pw, NoCapture: true, Dialect: "posix"})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(after)
			if res.ExitCode != tt.code || string(b) != tt.after {
				t.Errorf("status %d, after %q; want %d %q", res.ExitCode, b, tt.code, tt.after)
			}
			s := res.Segments[0]
			if tt.name == "stage" {
				s = res.Segments[1]
			}
			wantSig := int(syscall.SIGPIPE)
			if tt.name == "exit 141 is no signal" {
				wantSig = 0
			}
			if s.Signal != wantSig || (wantSig != 0 && s.ExitCode != 141) {
				t.Errorf("segment %+v: want status 141 and signal %d", s, wantSig)
			}
		})
	}
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
