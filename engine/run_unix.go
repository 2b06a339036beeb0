//go:build unix

package engine

import (
	"os"
	"syscall"

	"github.com/chainrun/chainrun/posix"
)

// prepareHost makes this process a child subreaper (Linux), once.
func prepareHost() { posix.EnableSubreaper() }

// holdGroup keeps other chains' sweeps away from a running group.
func holdGroup(g int) { posix.HoldGroup(g) }

// sweepChain ends what a finished chain left behind in its groups and,
// on Linux, the descendants that escaped them.
func sweepChain(groups []int) {
	for _, g := range groups {
		posix.ReleaseGroup(g)
	}
	posix.Sweep(groups)
}

// terminalOf returns f's fd if it is a terminal, else -1.
func terminalOf(f *os.File) int { return posix.ForegroundTTY([]*os.File{f}) }

// restoreTerminal takes the terminal back for this process's group.
func restoreTerminal(fd int) { posix.RestoreForeground(fd) }

// Signal forwards any signal to the segment's group.
func (u unixProcess) Signal(sig os.Signal) error {
	if s, ok := sig.(syscall.Signal); ok {
		return u.p.Signal(s)
	}
	return u.p.Interrupt()
}

// guardConsole: POSIX terminals have no code page to restore.
func guardConsole() (restore func()) { return func() {} }
