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

// drainPipe reads the capture pipe in the runtime's poller, doing each
// read itself so that the busy flag brackets every byte taken from the
// pipe until it is counted.
func drainPipe(s *sink) {
	rc, err := s.r.SyscallConn()
	if err != nil {
		drainPlain(s)
		return
	}
	bufs := newBuffers()
	defer bufs.release()
	rc.Read(func(fd uintptr) bool {
		for {
			s.busy.Store(true)
			b := bufs.get()
			n, err := unix.Read(int(fd), b)
			if n > 0 {
				s.read.Add(int64(n))
				s.consume(b[:n])
				bufs.filled(n)
				continue
			}
			if err == unix.EINTR {
				continue
			}
			s.busy.Store(false)
			return err != unix.EAGAIN // EOF or an error ends the drain
		}
	})
}
