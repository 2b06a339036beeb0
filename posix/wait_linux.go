package posix

import "golang.org/x/sys/unix"

// waitNoReap blocks until pid has exited, leaving it a zombie.
func waitNoReap(pid int) {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
}
