//go:build unix

package cli

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/chainrun/chainrun/posix"
)

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	return f != nil && posix.IsTerminal(int(f.Fd()))
}

// controlsTerminal reports whether f is chainrun's controlling terminal,
// the one whose foreground an interactive chain can take. A terminal that
// is merely open (no session owns it here) does not qualify.
func controlsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	_, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err == nil
}
