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

// stagePipeSize is the capacity of a pipe between two stages, four times
// Linux's default: the writer and the reader of a pipeline wake each other
// a quarter as often, which made seq 1 300000 | grep 7 | wc -l 5-10 %
// faster (bench/libbench). It changes no program's view of the pipe;
// the kernel allocates the pages only as data waits in it, and where the
// user is over the pipe-buffer limit the fcntl fails and the pipe keeps
// the default.
const stagePipeSize = 256 << 10

// stagePipe makes the pipe between two stages. Only children use it (and
// built-ins writing from a goroutine), so it is a plain blocking pipe kept
// out of the runtime's poller: no registration, and no mode change when
// it is handed to the children.
func stagePipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	unix.FcntlInt(uintptr(p[1]), unix.F_SETPIPE_SZ, stagePipeSize)
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
