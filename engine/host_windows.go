//go:build windows

package engine

import (
	"os"

	"github.com/chainrun/chainrun/winconsole"
)

// windowsHost is the host on Windows. The process layer's job objects end
// each segment's tree, so there is nothing to reap or sweep and no
// terminal group to hand over; what is left is the shared console and the
// missing SIGPIPE.
type windowsHost struct{}

var theHost host = windowsHost{}

func (windowsHost) prepare()              {}
func (windowsHost) holdGroup(int)         {}
func (windowsHost) sweep([]int)           {}
func (windowsHost) terminal(*os.File) int { return -1 }
func (windowsHost) restoreTerminal(int)   {}

// guardConsole records the console's code pages and returns the function
// that restores them: a child such as powershell -Command with chainrun's
// UTF-8 prelude, or chcp, changes the console it shares with chainrun and
// the user, and the change would outlive the chain.
func (windowsHost) guardConsole() (restore func()) { return winconsole.Preserve() }

// stopsUpstream is true: a pipe has no SIGPIPE, so a producer that ignores
// ERROR_NO_DATA (232) after its consumer exits would run forever. Once the
// downstream stage has exited, the upstream stages get the grace period,
// then their jobs are terminated.
func (windowsHost) stopsUpstream() bool { return true }
