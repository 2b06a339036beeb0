//go:build unix

package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestScriptWithoutShebang: a file the kernel will not execute (no #!
// line, or empty) is refused with 126 and a message saying how to run it,
// rather than run by a shell chainrun would start behind the policy.
func TestScriptWithoutShebang(t *testing.T) {
	for _, tt := range []struct{ name, content string }{
		{"no shebang", "echo hi > ran\n"},
		{"empty", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := testprog.TempDir(t)
			if err := os.WriteFile(filepath.Join(dir, "s"), []byte(tt.content), 0o755); err != nil {
				t.Fatal(err)
			}
			res := run(t, "./s", Options{Dir: dir})
			want := "chainrun: ./s: exec format error (a script without a #! line or an empty file; chainrun starts no shell for it: run sh ./s or bash ./s, or give it a #! line)\n"
			if res.ExitCode != 126 || string(res.Stderr) != want {
				t.Errorf("status %d stderr %q; want 126 %q", res.ExitCode, res.Stderr, want)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil || strings.Contains(string(res.Stdout), "hi") {
				t.Error("the script ran")
			}
		})
	}
}
