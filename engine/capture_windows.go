package engine

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

var procPeekNamedPipe = windows.NewLazySystemDLL("kernel32.dll").NewProc("PeekNamedPipe")

// pipePending returns how many bytes wait unread in the pipe r.
func pipePending(r *os.File) int64 {
	sc, err := r.SyscallConn()
	if err != nil {
		return 0
	}
	var avail uint32
	sc.Control(func(h uintptr) {
		ok, _, _ := procPeekNamedPipe.Call(h, 0, 0, 0, uintptr(unsafe.Pointer(&avail)), 0)
		if ok == 0 {
			avail = 0
		}
	})
	return int64(avail)
}

func growPipe(w *os.File) {}

// drainPipe reads the capture pipe with blocking reads: Windows pipes have
// no poller, so byte counts per pipeline may miss a read in progress.
func drainPipe(s *sink) { drainPlain(s) }

// stagePipe makes the pipe between two stages.
func stagePipe() (r, w *os.File, err error) { return os.Pipe() }
