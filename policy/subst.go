package policy

import (
	"context"
	"fmt"

	"github.com/chainrun/chainrun/chain"
)

// Command substitutions. The inner chain of a $(…) or `…` is judged
// before anything runs, as a chain of its own (every rule, mode, guard
// and the classifier), in the directory its segment is planned in; the
// segment that holds it gets the stricter of the two verdicts and the
// inner reasons, so an inner deny denies the whole chain and an inner ask
// asks. The words the substitution fills are known only at run time
// (Word.Runtime): a command word so made is never allowed, and a deny
// rule that may match it denies or asks (see unknown.go). When the
// segment starts, the engine has run the inner chain (judged again by
// its own run) and judges the segment again on its final words.

// judgeSubsts judges the inner chains of every segment's substitutions
// and folds each verdict into its segment's decision.
func (p *Policy) judgeSubsts(ctx context.Context, segs []*chain.Segment, dir string, d *chain.Decision) error {
	ctx = loudInner(ctx, segs)
	for i, s := range segs {
		at := dir
		if s.Dir != "" {
			at = s.Dir
		}
		for _, sb := range s.Substs {
			inner, err := p.Authorize(ctx, sb.Chain, at)
			if err != nil {
				return err
			}
			foldInner(&d.Segments[i], sb.Chain.Source[sb.Span.Start:sb.Span.End], inner)
		}
		if err := p.judgeCompound(ctx, s, at, &d.Segments[i]); err != nil {
			return err
		}
	}
	return nil
}

// foldInner gives a segment's decision an inner chain's verdict when it
// is stricter, with the inner reasons, each named by the inner chain's
// text (name).
func foldInner(sd *chain.SegmentDecision, name string, inner *chain.Decision) {
	if len(name) > 60 {
		name = name[:57] + "..."
	}
	if chain.Stricter(sd.Verdict, inner.Verdict) != sd.Verdict {
		sd.Verdict = inner.Verdict
		for _, isd := range inner.Segments {
			if isd.Verdict == inner.Verdict && isd.Rule != "" {
				sd.Rule = isd.Rule
				break
			}
		}
	}
	if inner.Verdict == chain.Allow {
		return
	}
	for _, isd := range inner.Segments {
		if isd.Verdict == chain.Allow {
			continue
		}
		for _, r := range isd.Reasons {
			sd.Reasons = append(sd.Reasons, fmt.Sprintf("in %s: %s: %s", name, isd.Text, r))
		}
	}
	for _, r := range inner.Chain {
		sd.Reasons = append(sd.Reasons, fmt.Sprintf("in %s: %s", name, r))
	}
}
