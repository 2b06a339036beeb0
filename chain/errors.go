package chain

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrorKind classifies a failure so callers can act on it without parsing
// messages. The CLI maps kinds to exit statuses.
type ErrorKind string

const (
	KindSyntax        ErrorKind = "syntax"         // malformed input
	KindUnsupported   ErrorKind = "unsupported"    // valid bash that chainrun refuses
	KindDenied        ErrorKind = "denied"         // the policy denied (or the approver declined) the chain
	KindNotFound      ErrorKind = "not_found"      // program not found (status 127)
	KindNotExecutable ErrorKind = "not_executable" // program found but not runnable (status 126)
	KindRedirect      ErrorKind = "redirect"       // a redirect could not be opened (status 1)
	KindTimeout       ErrorKind = "timeout"        // the chain ran out of time (status 124)
	KindExpansion     ErrorKind = "expansion"      // a word bash could not expand either ($((1/0))): the chain ends, status 1
	KindArgument      ErrorKind = "argument"       // an argument of a call or flag is wrong (an MCP tool's timeout, an unknown job); nothing ran
	KindInternal      ErrorKind = "internal"       // a bug or an OS failure
)

// Sentinels for errors.Is: every *ParseError matches ErrSyntax or
// ErrUnsupported by its kind, every *DeniedError matches ErrDenied.
var (
	ErrSyntax      = errors.New("syntax error")
	ErrUnsupported = errors.New("unsupported construct")
	ErrDenied      = errors.New("denied by policy")
	ErrTimeout     = errors.New("timed out")
)

// ParseError is a refusal of the input, before anything runs.
type ParseError struct {
	Kind ErrorKind // KindSyntax or KindUnsupported
	// Construct names what was refused ("command substitution", "glob", …).
	Construct string
	// Message is one line saying what and, where there is one, the fix.
	Message string
	// Offset is the byte offset in Source where the problem starts.
	Offset int
	// Source is the whole input, for the caret rendering.
	Source string
}

func (e *ParseError) Error() string {
	line, col := e.Position()
	return fmt.Sprintf("%d:%d: %s", line, col, e.Message)
}

// Is makes errors.Is(err, ErrSyntax) and errors.Is(err, ErrUnsupported) work.
func (e *ParseError) Is(target error) bool {
	return (target == ErrSyntax && e.Kind == KindSyntax) ||
		(target == ErrUnsupported && e.Kind == KindUnsupported)
}

// ErrorKind returns KindSyntax or KindUnsupported, for KindOf.
func (e *ParseError) ErrorKind() ErrorKind { return e.Kind }

// Position returns the 1-based line and column (in characters) of Offset.
func (e *ParseError) Position() (line, col int) {
	off := min(max(e.Offset, 0), len(e.Source))
	before := e.Source[:off]
	line = 1 + strings.Count(before, "\n")
	start := strings.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCountInString(before[start:])
}

// Caret renders the message for people: the error, the offending source
// line, and a caret under the offset.
func (e *ParseError) Caret() string {
	off := min(max(e.Offset, 0), len(e.Source))
	start := strings.LastIndexByte(e.Source[:off], '\n') + 1
	end := strings.IndexByte(e.Source[off:], '\n')
	if end < 0 {
		end = len(e.Source)
	} else {
		end += off
	}
	var pad strings.Builder
	for _, r := range e.Source[start:off] {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	return fmt.Sprintf("%s error: %s\n  %s\n  %s^\n", e.Kind, e.Error(), e.Source[start:end], pad.String())
}

// DeniedError reports a chain the policy denied, or an ask the approver
// declined. Nothing ran and no file was touched.
type DeniedError struct {
	Segment int    // index of the deciding segment, -1 for the chain as a whole
	Text    string // the segment's source text
	Rule    string // the rule that decided, if one did
	Reason  string // why, in one line
	// Decision is the policy's whole judgement of the chain, when a
	// policy decided (nil for a chain refused for another reason); for a
	// denial at run time, its judgement of the expanded segment alone.
	Decision *Decision
	// AtRunTime is set when the chain was stopped just before this
	// segment started, on the words it expanded to, after earlier
	// segments ran; otherwise nothing ran.
	AtRunTime bool
}

func (e *DeniedError) Error() string {
	var b strings.Builder
	b.WriteString("denied")
	if e.Segment >= 0 {
		fmt.Fprintf(&b, ": segment %d %q", e.Segment+1, e.Text)
	}
	if e.Rule != "" {
		fmt.Fprintf(&b, " by rule %q", e.Rule)
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	return b.String()
}

// ErrorKind returns KindDenied, for KindOf.
func (e *DeniedError) ErrorKind() ErrorKind { return KindDenied }

// Is makes errors.Is(err, ErrDenied) work.
func (e *DeniedError) Is(target error) bool { return target == ErrDenied }

// KindOf returns the kind of a chainrun error, KindInternal for others.
func KindOf(err error) ErrorKind {
	var k interface{ ErrorKind() ErrorKind }
	switch {
	case err == nil:
		return ""
	case errors.As(err, &k):
		return k.ErrorKind()
	case errors.Is(err, ErrTimeout):
		return KindTimeout
	}
	return KindInternal
}
