package engine

import (
	"os"
	"time"

	"github.com/chainrun/chainrun/resolve"
)

// spawnSpec is a segment ready to start: its program resolved, its fd
// table built by the redirect package.
type spawnSpec struct {
	Target resolve.Target
	// Args is the argv as parsed; Args[0] is the name as the user wrote it.
	Args []string
	// Env is the full environment of the child, KEY=value.
	Env []string
	// Dir is the chain's current directory when the segment starts.
	Dir string
	// Files is the child's fd table: Files[n] becomes fd n. Entries 0-2 are
	// always set; 3-9 only when a redirect names them (POSIX only).
	Files []*os.File
	// Captured is set when stdout (Files[1]) is chainrun's own capture,
	// read and decoded by chainrun rather than by another segment or a
	// file: Windows then runs cmd.exe built-ins with /u (UTF-16, lossless).
	Captured bool
	// Interactive keeps the terminal usable (POSIX: foreground group).
	Interactive bool
	// Pgid is, on POSIX, the process group of the pipeline's first stage
	// for the stages after it to join; 0 leads a new group.
	Pgid int
	// InPipeline is set for a stage of a pipeline of two or more: its
	// process runs beside others, and is waited for without holding a
	// thread (posix.Attr.PollWait).
	InPipeline bool
	// Confine, when set, holds the process to the run's sandbox.
	Confine *confinement
}

// exitInfo is how a process ended.
type exitInfo struct {
	Code   int    // bash's view: 0-255, 128+N for a signal
	Signal int    // the POSIX signal that ended it, 0 if none
	Raw    uint32 // Windows: the unsigned 32-bit exit code
	// User and Sys are the CPU time the process tree used in user and
	// kernel mode, for the time keyword's report: posix, the rusage of
	// the waited process (its waited descendants included); Windows, the
	// job's accounting.
	User, Sys time.Duration
}

// process is a started segment. proc_unix.go implements it with package
// posix, proc_windows.go with package winproc; nothing above this file
// knows which.
type process interface {
	// Wait blocks until the process exits and returns how.
	Wait() (exitInfo, error)
	// Interrupt asks the whole tree to stop: SIGTERM to the group, or
	// Ctrl+Break to the process group on Windows.
	Interrupt() error
	// Kill ends the whole tree at once: SIGKILL to the group, or
	// TerminateJobObject on Windows.
	Kill() error
	// Close releases what the process holds (job handle, process handle).
	// After Close no process of the tree may remain.
	Close() error
	// Pid is the OS process id.
	Pid() int
	// Signal passes on a signal the caller received (Options.Signals) to
	// the whole tree: the signal itself to the group on POSIX; Interrupt
	// on Windows, which has no way to deliver it.
	Signal(sig os.Signal) error
	// Group is the POSIX process group the process runs in, for the
	// pipeline's later stages to join and for the sweep when the chain
	// ends; 0 on Windows, where the job object does both.
	Group() int
	// Warning names a weaker guarantee the process runs under, for
	// SegmentResult.Warning: on Windows, no job object, so a stop cannot
	// reach its children. "" when there is none.
	Warning() string
}
