//go:build unix && !linux && !darwin

package posix

import "syscall"

// requestPidfd does nothing: there are no pidfds here.
func requestPidfd(*syscall.SysProcAttr) {}

func pidfdOf(*syscall.SysProcAttr) int { return -1 }

// waitExited is not available here; Wait reaps directly.
func waitExited(pid, pidfd int) {}
