package engine

import "os"

// host is what a chain needs from the operating system around its
// processes, as opposed to what one process can do (process): reaping what
// a chain leaves behind, handing a terminal to it, keeping the console as
// the user had it, and stopping pipelines that the OS would not end by
// itself. host_unix.go and host_windows.go each define theHost, so the
// runner asks one value what the OS does rather than calling free
// functions defined per OS; a method an OS has no use for does nothing
// there.
type host interface {
	// prepare readies this process to run chains, before each one. It is
	// cheap after the first call.
	prepare()
	// holdGroup marks a process group as a running chain's, so that the
	// sweep at the end of another chain run at the same time leaves it
	// alone.
	holdGroup(pgid int)
	// sweep ends what a finished chain left behind: members of its groups
	// (released from holdGroup) and descendants that escaped them.
	sweep(groups []int)
	// terminal returns f's fd when f is a terminal an interactive chain
	// can be handed, else -1.
	terminal(f *os.File) int
	// restoreTerminal takes the terminal fd back for this process's group
	// after a pipeline had it.
	restoreTerminal(fd int)
	// guardConsole records the console state the chain's programs share
	// with chainrun and the user, and returns the function that restores
	// it, so that a change a program makes does not outlive the chain.
	guardConsole() (restore func())
	// stopsUpstream reports whether the upstream stages of a pipeline must
	// be stopped once its last stage has exited, because the OS gives a
	// writer whose reader is gone no signal that would end it.
	stopsUpstream() bool
}
