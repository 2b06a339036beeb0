package testprog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TempDir is t.TempDir with a removal that works under Wine too, where
// os.RemoveAll's handle-relative deletion fails ("Invalid function") and
// t.TempDir's cleanup would fail a passing test: whatever RemoveAll
// leaves is removed path by path, deepest first.
func TempDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "chainrun-test-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { removeTree(dir) })
	return dir
}

// removeTree removes dir and everything below it, path by path where
// os.RemoveAll fails.
func removeTree(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	var paths []string
	filepath.WalkDir(dir, func(p string, _ os.DirEntry, _ error) error {
		paths = append(paths, p)
		return nil
	})
	for _, p := range slices.Backward(paths) {
		os.Remove(p)
	}
}

// MakeTree creates each name below dir, empty: a name ending in "/" is a
// directory; "/" separates the levels on every OS.
func MakeTree(tb testing.TB, dir string, names ...string) {
	tb.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		var err error
		if n != "" && n[len(n)-1] == '/' {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}
