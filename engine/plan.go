package engine

import (
	"errors"

	"github.com/chainrun/chainrun/chain"
)

// Plan is the explain view of a chain: what would run, and why not if
// nothing would. It is the object `chainrun --explain --json` prints.
type Plan struct {
	Segments []PlanSegment `json:"segments"`
	// Ops holds the operator between each pair of consecutive segments.
	Ops      []chain.Op      `json:"ops"`
	Warnings []chain.Warning `json:"warnings"`
	Error    *PlanError      `json:"error"`

	// Decision, Reasons and Suggestions are filled in when a policy judged
	// the chain; they stay out of the JSON otherwise.
	Decision chain.Verdict           `json:"decision,omitempty"`
	Reasons  []chain.SegmentDecision `json:"reasons,omitempty"`
	// ChainReasons are reasons that concern the chain as a whole (more
	// than 50 segments, cd combined with git or a write, …).
	ChainReasons []string `json:"chain_reasons,omitempty"`
	Suggestions  []string `json:"suggestions,omitempty"`
}

// PlanSegment is one segment as the plan shows it.
type PlanSegment struct {
	Argv      []string          `json:"argv"`
	Env       map[string]string `json:"env"`
	Redirects []chain.Redirect  `json:"redirects"`
	Builtin   bool              `json:"builtin"`
	Span      chain.Span        `json:"span"`
}

// PlanError is a refusal or a denial as the plan shows it.
type PlanError struct {
	Kind    chain.ErrorKind `json:"kind"`
	Message string          `json:"message"`
	// Offset is the byte offset of a refusal; absent for other errors.
	Offset *int `json:"offset,omitempty"`
}

// NewPlan builds the plan of a parsed chain, or of a parse failure (c nil).
func NewPlan(c *chain.Chain, err error) *Plan {
	p := &Plan{Segments: []PlanSegment{}, Ops: []chain.Op{}, Warnings: []chain.Warning{}}
	if c != nil {
		for _, s := range c.Segments() {
			redirs := s.Redirects
			if redirs == nil {
				redirs = []chain.Redirect{}
			}
			p.Segments = append(p.Segments, PlanSegment{
				Argv: s.Args, Env: s.Env(), Redirects: redirs,
				Builtin: s.IsBuiltin(), Span: s.Span,
			})
		}
		if ops := c.SegmentOps(); ops != nil {
			p.Ops = ops
		}
		if c.Warnings != nil {
			p.Warnings = c.Warnings
		}
	}
	if err != nil {
		p.Error = NewPlanError(err)
	}
	return p
}

// NewPlanError renders any chainrun error for JSON output.
func NewPlanError(err error) *PlanError {
	pe := &PlanError{Kind: chain.KindOf(err), Message: err.Error()}
	var perr *chain.ParseError
	if errors.As(err, &perr) {
		off := perr.Offset
		pe.Offset = &off
		pe.Message = perr.Message
	}
	return pe
}

// Judge adds a policy decision to the plan.
func (p *Plan) Judge(d *chain.Decision) {
	if d == nil {
		return
	}
	p.Decision = d.Verdict
	p.Reasons = d.Segments
	p.ChainReasons = d.Chain
	p.Suggestions = d.Suggestions
	if p.Suggestions == nil {
		p.Suggestions = []string{}
	}
}
