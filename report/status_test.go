package report

import (
	"context"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
)

func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		res  *engine.Result
		err  error
		want int
	}{
		{res: &engine.Result{ExitCode: 0}, want: 0},
		{res: &engine.Result{ExitCode: 141}, want: 141},
		{res: &engine.Result{ExitCode: 124, TimedOut: true}, want: 124},
		{res: &engine.Result{ExitCode: 143, TimedOut: true}, err: chain.ErrTimeout, want: 124},
		{err: &chain.ParseError{Kind: chain.KindSyntax}, want: 2},
		{err: &chain.ParseError{Kind: chain.KindUnsupported}, want: 2},
		{err: &chain.DeniedError{Segment: -1}, want: 3},
		{err: context.DeadlineExceeded, want: 125},
		{res: &engine.Result{ExitCode: 0}, err: context.Canceled, want: 125},
	} {
		if got := ExitStatus(tc.res, tc.err); got != tc.want {
			t.Errorf("ExitStatus(%+v, %v) = %d, want %d", tc.res, tc.err, got, tc.want)
		}
	}
}

func TestStoppedText(t *testing.T) {
	res := &engine.Result{Segments: []engine.SegmentResult{
		{Index: 0, Text: "echo s"},
		{Index: 1, Text: "sleep 10", Signalled: true},
		{Index: 2, Text: "cat", Signalled: true},
	}}
	if got, want := StoppedText(res), `; stopped segment 2 "sleep 10", segment 3 "cat"`; got != want {
		t.Errorf("StoppedText = %q, want %q", got, want)
	}
	if got := StoppedText(nil); got != "" {
		t.Errorf("StoppedText(nil) = %q", got)
	}
}
