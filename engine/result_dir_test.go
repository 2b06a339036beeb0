package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// TestResultDir: Result.Dir is where top-level cd left the chain, whatever
// ended it, and a cd inside a pipeline stage does not move it (bash's
// subshell). Only built-ins run, so the table means the same on every OS.
func TestResultDir(t *testing.T) {
	// Not t.TempDir: Wine cannot remove it ("Invalid function"), which
	// would fail the test for Wine's sake; removal is best effort.
	start, err := os.MkdirTemp("", "chainrun-resultdir-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(start)
	if start, err = filepath.EvalSymlinks(start); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a", filepath.Join("a", "b"), "c"} {
		if err := os.Mkdir(filepath.Join(start, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		cmd  string
		want string // relative to start
	}{
		{"no cd", "echo hi", "."},
		{"one cd", "cd a", "a"},
		{"two cds", "cd a && cd b", filepath.Join("a", "b")},
		{"cd and back", "cd a && cd ..", "."},
		{"failed cd stays", "cd missing; echo x", "."},
		{"cd skipped by &&", "false && cd a", "."},
		{"cd in a pipeline stage does not count", "cd a | echo x", "."},
		{"cd before a failing command", "cd c && false", "c"},
		{"cd before exit", "cd a; exit 3", "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := RunString(context.Background(), tc.cmd, Options{Dir: start, Dialect: chain.POSIX})
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(start, tc.want); res.Dir != want {
				t.Errorf("Dir = %q, want %q", res.Dir, want)
			}
		})
	}
	t.Run("canceled before it starts", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := RunString(ctx, "cd a", Options{Dir: start, Dialect: chain.POSIX})
		if err == nil || res == nil || res.Dir != start {
			t.Errorf("res %+v, err %v: want the start directory and an error", res, err)
		}
	})
}
