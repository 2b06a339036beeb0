package posix

import (
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// pidfdWorks reports, once per process, whether the kernel has what a
// pidfd wait needs: pidfd_open (5.3) and waitid(P_PIDFD) (5.4), which also
// means CLONE_PIDFD (5.2). A seccomp filter refusing them reads as no.
var pidfdWorks = sync.OnceValue(func() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var info unix.Siginfo
	// Waiting on oneself is ECHILD where P_PIDFD is known, EINVAL before.
	return unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil) == unix.ECHILD
})

// requestPidfd asks the kernel for a pidfd of the child (CLONE_PIDFD),
// where it has what a pidfd wait needs; *sys.PidFD holds it after the
// start, or -1.
func requestPidfd(sys *syscall.SysProcAttr) {
	if pidfdWorks() {
		fd := -1
		sys.PidFD = &fd
	}
}

// pidfdOf returns the pidfd a start with sys gave, or -1.
func pidfdOf(sys *syscall.SysProcAttr) int {
	if sys.PidFD == nil {
		return -1
	}
	return *sys.PidFD
}

// waitExited blocks until pid has exited, leaving it a zombie. With a
// pidfd it parks the goroutine on the runtime's poller (see
// Attr.PollWait), and closes pidfd.
func waitExited(pid, pidfd int) {
	if pidfd < 0 {
		waitNoReap(pid)
		return
	}
	if unix.SetNonblock(pidfd, true) != nil {
		unix.Close(pidfd)
		waitNoReap(pid)
		return
	}
	f := os.NewFile(uintptr(pidfd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		waitNoReap(pid)
		return
	}
	failed := false
	err = rc.Read(func(fd uintptr) bool {
		var info unix.Siginfo
		switch e := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil); e {
		case nil:
			return info.Signo != 0 // zero: still running
		case unix.EINTR:
			return false
		default:
			failed = true
			return true
		}
	})
	if err != nil || failed {
		waitNoReap(pid)
	}
}

// waitNoReap blocks until pid has exited, leaving it a zombie.
func waitNoReap(pid int) {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
}
