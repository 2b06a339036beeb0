// Package engine runs a parsed command line (a *chain.Chain) with bash's
// meaning: pipelines joined by &&, || and ;, stages joined by pipes,
// assignments, redirects and the built-ins of package builtin (the list is
// builtin/spec.All), without a shell.
//
// [Run] takes a chain from package chain; [RunString] parses one in the
// host's dialect first. [Options] set the directory, environment, stdin,
// live output, capture, timeout and the policy hooks; the [Result] has the
// chain's status, its captured output and one [SegmentResult] per segment.
// [Check] reports, without starting anything, what only running could
// refuse.
//
// # Running
//
// Run goes through four stages:
//
//  1. [Check]: on Windows, each program is resolved and an argument
//     cmd.exe cannot carry, or a cmd.exe built-in that makes no sense in
//     one segment, is refused. Nothing is started.
//  2. [Options.Authorizer] judges the whole chain (package policy
//     implements it): deny returns a *chain.DeniedError; ask needs
//     [Options.Approver]'s yes (none refuses); allow goes on.
//  3. The pipelines run left to right, by their operators and the last
//     status. All stages of a pipeline start before any is waited for.
//     Each stage, when it starts, has its program resolved with its own
//     environment (PATH after its assignments) and the chain's current
//     directory (after cd); then its redirects are opened, in source
//     order; then it is spawned through the platform layer (package posix
//     or winproc). A stage that cannot start gets bash's status (127, 126,
//     or 1 for a redirect) and a *SegmentError in its result, and the
//     chain goes on as bash's would.
//  4. [Options.Auditor] receives the chain, its decision and its result,
//     for refused, denied and failed chains too.
//
// Run guarantees:
//
//   - A refused or denied chain starts nothing and touches no file: not a
//     redirect target, not the null device.
//   - When Run returns, every process the chain started has ended, and no
//     file of the run remains open. On timeout or cancellation every
//     running process tree is interrupted (SIGTERM and SIGCONT to its
//     group; Ctrl+Break on Windows), then killed after [Options.Grace]. On
//     POSIX each pipeline runs in its own process group, or each segment in
//     its own session when chainrun has a controlling terminal and the
//     chain is not [Options.Interactive]; on Linux
//     chainrun becomes a child subreaper and sweeps the descendants that
//     left their group. On Windows each segment runs in a kill-on-close job
//     object (where Windows refuses one, [SegmentResult.Warning] says so).
//   - No goroutine of the run remains, except the one copying an
//     [Options.Stdin] that is not a file, which ends when the caller's
//     Read returns.
//   - Capture is bounded: each captured stream keeps its first and last
//     [Options.MaxOutput]/2 bytes and counts the bytes between, in memory
//     that does not grow with the stream. Only output bound for the
//     chain's stdout or stderr passes through chainrun; stages write to
//     each other and to files directly.
//
// # Security
//
// Unlike C's system, Run never hands a string to a shell. The chain's
// argv and redirects, as the Authorizer judged them, are exactly what is
// run and opened: nothing is joined into a string and parsed again, and
// constructs outside the supported subset (functions, eval) are
// refused by the parser rather than passed through. Each part of a
// compound command (if, a loop, case, a group, a subshell) is an inner
// chain: judged with the chain before anything runs, and run as its own
// run, judged again, when bash would run it, a loop's body every
// iteration, in the chain's shell state. A pipeline run in the background
// (&) is judged with the chain and each of its segments again as it
// starts, as any pipeline's; what still runs when the chain ends is
// stopped as on timeout unless Options.Detach takes it over. A command
// substitution is an inner chain of its own: judged with the chain before
// anything runs, run (each of its segments judged again as it starts)
// when its word expands, and the segment holding it judged again on its
// final words. With Options.Sandbox the kernel holds every process to the
// boundary as well; chainrun's own tools (Options.Tools), which run inside
// chainrun's process, are not used in a sandboxed run. On Windows,
// where every program receives one command line, the command lines are
// built by package winproc for the program's kind; batch files and cmd.exe
// built-ins run through the system directory's cmd.exe, never %COMSPEC%,
// and an argument that cannot reach them safely (a CR, LF or NUL, a line
// over cmd.exe's limit) is refused by Check before anything starts.
//
// A bare program name is looked up on the segment's PATH and never in the
// current directory, as os/exec does since Go 1.19: a program found only
// there, or only through a relative PATH entry, is not run, and the
// message suggests ./name (.\name on Windows). An assignment to PATH in
// the segment changes where the lookup goes; package policy asks about it.
//
// Programs get the chain's whole environment ([Options.Env], or this
// process's), with PWD set to the chain's directory; nothing is removed
// from it. A nil Authorizer allows every chain, and no policy can see
// inside what an allowed program then does (python3 -c, a Makefile): the
// policy is only as strict as its rules.
package engine
