//go:build unix && !linux && !darwin

package posix

import "syscall"

func requestPidfd(sys *syscall.SysProcAttr) *int { fd := -1; return &fd }

// waitExited is not available here; Wait reaps directly.
func waitExited(pid, pidfd int) {}
