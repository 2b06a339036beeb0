//go:build windows

package windows_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestHeredocStdin: a heredoc or here-string is the stdin of a program, of
// a cmd.exe built-in's program and of an engine built-in, through a pipe
// whose writer ends with the run, whether or not anything reads it. The
// bodies are larger than a Windows pipe's buffer.
func TestHeredocStdin(t *testing.T) {
	exe := quoted(testprog.Executable(t))
	prog := func(name string) string { return testprog.EnvVar + "=" + name + " " + exe }
	big := strings.Repeat("0123456789 $x `y` \\z\n", 2500) // 52,500 bytes
	tests := []struct {
		name   string
		cmd    string
		stdout string
		exit   int
	}{
		{"program reads a quoted heredoc", prog("cat-stdin") + " <<'EOF'\na $HOME `id` C:\\x\n\tb\n\nEOF", "a $HOME `id` C:\\x\n\tb\n\n", 0},
		{"tabs stripped", prog("cat-stdin") + " <<-EOF\n\t\tplain\n\tEOF", "plain\n", 0},
		{"here-string", prog("cat-stdin") + " <<< 'hi there'", "hi there\n", 0},
		// A program has only fds 0-2 on Windows: fd 3 is refused as for any
		// redirect, and the body's writer still ends.
		{"fd 3 refused for a program", prog("cat-stdin") + " 3<<'EOF' <&3\nthree\nEOF", "", 126},
		{"fd 3 then <&3 for a built-in", "echo ok 3<<'EOF' <&3\nthree\nEOF", "ok\n", 0},
		{"big body through a pipeline", prog("cat-stdin") + " <<'EOF' | " + prog("cat-stdin") + "\n" + big + "EOF", big, 0},
		{"two heredocs on two segments", prog("cat-stdin") + " <<'A' && " + prog("cat-stdin") + " <<'B'\na\nA\nb\nB", "a\nb\n", 0},
		{"reader stops at the first line", prog("first-line") + " <<'EOF'\n" + big + "EOF", "0123456789 $x `y` \\z\n", 0},
		{"program that never reads", prog("exit-with") + " 3 <<'EOF'\n" + big + "EOF", "", 3},
		{"engine built-in that never reads", "true <<'EOF' && echo ok\n" + big + "EOF", "ok\n", 0},
		// An unquoted delimiter expands the body; a here-string its word.
		{"heredoc expands", "X=C:\\dir; " + prog("cat-stdin") + " <<EOF\n$X $((1+1)) \\$lit\nEOF", "C:\\dir 2 $lit\n", 0},
		{"here-string expands", "X='a  b'; " + prog("cat-stdin") + " <<< \"[$X]\"", "[a  b]\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := runChain(t, tt.cmd, engine.Options{Dialect: chain.Windows, Timeout: 30 * time.Second})
			if res.TimedOut {
				t.Fatalf("timed out after %v: a heredoc's writer or reader hung", time.Since(start))
			}
			if string(res.Stdout) != tt.stdout {
				t.Errorf("stdout %d bytes %.60q, want %d bytes %.60q (stderr %q)", len(res.Stdout), res.Stdout, len(tt.stdout), tt.stdout, res.Stderr)
			}
			if res.ExitCode != tt.exit {
				t.Errorf("exit %d, want %d (stderr %q)", res.ExitCode, tt.exit, res.Stderr)
			}
		})
	}
}

// TestHeredocCmdBuiltinPipe: the body reaches a Windows program that
// reads stdin (find, which cmd.exe-using agents pipe into).
func TestHeredocCmdBuiltinPipe(t *testing.T) {
	res := runChain(t, "find \"needle\" <<'EOF'\nhay\nneedle here\nmore hay\nEOF", engine.Options{Dialect: chain.Windows})
	if res.ExitCode != 0 || !strings.Contains(string(res.Stdout), "needle here") || strings.Contains(string(res.Stdout), "hay") {
		t.Errorf("find: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
}
