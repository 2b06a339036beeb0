package report

import (
	"errors"
	"unicode/utf8"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
)

// Run is what a chain did, as `chainrun --json` prints it: one object
// whatever happened, the refused and denied chains included. The field
// order is the wire's.
type Run struct {
	// ExitCode is the chain's status as bash's $? would be after it; for a
	// chain that did not run, what the caller reports (see FromResult).
	ExitCode int `json:"exit_code"`
	// TimedOut is set when the timeout stopped the chain.
	TimedOut bool `json:"timed_out"`
	// Canceled is set when the context was canceled.
	Canceled bool `json:"canceled,omitempty"`
	// StdoutOmitted and StderrOmitted count the bytes dropped between the
	// kept head and tail of each capture.
	StdoutOmitted int64 `json:"stdout_omitted"`
	StderrOmitted int64 `json:"stderr_omitted"`
	// Stdout and Stderr are the captures as text: decoded to UTF-8 where
	// programs write other encodings (Windows), invalid UTF-8 replaced by
	// U+FFFD.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// StdoutInvalidUTF8 and StderrInvalidUTF8 say that U+FFFD replaced
	// invalid UTF-8 in the text.
	StdoutInvalidUTF8 bool `json:"stdout_invalid_utf8,omitempty"`
	StderrInvalidUTF8 bool `json:"stderr_invalid_utf8,omitempty"`
	// StdoutEncoding and StderrEncoding name what the text was decoded
	// from (Windows only: "utf-8", "utf-16le", "cp850",
	// "mixed:utf-16le+utf-8", …).
	StdoutEncoding string `json:"stdout_encoding,omitempty"`
	StderrEncoding string `json:"stderr_encoding,omitempty"`
	// DurationMS is the chain's wall time in milliseconds.
	DurationMS float64 `json:"duration_ms"`
	// Segments has one entry per segment, skipped ones too; [] when
	// nothing ran.
	Segments []Segment `json:"segments"`
	// Jobs are the background pipelines (cmd &) still running when the
	// chain's last pipeline ended; absent when there were none.
	Jobs []Job `json:"jobs,omitempty"`
	// Error is null when the chain ran to its end, whatever its status.
	Error *Error `json:"error"`
	// Decision is the policy's judgement: its fields (decision, reasons,
	// chain_reasons, suggestions) are absent when no policy judged the
	// chain and all present, lists possibly [], when one did.
	*Decision
}

// Segment is what one segment of a run did.
type Segment struct {
	// Index is the segment's position in the chain, from 0.
	Index int `json:"index"`
	// Args is the quote-removed argument vector (argv).
	Args []string `json:"argv"`
	// Path is the resolved program ("" for built-ins and failures).
	Path string `json:"path"`
	// Kind is how it ran: builtin, native, batch, powershell, cmd-builtin, tool.
	Kind string `json:"kind,omitempty"`
	// ExitCode is the segment's status (126, 127, 128+N as bash).
	ExitCode int `json:"exit_code"`
	// RawExitCode is the unsigned 32-bit Windows exit code; absent when 0.
	RawExitCode uint32 `json:"raw_exit_code,omitempty"`
	// Signal is the POSIX signal that ended it, 0 if none.
	Signal int `json:"signal"`
	// Signalled is set when chainrun stopped it (timeout, cancel).
	Signalled bool `json:"signalled,omitempty"`
	// Skipped is set when && or || skipped it.
	Skipped bool `json:"skipped"`
	// BytesOut and BytesErr count what it wrote to the captured streams.
	BytesOut int64 `json:"bytes_out"`
	BytesErr int64 `json:"bytes_err"`
	// Redirects are its redirects as applied.
	Redirects []Redirect `json:"redirects"`
	// Warning notes a weaker guarantee it ran under (Windows: no job
	// object).
	Warning string `json:"warning,omitempty"`
	// Error says why it could not start, if it could not.
	Error string `json:"error,omitempty"`
	// Sandboxed is set when it ran inside the sandbox; Sandbox explains
	// its failure there: the boundary and the setting that would widen it.
	Sandboxed bool   `json:"sandboxed,omitempty"`
	Sandbox   string `json:"sandbox,omitempty"`
	// DurationMS is its wall time in milliseconds.
	DurationMS float64 `json:"duration_ms"`
}

// FromResult renders what Run or RunString returned. res may be nil when
// nothing ran (refused, denied, failed before starting): the report then
// has no segments, err as its Error, and ExitCode ExitStatus(nil, err) (2
// for a refusal, 3 for a denial, …). The policy's decision comes from res.Decision, or, for a denied
// or unapproved chain, from the *chain.DeniedError in err.
func FromResult(res *engine.Result, err error) *Run {
	r := &Run{Segments: []Segment{}, Error: NewError(err)}
	r.Decision = NewDecision(decisionOf(res, err))
	if res == nil {
		r.ExitCode = ExitStatus(nil, err)
		return r
	}
	r.ExitCode, r.TimedOut, r.Canceled = res.ExitCode, res.TimedOut, res.Canceled
	r.StdoutOmitted, r.StderrOmitted = res.StdoutOmitted, res.StderrOmitted
	r.Stdout, r.StdoutInvalidUTF8, r.StdoutEncoding = text(res.DecodedStdout())
	r.Stderr, r.StderrInvalidUTF8, r.StderrEncoding = text(res.DecodedStderr())
	r.DurationMS = Millis(res.Duration)
	for _, s := range res.Segments {
		r.Segments = append(r.Segments, newSegment(s))
	}
	r.Jobs = newJobs(res.Jobs)
	return r
}

// newSegment renders one segment's result.
func newSegment(s engine.SegmentResult) Segment {
	argv := s.Args // a skipped segment keeps its planned words, as written
	if argv == nil {
		argv = []string{}
	}
	return Segment{
		Index: s.Index, Args: argv, Path: s.Path, Kind: s.Kind,
		ExitCode: s.ExitCode, RawExitCode: s.RawExitCode, Signal: s.Signal, Signalled: s.Signalled,
		Skipped: s.Skipped, BytesOut: s.BytesOut, BytesErr: s.BytesErr,
		Redirects: newRedirects(s.Redirects), Warning: s.Warning, Error: s.Error, Sandboxed: s.Sandboxed, Sandbox: s.Sandbox,
		DurationMS: Millis(s.Duration),
	}
}

// decisionOf finds the policy's decision: on the result when the chain
// ran, on the denial when it did not.
func decisionOf(res *engine.Result, err error) *chain.Decision {
	if res != nil {
		return res.Decision
	}
	var de *chain.DeniedError
	if errors.As(err, &de) {
		return de.Decision
	}
	return nil
}

// text makes decoded output valid UTF-8, replacing each invalid byte with
// U+FFFD, and says whether it had to.
func text(b []byte, encoding string) (s string, invalid bool, enc string) {
	if utf8.Valid(b) {
		return string(b), false, encoding
	}
	return string([]rune(string(b))), true, encoding
}
