package engine

import (
	"os"

	"golang.org/x/sys/unix"
)

const fionread = unix.TIOCINQ // FIONREAD

// growPipe enlarges a capture pipe so a fast writer and our drain wake
// each other less often.
func growPipe(w *os.File) {
	if sc, err := w.SyscallConn(); err == nil {
		sc.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20) })
	}
}
