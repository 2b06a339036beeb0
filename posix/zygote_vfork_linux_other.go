//go:build linux && !amd64

package posix

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// vforkFlags are none here: the child gets a copy of the zygote's memory
// (zygote_vfork_linux_amd64.go shares it, in assembly).
const vforkFlags = 0

// rawVfork clones with args; the child runs s.child.
//
//go:nosplit
//go:norace
func rawVfork(args *cloneArgs, s *forkSpec) (uintptr, uintptr) {
	pid, _, e := syscall.RawSyscall(unix.SYS_CLONE3, uintptr(unsafe.Pointer(args)), unsafe.Sizeof(*args), 0)
	if e == 0 && pid == 0 {
		s.child() // never returns
	}
	return pid, uintptr(e)
}
