package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestShellState runs set's options and the built-ins that say what a
// name is with bash's outcomes, on every OS (the differential suite
// compares the same with bash on POSIX). The POSIX dialect: in the
// Windows one, type is cmd.exe's (it prints files).
func TestShellState(t *testing.T) {
	for _, tt := range []struct {
		src, stdout, stderr string
		code                int
	}{
		{"set -e; false; echo after", "", "", 1},
		{"set -e; false && true; echo after $?", "after 1\n", "", 0},
		{"set -e; false || false; echo after", "", "", 1},
		{"set -e; set +e; false; echo after", "after\n", "", 0},
		{"set -e | true; false; echo after", "after\n", "", 0},
		{"set -o pipefail; false | true; echo $?; set +o pipefail; false | true; echo $?", "1\n0\n", "", 0},
		{"set -u; echo ${X:-d}; echo $X; echo after", "d\n", "X: unbound variable", 127},
		{"set -eu; echo $X", "", "X: unbound variable", 1},
		{"set -u; echo $X | true; echo after $?", "after 0\n", "X: unbound variable", 0},
		{"set -q; echo $?", "2\n", "set: -q: invalid option", 0},
		{"command echo hi; command -- printf %s x", "hi\nx", "", 0},
		{"command -v echo cd if nosuch-xyz; echo $?", "echo\ncd\nif\n0\n", "", 0},
		{"command -v nosuch-xyz; echo $?", "1\n", "", 0},
		{"command -V echo nosuch-xyz", "echo is a shell builtin\n", "command: nosuch-xyz: not found", 0},
		{"type echo if nosuch-xyz", "echo is a shell builtin\nif is a shell keyword\n", "type: nosuch-xyz: not found", 1},
		{"type -t echo [[ set", "builtin\nkeyword\nbuiltin\n", "", 0},
		{"X='-v echo'; command $X", "echo\n", "", 0},
	} {
		res, err := RunString(context.Background(), tt.src, Options{Dir: testprog.TempDir(t), Dialect: chain.POSIX})
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if string(res.Stdout) != tt.stdout || res.ExitCode != tt.code || !strings.Contains(string(res.Stderr), tt.stderr) {
			t.Errorf("%s: stdout %q stderr %q status %d; want %q, %q, %d", tt.src, res.Stdout, res.Stderr, res.ExitCode, tt.stdout, tt.stderr, tt.code)
		}
	}
}
