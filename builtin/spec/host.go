package spec

import (
	"os"
	"path/filepath"
	"syscall"
)

// StatDir is CdHooks.Stat on this machine's file system: nil when path
// is a directory, syscall.ENOTDIR when it is something else.
func StatDir(path string) error {
	fi, err := os.Stat(path)
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	return err
}

// EvalSymlinks is CdHooks.Resolve on this machine's file system: path
// with its symbolic links resolved, or as it is when that fails.
func EvalSymlinks(path string) string {
	if e, err := filepath.EvalSymlinks(path); err == nil {
		return e
	}
	return path
}
