package engine

import (
	"fmt"

	"github.com/chainrun/chainrun/chain"
)

// SegmentError reports a segment that could not start: its program was not
// found or not executable, or one of its redirects failed. The segment gets
// the status bash would give it and the chain goes on, so Run reports these
// in the segment's result rather than returning them.
type SegmentError struct {
	Kind    chain.ErrorKind // KindNotFound, KindNotExecutable, KindRedirect, KindInternal
	Segment int             // index in the chain
	Text    string          // the segment's source text
	Err     error
}

func (e *SegmentError) Error() string {
	return fmt.Sprintf("segment %d %q: %v", e.Segment+1, e.Text, e.Err)
}

func (e *SegmentError) Unwrap() error { return e.Err }

// ErrorKind returns the segment's kind, for KindOf.
func (e *SegmentError) ErrorKind() chain.ErrorKind { return e.Kind }
