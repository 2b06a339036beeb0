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

// stagePipe makes the pipe between two stages. Only children use it (and
// built-ins writing from a goroutine), so it is a plain blocking pipe kept
// out of the runtime's poller: no registration, and no mode change when
// it is handed to the children.
func stagePipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
