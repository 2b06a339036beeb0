package engine

import (
	"io"
	"os"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/sandbox"
	"github.com/chainrun/chainrun/tools"
)

// Options configure Run. The zero value runs in the current directory with
// the current environment, empty stdin, capture on with the default cap, no
// timeout and no policy.
type Options struct {
	// Dir is the starting directory; "" means the current directory.
	Dir string
	// Env is the starting environment as KEY=value; nil means os.Environ().
	Env []string
	// Vars are shell variables the chain starts with that are not
	// exported (a session's NAME=value from an earlier chain); expansions
	// see them, programs do not.
	Vars map[string]string
	// Stdin feeds the first stage; nil means empty (EOF at once).
	Stdin io.Reader

	// Stdout and Stderr, when set, receive the chain's output live as it
	// arrives, beside the capture (for UIs and the CLI).
	Stdout io.Writer
	Stderr io.Writer
	// NoCapture turns capture off: Result.Stdout/Stderr stay empty and
	// output only reaches the live writers.
	NoCapture bool
	// MaxOutput caps each captured stream in bytes, keeping head and tail;
	// 0 means DefaultMaxOutput.
	MaxOutput int
	// Combined captures stdout and stderr through one pipe in arrival
	// order, into Result.Stdout.
	Combined bool

	// Pipefail makes a pipeline's status its rightmost non-zero stage's.
	Pipefail bool
	// Timeout bounds the whole chain; 0 means none.
	Timeout time.Duration
	// Grace is how long stopped processes get between the polite signal
	// (SIGTERM, Ctrl+Break) and the hard kill; 0 means DefaultGrace.
	Grace time.Duration
	// Interactive keeps the terminal usable for programs that read it
	// (less, ssh prompts): on POSIX the chain's group gets the foreground.
	Interactive bool
	// Signals, when set, delivers signals to forward to every running
	// process group of the chain (the CLI feeds it SIGINT, SIGTERM and
	// SIGHUP). A forwarded signal also keeps later pipelines from starting,
	// and is followed, as a timeout's SIGTERM is, by the grace period and
	// then SIGKILL to whatever of the chain still runs.
	Signals <-chan os.Signal

	// Dialect is the dialect RunString parses with; "" means
	// chain.HostDialect(). Run takes an already parsed chain.
	Dialect chain.Dialect

	// Tools says when a segment runs chainrun's own version of a POSIX
	// tool (ls, cat, rm, grep, …: package tools) instead of a program:
	// the zero value runs them on Windows when the program is not found,
	// and never elsewhere.
	Tools tools.Mode

	// Authorizer judges the chain before anything starts; nil allows all.
	Authorizer chain.Authorizer
	// Approver settles ask verdicts; nil refuses them.
	Approver chain.Approver
	// Auditor records the chain, its decision and its results.
	Auditor Auditor

	// Sandbox, when set, holds every process the chain starts (and its
	// descendants) to the boundary with the kernel (Landlock on Linux,
	// Seatbelt on macOS), and the files chainrun opens for the chain
	// (redirect targets) to the same boundary; the segments it Excludes
	// run outside it. Where the system cannot confine (SandboxAvailable),
	// Run fails with a *SandboxError before anything starts.
	Sandbox *sandbox.Boundary

	// Detach decides what happens to background pipelines (cmd &) still
	// running when the chain's last pipeline has ended. Nil ends them as
	// a timeout does (interrupt, grace period, kill, whole trees), so
	// nothing outlives Run; Result.Jobs names them. Set, it is called
	// with the chain's result as it stands (its status, its output so
	// far, Jobs) and returns where their later output goes (nil
	// discards it; output to a live writer that is a file keeps going
	// there); Run then returns only when they have ended, or, after the
	// context is canceled, been ended. No timeout applies to them.
	// Detach must return without waiting for the chain.
	Detach func(res *Result) io.Writer

	// inherit is set for a command substitution's inner chain: the
	// options and depth of the chain it runs in.
	inherit *inherited
}

// Defaults for Options.
const (
	DefaultMaxOutput = 1 << 20
	DefaultGrace     = 2 * time.Second
)

// Result is what a chain did.
type Result struct {
	// ExitCode is the chain's status as bash's $? would be after it.
	ExitCode int
	// TimedOut is set when the timeout stopped the chain (ExitCode 124).
	TimedOut bool
	// Canceled is set when the context was canceled.
	Canceled bool
	// Stdout and Stderr are the captured output, capped, as the programs
	// wrote it; Stdout holds both streams when Options.Combined is set.
	// DecodedStdout and DecodedStderr give them as text.
	Stdout []byte
	Stderr []byte
	// StdoutOmitted and StderrOmitted count the bytes dropped between the
	// kept head and tail.
	StdoutOmitted int64
	StderrOmitted int64
	Duration      time.Duration
	// Segments has one entry per segment of the chain, skipped ones too.
	Segments []SegmentResult
	// Decision is the policy's judgement of the chain (Options.Authorizer),
	// nil when no Authorizer was set.
	Decision *chain.Decision
	// Dir is the chain's current directory when it ended, as top-level cd
	// left it (a cd inside a pipeline stage does not count, as in bash's
	// subshell), so a caller that keeps a session, such as the MCP server,
	// can carry it over to the next chain as a terminal would.
	Dir string
	// Env and Vars are the environment and the shell variables as the
	// chain left them (export, unset and NAME=value at its top level), for
	// a session to carry over the same way.
	Env  []string
	Vars map[string]string
	// Jobs are the background pipelines still running when the chain's
	// last pipeline ended (Options.Detach says what became of them).
	Jobs []Job
}

// Job is a background pipeline (cmd &) of the chain.
type Job struct {
	// N is its job number, %N.
	N int
	// PID is $! after it: the process id of its last stage.
	PID int
	// Text is the pipeline's source text.
	Text string
	// Segments are the chain-wide indexes of its segments.
	Segments []int
	// Killed is set when chainrun ended it at the chain's end.
	Killed bool
	// ExitCode is its status once it ended, as wait returns it.
	ExitCode int
}

// DecodedStdout returns Stdout as text and names the encoding it was
// decoded from. On Windows programs write UTF-16LE (cmd.exe built-ins) or
// the console's code page, so the capture is turned into UTF-8 and the
// encoding reads "utf-8", "utf-16le", "cp1252", "mixed:utf-16le+utf-8", …;
// elsewhere programs write UTF-8 or raw bytes, so the text is Stdout itself
// and the encoding "". Invalid UTF-8 stays as it is. The decoding is done
// here on demand rather than by the runner, so Stdout keeps the bytes the
// programs wrote and callers that never show text pay nothing; the
// decoding rules themselves stay in the engine, beside the capture.
func (r *Result) DecodedStdout() (text []byte, encoding string) { return decodeCaptured(r.Stdout) }

// DecodedStderr is DecodedStdout for Stderr.
func (r *Result) DecodedStderr() (text []byte, encoding string) { return decodeCaptured(r.Stderr) }

// SegmentResult is what one segment did.
type SegmentResult struct {
	Index int
	// Text is the segment's source text, for messages that name it.
	Text string
	// Args is the argv the segment ran with, its words expanded when it
	// started; for a segment that did not start, the plan's argv, where a
	// word known only at run time is the word as written.
	Args []string
	// Path is the resolved program ("" for built-ins and failures).
	Path string
	// Kind is how it ran: "builtin", "native", "batch", "powershell",
	// "cmd-builtin", or "tool" (chainrun's own ls, cat, …: package tools).
	Kind string
	// ExitCode is the segment's status (126, 127, 128+N as bash).
	ExitCode int
	// RawExitCode is the unsigned 32-bit Windows exit code (0xC000013A…);
	// zero elsewhere.
	RawExitCode uint32
	// Signal is the signal that ended it (POSIX), 0 if none.
	Signal int
	// Signalled is set when chainrun itself stopped it (timeout, cancel).
	Signalled bool
	// Skipped is set when && or || skipped it.
	Skipped  bool
	Duration time.Duration
	// BytesOut and BytesErr count what it wrote to captured streams.
	BytesOut int64
	BytesErr int64
	// Redirects are the segment's redirects as applied.
	Redirects []chain.Redirect
	// Sandboxed is set when the segment's process ran inside
	// Options.Sandbox: a write or read it was refused (EACCES, EPERM) may
	// be the boundary's.
	Sandboxed bool
	// Sandbox explains a sandboxed segment that failed: the boundary it
	// ran in and the setting that would widen it (sandbox.Boundary.Refused).
	Sandbox string
	// Warning notes a weaker guarantee the segment ran under: on Windows,
	// a process the OS would not put in a job object, whose children a
	// stop cannot reach.
	Warning string
	// Error says why it could not start, if it could not.
	Error string
	// Err is the same failure as a typed error (a *SegmentError), for
	// errors.As and chain.KindOf; nil when the segment started.
	Err error
}
