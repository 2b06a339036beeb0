package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// cd checks the path as written, so a missing directory before .. fails
// as in bash, while the chain's directory stays the logical path. Windows
// itself resolves .. before looking, so there (as in cmd.exe) the same cd
// succeeds.
func TestCdThroughMissingDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		// Not t.TempDir: Wine refuses to remove the directory a test ran
		// in ("Invalid function"), which would fail the test for Wine's sake.
		dir, err := os.MkdirTemp("", "chainrun-cd-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		res, err := RunString(context.Background(), "cd missing/.. && pwd", Options{Dir: dir})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("cd missing/.. on Windows: %v %+v", err, res)
		}
		return
	}
	dir := testprog.TempDir(t)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := RunString(context.Background(), "cd missing/.. || echo failed; cd sub/../sub && pwd", Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := "failed\n" + filepath.Join(dir, "sub") + "\n"
	if string(res.Stdout) != want || res.Segments[0].ExitCode != 1 {
		t.Errorf("stdout %q (cd status %d), want %q and status 1; stderr %q", res.Stdout, res.Segments[0].ExitCode, want, res.Stderr)
	}
}
