// Package posix is chainrun's process layer on Linux and macOS.
//
// [Start] puts a process in a process group shared by its pipeline, in a
// session of its own, or in a group handed the terminal (interactive
// chains); [Process.Interrupt] and [Process.Kill] signal that whole group
// (SIGTERM with SIGCONT, SIGKILL), and never after the process has been
// reaped, so a reused pid is never hit. [Process.Wait] reaps only its own
// pid; with [Attr.PollWait] it waits on a pidfd through the Go runtime's
// poller (Linux 5.4 and later) instead of holding a thread in waitid.
//
// On Linux, [EnableSubreaper] makes the process a child subreaper, and
// [Sweep], called when a chain ends, kills and reaps the descendants the
// chain left behind, including those that escaped their group with setsid
// or a double fork. On macOS the sweep can only kill the chain's groups.
//
// # Effects on the embedding program
//
// Being a child subreaper is process-wide: orphaned descendants of any
// child, not only chainrun's, are re-parented to the process. The sweep
// leaves alone the process's own children in its own session outside the
// chains' groups, but a child the program starts itself with setsid while
// chains run may be swept; start such children through chainrun.
package posix
