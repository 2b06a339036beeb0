package winproc

import (
	"os"

	"golang.org/x/sys/windows"
)

// PipeAvailable returns how many bytes wait unread in the pipe f, without
// reading them or blocking, so a reader can count output that has been
// written but not yet read (Windows pipes have no poller to ask). ok is
// false, and n 0, when f is closed or cannot be peeked.
func PipeAvailable(f *os.File) (n int64, ok bool) {
	sc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var avail uint32
	cerr := sc.Control(func(h uintptr) {
		ok = peekNamedPipe(windows.Handle(h), &avail) == nil
	})
	if cerr != nil || !ok {
		return 0, false
	}
	return int64(avail), true
}
