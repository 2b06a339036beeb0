//go:build unix

package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestHeredocs runs heredocs and here-strings into programs and built-ins;
// every expected output is bash's.
func TestHeredocs(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 3500) // 59,500 bytes
	tests := []struct {
		name   string
		cmd    string
		stdout string
		exit   int
	}{
		{"quoted body literal", "cat <<'EOF'\na $x `id` \\n\n\tb\n\nEOF", "a $x `id` \\n\n\tb\n\n", 0},
		{"unquoted body", "cat <<EOF\nplain 'text'\nEOF", "plain 'text'\n", 0},
		{"tabs stripped", "cat <<-EOF\n\t\ta\n\t b\n\tEOF", "a\n b\n", 0},
		{"empty body", "cat <<'EOF'\nEOF\necho after", "after\n", 0},
		{"here-string", "cat <<< 'hi there'", "hi there\n", 0},
		{"here-string last wins", "cat <<< a <<< b", "b\n", 0},
		{"fd 3", "sh -c 'cat <&3' 3<<'EOF'\nthree\nEOF", "three\n", 0},
		{"two heredocs", "sh -c 'cat; cat <&3' <<'A' 3<<'B'\na\nA\nb\nB", "a\nb\n", 0},
		{"pipeline and && on the delimiter line", "cat <<'A' | tr a-z A-Z && cat <<'B'\nx\nA\ny\nB", "X\ny\n", 0},
		{"heredoc mid-pipeline", "echo no | cat <<'EOF' | cat\nyes\nEOF", "yes\n", 0},
		{"big body counted", "wc -c <<'EOF'\n" + big + "EOF", strconv.Itoa(len(big)) + "\n", 0},
		{"reader stops early", "head -c 3 <<'EOF'\n" + big + "EOF", "012", 0},
		{"unread by a program", "sh -c 'exit 4' <<'EOF'\n" + big + "EOF", "", 4},
		{"unread by a built-in", "true <<'EOF' && echo ok\n" + big + "EOF", "ok\n", 0},
		{"built-in in a pipeline", "echo x <<< y | cat", "x\n", 0},
		{"built-in stdout on a heredoc fails", "echo hi 1<<<x", "", 1},
		{"not found: message lost on a heredoc fd 2", "nosuch-xyz 2<<<x", "", 127},
		{"cat <&0 of a heredoc", "cat <&0 <<'EOF'\nz\nEOF", "z\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, tt.cmd, Options{})
			if string(res.Stdout) != tt.stdout {
				t.Errorf("stdout %q, want %q (stderr %q)", res.Stdout, tt.stdout, res.Stderr)
			}
			if res.ExitCode != tt.exit {
				t.Errorf("exit %d, want %d (stderr %q)", res.ExitCode, tt.exit, res.Stderr)
			}
		})
	}
}

// TestHeredocWritesFile is the agents' commonest form: a file written
// byte-exactly from a quoted heredoc, and nothing else left behind.
func TestHeredocWritesFile(t *testing.T) {
	dir := testprog.TempDir(t)
	body := "def f():\n\treturn \"$HOME\" + `x` + '\\n'\n\n"
	res := run(t, "cat > f.py <<'EOF'\n"+body+"EOF", Options{Dir: dir})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "f.py"))
	if err != nil || string(got) != body {
		t.Fatalf("f.py = %q (%v), want %q", got, err, body)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("the directory holds %d entries, want only f.py", len(ents))
	}
}
