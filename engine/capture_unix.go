//go:build unix

package engine

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipePending returns how many bytes wait unread in the pipe r.
func pipePending(r *os.File) int64 {
	sc, err := r.SyscallConn()
	if err != nil {
		return 0
	}
	var n int
	sc.Control(func(fd uintptr) {
		n, err = unix.IoctlGetInt(int(fd), fionread)
	})
	if err != nil {
		return 0
	}
	return int64(n)
}
