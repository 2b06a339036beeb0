//go:build windows

package builtin

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// writeFile writes all of p to f; Windows has no SIGPIPE to avoid.
func writeFile(f *os.File, p []byte) error {
	_, err := f.Write(p)
	return err
}

// isBrokenPipe reports a write whose reader is gone: ERROR_NO_DATA (the
// pipe is being closed) or ERROR_BROKEN_PIPE. A built-in then ends with
// status 141 as on POSIX, so that its status means the same everywhere.
func isBrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, windows.ERROR_NO_DATA) || errors.Is(err, windows.ERROR_BROKEN_PIPE)
}
