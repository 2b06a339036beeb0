package engine

import (
	"os"

	"github.com/chainrun/chainrun/winproc"
)

// pipePending returns how many bytes wait unread in the pipe r; 0 when it
// cannot be peeked.
func pipePending(r *os.File) int64 {
	n, _ := winproc.PipeAvailable(r)
	return n
}

func growPipe(w *os.File) {}

// drainPipe reads the capture pipe with blocking reads: Windows pipes have
// no poller, so byte counts per pipeline may miss a read in progress.
func drainPipe(s *sink) { drainPlain(s) }

// stagePipe makes the pipe between two stages.
func stagePipe() (r, w *os.File, err error) { return os.Pipe() }
