//go:build unix

package builtin

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// writeFile writes all of p to f through its raw descriptor. os.File.Write
// would raise SIGPIPE and end this process when f is its own stdout or
// stderr and the reader is gone; a built-in must fail as bash's would
// instead, and the chain go on to be waited for and stopped.
func writeFile(f *os.File, p []byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for len(p) > 0 {
			n, e := unix.Write(int(fd), p)
			switch {
			case e == unix.EINTR:
				continue
			case e == unix.EAGAIN:
				return false // the poller waits until it can write
			case e != nil:
				werr = os.NewSyscallError("write", e)
				return true
			}
			p = p[n:]
		}
		return true
	})
	if werr != nil {
		return werr
	}
	return err
}

// isBrokenPipe reports a write whose reader is gone.
func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
