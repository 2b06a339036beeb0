package engine

import (
	"os"

	"golang.org/x/sys/windows"
)

// pipePending returns how many bytes wait unread in the pipe r.
func pipePending(r *os.File) int64 {
	var avail uint32
	if err := windows.PeekNamedPipe(windows.Handle(r.Fd()), nil, 0, nil, &avail, nil); err != nil {
		return 0
	}
	return int64(avail)
}

func growPipe(w *os.File) {}
