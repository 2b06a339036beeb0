package report

import (
	"errors"
	"math"
	"time"

	"github.com/chainrun/chainrun/chain"
)

// Span is a half-open byte range [start, end) of the command line, as a
// two-element array.
type Span [2]int

// newSpan renders a chain.Span.
func newSpan(s chain.Span) Span { return Span{s.Start, s.End} }

// Redirect is one redirection of a segment, as the parser read it.
type Redirect struct {
	// Fd is the descriptor redirected (1 for > and &>, 0 for <).
	Fd int `json:"fd"`
	// Op is one of > >> < >& <& &> &>> << <<- <<<.
	Op chain.RedirOp `json:"op"`
	// Target is a path, or for >& and <& the source descriptor ("1");
	// "" for heredocs and here-strings, whose text is never a path.
	Target string `json:"target"`
	// Span covers the redirect in the command line.
	Span Span `json:"span"`
	// Implicit marks the 2>&1 that |& adds.
	Implicit bool `json:"implicit,omitempty"`
	// Delimiter is a heredoc's delimiter word as written ("'EOF'").
	Delimiter string `json:"delimiter,omitempty"`
	// BodyBytes is the size of the text a heredoc (<< <<-) or here-string
	// (<<<) feeds; the body itself is not shown. Absent for other ops.
	BodyBytes *int `json:"body_bytes,omitempty"`
	// BodySpan covers a heredoc's body lines or a here-string's word.
	BodySpan *Span `json:"body_span,omitempty"`
}

// newRedirects renders a segment's redirects; none is [], not null.
func newRedirects(rs []chain.Redirect) []Redirect {
	out := make([]Redirect, len(rs))
	for i, r := range rs {
		out[i] = Redirect{Fd: r.Fd, Op: r.Op, Target: r.Target, Span: newSpan(r.Span), Implicit: r.Implicit}
		if r.Op.IsText() {
			n, span := len(r.Body), newSpan(r.BodySpan)
			out[i].Delimiter, out[i].BodyBytes, out[i].BodySpan = r.Delimiter, &n, &span
		}
	}
	return out
}

// Warning notes a word the other dialect would read differently.
type Warning struct {
	// Offset is the word's byte offset in the command line.
	Offset int `json:"offset"`
	// Message says how each dialect reads it.
	Message string `json:"message"`
}

// Error is a refusal, denial or failure of the chain as a whole.
type Error struct {
	// Kind is syntax, unsupported, denied, timeout or internal (see
	// chain.ErrorKind).
	Kind chain.ErrorKind `json:"kind"`
	// Message says what went wrong; for a refusal it is the parser's
	// message without the line:column prefix, which Offset replaces.
	Message string `json:"message"`
	// Offset is the byte offset of a refusal; absent for other errors.
	Offset *int `json:"offset,omitempty"`
}

// NewError renders any chainrun error; nil gives nil, which prints as null.
func NewError(err error) *Error {
	if err == nil {
		return nil
	}
	e := &Error{Kind: chain.KindOf(err), Message: err.Error()}
	var perr *chain.ParseError
	if errors.As(err, &perr) {
		off := perr.Offset
		e.Offset, e.Message = &off, perr.Message
	}
	return e
}

// Millis is a duration as the wire gives it: milliseconds, rounded to the
// microsecond. The audit log shares it.
func Millis(d time.Duration) float64 {
	return math.Round(float64(d)/1e3) / 1e3
}
