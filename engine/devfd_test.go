//go:build unix

package engine

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestDevFdTargets: /dev/fd/N and /proc/self/fd/N name the segment's
// current fd N, as /dev/stdout does, never one of chainrun's own.
func TestDevFdTargets(t *testing.T) {
	for _, tt := range []struct {
		name, cmd, stdout, stderr, file string
		code                            int
	}{
		{"dev fd 1 in a pipeline", "echo a > /dev/fd/1 | sed s/^/X/", "Xa\n", "", "", 0},
		{"proc self fd 1", "echo a > /proc/self/fd/1 | sed s/^/X/", "Xa\n", "", "", 0},
		{"a program's fd 1", "sh -c 'echo a' >/dev/fd/1 | sed s/^/X/", "Xa\n", "", "", 0},
		{"dev fd 0", "echo c | cat < /dev/fd/0", "c\n", "", "", 0},
		{"dev fd 3", "echo a 3>f >/dev/fd/3", "", "", "a\n", 0},
		{"extra slashes", "echo a >//dev//fd/./1 | sed s/^/X/", "Xa\n", "", "", 0},
		{"dev fd 2", "echo a 2>f >/dev/fd/2", "", "", "a\n", 0},
		{"closed fd", "echo a >/dev/fd/5", "", "chainrun: /dev/fd/5: No such file or directory\n", "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := testprog.TempDir(t)
			res := run(t, tt.cmd, Options{Dir: dir})
			b, _ := os.ReadFile(filepath.Join(dir, "f"))
			if string(res.Stdout) != tt.stdout || string(res.Stderr) != tt.stderr || string(b) != tt.file || res.ExitCode != tt.code {
				t.Errorf("stdout %q stderr %q f %q status %d; want %q %q %q %d",
					res.Stdout, res.Stderr, b, res.ExitCode, tt.stdout, tt.stderr, tt.file, tt.code)
			}
		})
	}
	t.Run("fd above 9", func(t *testing.T) {
		dir := testprog.TempDir(t)
		_, err := RunString(t.Context(), "echo a > f; echo b > /dev/fd/12", Options{Dir: dir})
		if !errors.Is(err, chain.ErrUnsupported) && chain.KindOf(err) != chain.KindUnsupported {
			t.Fatalf("err %v, want a refusal", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "f")); err == nil {
			t.Error("the refused chain ran")
		}
	})
}
