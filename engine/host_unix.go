//go:build unix

package engine

import (
	"os"

	"github.com/chainrun/chainrun/posix"
)

// unixHost is the host on Linux and macOS: package posix reaps and hands
// over the terminal; a terminal has no code page to guard.
type unixHost struct{}

var theHost host = unixHost{}

// prepare makes this process a child subreaper (Linux), once, so that
// descendants escaping their group with setsid or a double fork are
// re-parented to it and the sweep can reach them.
func (unixHost) prepare() { posix.EnableSubreaper() }

func (unixHost) holdGroup(pgid int) { posix.HoldGroup(pgid) }

func (unixHost) sweep(groups []int) {
	for _, g := range groups {
		posix.ReleaseGroup(g)
	}
	posix.Sweep(groups)
}

func (unixHost) terminal(f *os.File) int { return posix.ForegroundTTY([]*os.File{f}) }

func (unixHost) restoreTerminal(fd int) { posix.RestoreForeground(fd) }

func (unixHost) guardConsole() (restore func()) { return func() {} }

// stopsUpstream is false: a writer whose reader is gone gets SIGPIPE, so
// upstream stages end by themselves.
func (unixHost) stopsUpstream() bool { return false }
