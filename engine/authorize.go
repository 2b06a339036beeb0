package engine

import (
	"context"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// authorize applies the policy hooks to the whole chain before anything
// starts: deny refuses, ask needs the approver's yes, and an authorizer
// that gives no decision refuses rather than lets the chain through.
func authorize(ctx context.Context, c *chain.Chain, dir string, opts Options, rec *AuditRecord) error {
	if opts.Authorizer == nil {
		return nil
	}
	d, err := opts.Authorizer.Authorize(ctx, c, dir)
	if err != nil {
		return err
	}
	rec.Decision = d
	if d == nil {
		return &chain.DeniedError{Segment: -1, Reason: "no decision"}
	}
	switch d.Verdict {
	case chain.Allow:
		return nil
	case chain.Ask:
		if opts.Approver == nil {
			return deniedBy(c, d, chain.Ask, "needs approval")
		}
		ok, err := opts.Approver.Approve(ctx, c, d)
		if err != nil {
			return err
		}
		if !ok {
			return deniedBy(c, d, chain.Ask, "not approved")
		}
		return nil
	}
	return deniedBy(c, d, chain.Deny, "")
}

// deniedBy names the first segment with verdict v as the deciding one, so
// the caller can point at the segment to change; with none, the chain-wide
// reasons explain the refusal.
func deniedBy(c *chain.Chain, d *chain.Decision, v chain.Verdict, reason string) *chain.DeniedError {
	e := &chain.DeniedError{Segment: -1, Reason: reason, Decision: d}
	segs := c.Segments()
	for _, sd := range d.Segments {
		if sd.Verdict != v {
			continue
		}
		e.Segment, e.Rule = sd.Segment, sd.Rule
		if sd.Segment >= 0 && sd.Segment < len(segs) {
			e.Text = segs[sd.Segment].Text
		}
		if e.Reason == "" {
			e.Reason = strings.Join(sd.Reasons, "; ")
		}
		return e
	}
	if e.Reason == "" {
		e.Reason = strings.Join(d.Chain, "; ")
	}
	return e
}
