package engine

import "os"

// On Windows the process layer's job objects end each segment's tree, so
// there is nothing to sweep and no terminal group to hand over.
func prepareHost()            {}
func holdGroup(int)           {}
func sweepChain([]int)        {}
func terminalOf(*os.File) int { return -1 }
func restoreTerminal(int)     {}
