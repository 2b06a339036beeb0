//go:build unix && !linux

package posix

import "syscall"

// dieWithParent does nothing: PR_SET_PDEATHSIG is Linux's; here only the
// watchdog ends the children of a killed process.
func dieWithParent(sys *syscall.SysProcAttr) {}

// recordAdopted does nothing: without a subreaper nothing is adopted.
func recordAdopted(parent int, held map[int]bool, adopted map[int]uint64) {}

// watchdogReap kills the held groups. Processes that left them (setsid,
// setpgid) cannot be found here and stay.
func watchdogReap(held map[int]bool, adopted map[int]uint64) {
	for g := range held {
		KillGroup(g)
	}
}

// growWatchdogPipe does nothing: the pipe keeps the system's size.
func growWatchdogPipe(fd int) {}
