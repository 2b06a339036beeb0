package testprog

import (
	"os"
	"path/filepath"
	"testing"
)

// NeedSymlinks skips the test unless symbolic links made in dir can be
// followed: Windows makes them only with a privilege or developer mode,
// and Wine makes links its own file functions do not follow. It leaves
// nothing behind in dir.
func NeedSymlinks(tb testing.TB, dir string) {
	tb.Helper()
	target, link := filepath.Join(dir, ".symlink-probe-target"), filepath.Join(dir, ".symlink-probe")
	defer os.Remove(link)
	defer os.Remove(target)
	if err := os.WriteFile(target, []byte("probe"), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(filepath.Base(target), link); err != nil {
		tb.Skipf("no symbolic links here: %v", err)
	}
	if b, err := os.ReadFile(link); err != nil || string(b) != "probe" {
		SkipUnderWine(tb, "os.Symlink reports success and makes no link")
		tb.Skipf("symbolic links made here are not followed (%v)", err)
	}
}
