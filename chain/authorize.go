package chain

import "context"

// Verdict is a permission decision. Stricter verdicts win: deny > ask > allow.
type Verdict string

const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// Stricter returns the stricter of two verdicts.
func Stricter(a, b Verdict) Verdict {
	rank := func(v Verdict) int {
		switch v {
		case Deny:
			return 3
		case Ask:
			return 2
		case Allow:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// Decision is the judgement of a whole chain, made before anything runs.
type Decision struct {
	// Verdict is the strictest of the segments' verdicts (and of any
	// chain-wide check, such as the segment cap).
	Verdict Verdict
	// Segments holds one judgement per segment, in chain order.
	Segments []SegmentDecision
	// Chain holds reasons that concern the chain as a whole.
	Chain []string
	// Suggestions are the permissions.allow entries that would allow the
	// asked segments, as a settings file spells them ("Bash(git tag:*)",
	// "Edit(./notes.txt)"), at most five per chain.
	Suggestions []string
}

// SegmentDecision is the judgement of one segment.
type SegmentDecision struct {
	Segment int
	// Text is the judged segment's source text, so a decision can be shown
	// (an approval prompt, a denial) without the chain at hand.
	Text    string
	Verdict Verdict
	// Rule is the rule that decided, if one did.
	Rule string
	// Reasons say why, one line each: the rule matched, a guard that fired,
	// a path that was judged.
	Reasons []string
}

// Authorizer judges a whole chain before Run starts any of it. dir is the
// directory the chain starts in. policy.Policy implements it.
type Authorizer interface {
	Authorize(ctx context.Context, c *Chain, dir string) (*Decision, error)
}

// WriteJudge is implemented by an Authorizer that knows which programs
// create or remove no files (policy.Policy: by each program's record).
// The plan made before a run then knows the globs after such a program
// (ls *.txt && cat *.txt); after any other they are known only when they
// run.
type WriteJudge interface {
	// MayWrite reports whether the program run with argv may create or
	// remove files.
	MayWrite(argv []string) bool
}

// Approver settles an ask verdict: it returns true to run the chain, false
// to refuse it. A CLI prompts a person; an agent may ask its user.
type Approver interface {
	Approve(ctx context.Context, c *Chain, d *Decision) (bool, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, c *Chain, d *Decision) (bool, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, c *Chain, d *Decision) (bool, error) {
	return f(ctx, c, d)
}
