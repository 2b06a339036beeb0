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
// On Linux, [Confine] holds the processes started with [Attr.Confine] to
// a sandbox boundary with Landlock, from one restricted thread per
// confinement, and where the boundary denies paths inside the trees it
// grants, through one helper per confinement (this executable again, as
// the watchdog) that binds them read-only in a private mount namespace
// and then forks each process as this process's own child
// (landlock_linux.go, carve_linux.go, zygote_linux.go).
//
// # The watchdog
//
// A process killed by SIGKILL, by the OOM killer or by a crash cannot end
// its chains itself, and PR_SET_PDEATHSIG (which Start sets on Linux)
// reaches only its direct children. So once chains have held processes
// for [WatchdogDelay], a watchdog starts: a second process that outlives
// this one just long enough to kill what its chains left running (their
// process groups; on Linux also every descendant of them and the orphans
// this process adopted as subreaper). [StartWatchdog] starts it at once,
// [WatchdogRunning] says whether it runs. When this process exits
// normally the watchdog exits with it and kills nothing.
//
// The watchdog is this same executable, started again (re-exec) from
// /proc/self/exe on Linux, else [os.Executable], so it needs no separate
// program installed. The contract between the two:
//
//   - argv is exactly ["chainrun-watchdog"] and the environment exactly
//     CHAINRUN_POSIX_WATCHDOG=1; this package's init recognises the pair
//     and runs the watchdog instead of the program's main, so any program
//     importing posix can be its own watchdog. A program that must not
//     be re-executed this way should not start chains through posix;
//     nothing else in the environment or argv can trigger it.
//   - fd 3 is the read end of a pipe whose write end only this process
//     holds (close-on-exec, so no chain inherits it); fds 0-2 are the
//     null device; it runs in a session of its own with "/" as its
//     directory, so a signal to this process's group or terminal spares
//     it.
//   - the pipe carries one line per change: "+PGID" when a chain holds a
//     process group, "-PGID" when the group was swept. End of file means
//     this process is gone: the watchdog then kills the groups still
//     held, and exits.
//
// The window this leaves: a descendant forked in the first WatchdogDelay
// of a chain killed within that time can remain (on Linux the direct
// children die with this process at once), and on macOS a process that
// left its chain's group cannot be found.
//
// # Effects on the embedding program
//
// Being a child subreaper is process-wide: orphaned descendants of any
// child, not only chainrun's, are re-parented to the process. The sweep
// leaves alone the process's own children in its own session outside the
// chains' groups, but a child the program starts itself with setsid while
// chains run may be swept; start such children through chainrun.
//
// Like the watchdog's pair, argv[0] "chainrun-sandbox" with
// CHAINRUN_POSIX_SANDBOX=1 in the environment makes any program importing
// posix the carving helper instead of itself.
package posix
