//go:build unix

package builtin

import (
	"os"
	"syscall"

	"github.com/chainrun/chainrun/posix"
	"golang.org/x/sys/unix"
)

// fileAccess applies -r, -w, -x (access(2), as bash asks the kernel) and
// -O, -G, -N to path.
func fileAccess(op byte, path string, fi os.FileInfo) bool {
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch op {
	case 'r':
		return unix.Access(path, unix.R_OK) == nil
	case 'w':
		return unix.Access(path, unix.W_OK) == nil
	case 'x':
		return unix.Access(path, unix.X_OK) == nil
	case 'O':
		return st != nil && int(st.Uid) == os.Geteuid()
	case 'G':
		return st != nil && int(st.Gid) == os.Getegid()
	case 'N':
		return st != nil && fi.ModTime().After(atime(st))
	}
	return false
}

// isTerminal reports whether f is a terminal (-t).
func isTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	rc.Control(func(fd uintptr) { tty = posix.IsTerminal(int(fd)) })
	return tty
}
