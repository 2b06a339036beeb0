package engine

import (
	"io"
	"os"
	"time"

	"github.com/chainrun/chainrun/chain"
)

// Options configure Run. The zero value runs in the current directory with
// the current environment, empty stdin, capture on with the default cap, no
// timeout and no policy.
type Options struct {
	// Dir is the starting directory; "" means the current directory.
	Dir string
	// Env is the starting environment as KEY=value; nil means os.Environ().
	Env []string
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
	// SIGHUP). A forwarded signal also keeps later pipelines from starting.
	Signals <-chan os.Signal

	// Dialect is the dialect RunString parses with; "" means
	// chain.HostDialect(). Run takes an already parsed chain.
	Dialect chain.Dialect

	// Authorizer judges the chain before anything starts; nil allows all.
	Authorizer chain.Authorizer
	// Approver settles ask verdicts; nil refuses them.
	Approver chain.Approver
	// Auditor records the chain, its decision and its results.
	Auditor Auditor
}

// Defaults for Options.
const (
	DefaultMaxOutput = 1 << 20
	DefaultGrace     = 2 * time.Second
)

// Result is what a chain did.
type Result struct {
	// ExitCode is the chain's status as bash's $? would be after it.
	ExitCode int `json:"exit_code"`
	// TimedOut is set when the timeout stopped the chain (ExitCode 124).
	TimedOut bool `json:"timed_out"`
	// Canceled is set when the context was canceled.
	Canceled bool `json:"canceled,omitempty"`
	// Stdout and Stderr are the captured output, capped; Stdout holds both
	// streams when Options.Combined is set. Invalid UTF-8 is kept as bytes
	// here; the JSON form replaces it and sets the *_invalid_utf8 flags.
	Stdout []byte `json:"-"`
	Stderr []byte `json:"-"`
	// StdoutOmitted and StderrOmitted count the bytes dropped between the
	// kept head and tail.
	StdoutOmitted int64         `json:"stdout_omitted"`
	StderrOmitted int64         `json:"stderr_omitted"`
	Duration      time.Duration `json:"-"`
	// Segments has one entry per segment of the chain, skipped ones too.
	Segments []SegmentResult `json:"segments"`
	// Decision is the policy's judgement of the chain (Options.Authorizer),
	// nil when no Authorizer was set.
	Decision *chain.Decision `json:"-"`
}

// SegmentResult is what one segment did.
type SegmentResult struct {
	Index int      `json:"index"`
	Args  []string `json:"argv"`
	// Path is the resolved program ("" for built-ins and failures).
	Path string `json:"path"`
	// Kind is how it ran: "builtin", "native", "batch", "powershell",
	// "cmd-builtin".
	Kind string `json:"kind,omitempty"`
	// ExitCode is the segment's status (126, 127, 128+N as bash).
	ExitCode int `json:"exit_code"`
	// RawExitCode is the unsigned 32-bit Windows exit code (0xC000013A…);
	// zero elsewhere.
	RawExitCode uint32 `json:"raw_exit_code,omitempty"`
	// Signal is the signal that ended it (POSIX), 0 if none.
	Signal int `json:"signal"`
	// Signalled is set when chainrun itself stopped it (timeout, cancel).
	Signalled bool `json:"signalled,omitempty"`
	// Skipped is set when && or || skipped it.
	Skipped  bool          `json:"skipped"`
	Duration time.Duration `json:"-"`
	// BytesOut and BytesErr count what it wrote to captured streams.
	BytesOut int64 `json:"bytes_out"`
	BytesErr int64 `json:"bytes_err"`
	// Redirects are the segment's redirects as applied.
	Redirects []chain.Redirect `json:"redirects"`
	// Warning notes a weaker guarantee the segment ran under: on Windows,
	// a process the OS would not put in a job object, whose children a
	// stop cannot reach.
	Warning string `json:"warning,omitempty"`
	// Error says why it could not start, if it could not.
	Error string `json:"error,omitempty"`
	// Err is the same failure as a typed error (a *SegmentError), for
	// errors.As and chain.KindOf; nil when the segment started.
	Err error `json:"-"`
}
