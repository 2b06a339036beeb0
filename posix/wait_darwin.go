package posix

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// requestPidfd does nothing: there are no pidfds here.
func requestPidfd(*syscall.SysProcAttr) {}

func pidfdOf(*syscall.SysProcAttr) int { return -1 }

// waitExited blocks until pid has exited, leaving it a zombie.
func waitExited(pid, pidfd int) { waitNoReap(pid) }

// waitNoReap blocks until pid has exited, leaving it a zombie.
func waitNoReap(pid int) {
	const pPID = 1     // idtype_t P_PID
	var info [128]byte // siginfo_t is 104 bytes
	for {
		//lint:ignore SA1019 x/sys/unix has no libSystem wrapper for waitid, and WNOWAIT needs it
		_, _, e := unix.Syscall6(unix.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), unix.WEXITED|unix.WNOWAIT, 0, 0)
		if e != unix.EINTR {
			return
		}
	}
}
