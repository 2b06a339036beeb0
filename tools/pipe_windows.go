package tools

import (
	"errors"
	"syscall"
)

// isBrokenPipe reports a write whose reader is gone: ERROR_NO_DATA (232,
// the pipe is being closed) or ERROR_BROKEN_PIPE (109). The tool then
// ends with status 141 as on POSIX.
func isBrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.Errno(232)) || errors.Is(err, syscall.ERROR_BROKEN_PIPE)
}

// errIsDir is the error of reading a directory as a file; Describe
// renders it "Is a directory" as on POSIX.
var errIsDir error = syscall.EISDIR

// Errors GNU names: rm of a directory without -r, rmdir of a file, and a
// directory that is not empty (ERROR_DIR_NOT_EMPTY, 145).
var (
	errIsDirRemove error = syscall.EISDIR
	errNotDir      error = syscall.ENOTDIR
)

func isNotEmpty(err error) bool { return errors.Is(err, syscall.Errno(145)) }
