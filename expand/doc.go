// Package expand holds what a shell holds between commands and computes
// the words a chain's segments run with, apart from the model and parser
// (package chain) as mvdan.cc/sh/v3/expand is apart from its syntax.
//
// A Shell is the exported environment, the variables that are not
// exported, the directory, the last status and the OS's Rules (Windows or
// POSIX: how names compare, whether globs fold case, where ~ falls back).
// Segment expands one segment in a Shell, just before it starts; Plan
// expands a whole chain before anything runs, simulating the state each
// segment leaves and marking what only the run can know. Both take and
// return the chain model; no mvdan type is in this package's API.
package expand
