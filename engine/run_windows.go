package engine

import (
	"os"

	"github.com/chainrun/chainrun/winconsole"
)

// On Windows the process layer's job objects end each segment's tree, so
// there is nothing to sweep and no terminal group to hand over.
func prepareHost()            {}
func holdGroup(int)           {}
func sweepChain([]int)        {}
func terminalOf(*os.File) int { return -1 }
func restoreTerminal(int)     {}

// guardConsole records the console's code pages and returns the function
// that restores them: a child such as powershell -Command with chainrun's
// UTF-8 prelude, or chcp, changes the console it shares with chainrun and
// the user, and the change would outlive the chain.
func guardConsole() (restore func()) { return winconsole.Preserve() }
