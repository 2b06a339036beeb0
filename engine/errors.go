package engine

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kind classifies a failure so callers can act on it without parsing
// messages. The CLI maps kinds to exit statuses.
type Kind string

const (
	KindSyntax        Kind = "syntax"         // malformed input
	KindUnsupported   Kind = "unsupported"    // valid bash that chainrun refuses
	KindDenied        Kind = "denied"         // the policy denied (or the approver declined) the chain
	KindNotFound      Kind = "not_found"      // program not found (status 127)
	KindNotExecutable Kind = "not_executable" // program found but not runnable (status 126)
	KindRedirect      Kind = "redirect"       // a redirect could not be opened (status 1)
	KindTimeout       Kind = "timeout"        // the chain ran out of time (status 124)
	KindInternal      Kind = "internal"       // a bug or an OS failure
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
	Kind Kind // KindSyntax or KindUnsupported
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
	return fmt.Sprintf("chainrun: %s error: %s\n  %s\n  %s^\n", e.Kind, e.Error(), e.Source[start:end], pad.String())
}

// DeniedError reports a chain the policy denied, or an ask the approver
// declined. Nothing ran and no file was touched.
type DeniedError struct {
	Segment int    // index of the deciding segment, -1 for the chain as a whole
	Text    string // the segment's source text
	Rule    string // the rule that decided, if one did
	Reason  string // why, in one line
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

// Is makes errors.Is(err, ErrDenied) work.
func (e *DeniedError) Is(target error) bool { return target == ErrDenied }

// SegmentError reports a segment that could not start: its program was not
// found or not executable, or one of its redirects failed. The segment gets
// the status bash would give it and the chain goes on, so Run reports these
// in the segment's result rather than returning them.
type SegmentError struct {
	Kind    Kind   // KindNotFound, KindNotExecutable, KindRedirect, KindInternal
	Segment int    // index in the chain
	Text    string // the segment's source text
	Err     error
}

func (e *SegmentError) Error() string {
	return fmt.Sprintf("segment %d %q: %v", e.Segment+1, e.Text, e.Err)
}

func (e *SegmentError) Unwrap() error { return e.Err }

// KindOf returns the kind of a chainrun error, KindInternal for others.
func KindOf(err error) Kind {
	var pe *ParseError
	var de *DeniedError
	var se *SegmentError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &pe):
		return pe.Kind
	case errors.As(err, &de):
		return KindDenied
	case errors.As(err, &se):
		return se.Kind
	case errors.Is(err, ErrTimeout):
		return KindTimeout
	}
	return KindInternal
}
