package cli

import (
	"os"

	"golang.org/x/sys/windows"
)

// isTerminal reports whether f is a console.
func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}

// controlsTerminal reports whether f is a console; every console a
// process can read is its own.
func controlsTerminal(f *os.File) bool { return isTerminal(f) }
