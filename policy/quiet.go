package policy

import (
	"context"

	"github.com/chainrun/chainrun/chain"
)

// A path known only at run time (a command substitution's output, a glob
// after a program that may write, a variable the plan cannot know) is
// judged again on its real value as its segment starts: the engine judges
// every segment holding such a word before anything of it runs, and a
// verdict stricter than the plan's stops the chain there. The plan may
// then leave a read of such a path to that judgement, instead of asking
// about every value it may take, where a stop there loses nothing: no
// other segment of the chain, and no substitution, creates, changes or
// removes a file, so a chain stopped as that segment starts has touched
// none (it cannot have started a writer in the same pipeline either). Read
// deny and ask rules keep asking before the run (judgeRuntimeFile), so a
// protected file is never named only at run time. Only a segment the plan
// placed (Segment.Dir set: expand.Plan expanded every word it could) is so
// judged: in a chain judged without a plan every expanding word is known
// only at run time, ~/.ssh/id_rsa included, and still asks.

// quietSegments reports, per segment of segs (c.Segments()), whether the
// rest of the chain is quiet for it: every other segment and every
// substitution's chain (the segment's own included, which runs before
// the segment is judged) writes no file, by a program or a redirect, and
// holds no word known only at run time, which may turn a reading program
// into a writing one (sort $X with X=-o f).
func quietSegments(segs []*chain.Segment) []bool {
	loud := make([]bool, len(segs))
	inner := make([]bool, len(segs))
	louder := 0
	for i, s := range segs {
		loud[i] = segmentMayWrite(s)
		inner[i] = substsMayWrite(s)
		if loud[i] || inner[i] {
			louder++
		}
	}
	quiet := make([]bool, len(segs))
	for i := range segs {
		others := louder
		if loud[i] || inner[i] {
			others--
		}
		quiet[i] = others == 0 && !inner[i]
	}
	return quiet
}

// segmentMayWrite reports a segment that may create, change or remove a
// file: a redirect that writes to anything but a device keeping nothing,
// a program MayWrite does not clear, or a word known only at run time.
func segmentMayWrite(s *chain.Segment) bool {
	if s.HasRuntime() {
		return true
	}
	for _, r := range s.Redirects {
		switch {
		case r.Op == chain.RedirIn || r.Op == chain.RedirDupIn || r.Op == chain.RedirDupOut || r.Op.IsText():
		case neutralOut(r.Target):
		default:
			return true
		}
	}
	return len(s.Args) > 0 && !s.IsBuiltin() && (&Policy{}).MayWrite(s.Args)
}

// substsMayWrite reports a segment one of whose inner chains (its
// substitutions', a compound's parts) holds a segment that may write (or,
// nested deeper, one of theirs).
func substsMayWrite(s *chain.Segment) bool {
	for _, ch := range s.Inner() {
		if chainMayWrite(ch.Segments()) {
			return true
		}
	}
	return false
}

// chainMayWrite reports segments one of which, or one of whose inner
// chains, may write.
func chainMayWrite(segs []*chain.Segment) bool {
	for _, s := range segs {
		if segmentMayWrite(s) || substsMayWrite(s) {
			return true
		}
	}
	return false
}

// loudKey marks the context of the judgement of inner chains (a
// substitution's, a compound's parts) whose outer chain may write: each
// is judged as a chain of its own, which would see only itself as quiet,
// while a stop at one of its segments may come after the outer chain's
// writes.
type loudKey struct{}

// loudInner returns ctx marked for judging the inner chains of segs when
// anything in segs may write.
func loudInner(ctx context.Context, segs []*chain.Segment) context.Context {
	if ctx.Value(loudKey{}) == nil && chainMayWrite(segs) {
		return context.WithValue(ctx, loudKey{}, true)
	}
	return ctx
}

// quietFor is quietSegments, none quiet in the judgement of the inner
// chains of a chain that may write (loudKey).
func quietFor(ctx context.Context, segs []*chain.Segment) []bool {
	quiet := quietSegments(segs)
	if ctx.Value(loudKey{}) != nil {
		clear(quiet)
	}
	return quiet
}
