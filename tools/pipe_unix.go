//go:build !windows

package tools

import (
	"errors"
	"syscall"
)

// isBrokenPipe reports a write whose reader is gone.
func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }

// errIsDir is the error of reading a directory as a file.
var errIsDir error = syscall.EISDIR

// Errors GNU names: rm of a directory without -r, rmdir of a file, and a
// directory that is not empty.
var (
	errIsDirRemove error = syscall.EISDIR
	errNotDir      error = syscall.ENOTDIR
)

func isNotEmpty(err error) bool {
	return errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST)
}
