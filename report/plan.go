package report

import "github.com/chainrun/chainrun/chain"

// Plan is the explain view of a chain, as `chainrun --explain --json`
// prints it: what would run, and why not if nothing would. The field
// order is the wire's.
type Plan struct {
	// Segments in source order; [] when the input was refused.
	Segments []PlanSegment `json:"segments"`
	// Ops holds the operator between each pair of consecutive segments:
	// |, &&, || or ;.
	Ops []chain.Op `json:"ops"`
	// Warnings mark words the other dialect would read differently.
	Warnings []Warning `json:"warnings"`
	// Error is the refusal (or a failure to judge), null when accepted.
	Error *Error `json:"error"`

	// Decision is the policy's judgement (see Judge): its fields are
	// absent when no policy judged the plan and all present when one did.
	*Decision

	// PolicyWarnings are what the policy's loader said about the settings
	// files it read: entries it left out or read as another (a bare
	// "Bash" deny taken as Claude Code's own tool, a Write rule, a rule of
	// another tool). Absent when there are none or no policy judged.
	PolicyWarnings []string `json:"policy_warnings,omitempty"`
}

// PlanSegment is one segment as the plan shows it.
type PlanSegment struct {
	// Args is the quote-removed argument vector (argv).
	Args []string `json:"argv"`
	// Env holds the segment's leading NAME=value assignments.
	Env map[string]string `json:"env"`
	// Redirects in source order.
	Redirects []Redirect `json:"redirects"`
	// Builtin is set when argv[0] is an engine built-in (cd, echo, …).
	Builtin bool `json:"builtin"`
	// Span covers the segment in the command line.
	Span Span `json:"span"`
	// Words shows, for a segment with expansions, each argument word as
	// written and what it expands to now; absent when nothing expands.
	Words []Word `json:"words,omitempty"`
	// Timed marks a segment of a pipeline after the time keyword, whose
	// report goes to stderr when it ends; TimePOSIX marks time -p.
	// Absent otherwise: time itself is no segment.
	Timed     bool `json:"timed,omitempty"`
	TimePOSIX bool `json:"time_posix,omitempty"`
	// Background marks a segment of a pipeline run in the background
	// (written with & after it); absent otherwise.
	Background bool `json:"background,omitempty"`
	// Substitutions are the segment's command substitutions, each with
	// its inner chain's plan; absent when it has none.
	Substitutions []Substitution `json:"substitutions,omitempty"`
	// Compound is set for a compound command: its parts' plans.
	Compound *Compound `json:"compound,omitempty"`
}

// Word is one argument word of a segment with expansions.
type Word struct {
	// Text is the word as written.
	Text string `json:"text"`
	// Expanded holds the arguments it expands to as of now (a glob's
	// matches, a brace expansion's words, a variable's fields); for a
	// word known only at run time, its text.
	Expanded []string `json:"expanded"`
	// Glob is set when the word is a glob, matched against the files now
	// (a glob that matches nothing stays as written, as in bash).
	Glob bool `json:"glob,omitempty"`
	// Runtime marks a word whose value is known only when its segment
	// starts ($? after a command, a variable set on a branch that may be
	// skipped, a glob after a command that may create files); the segment
	// is judged again on its real value then.
	Runtime bool `json:"runtime,omitempty"`
}

// NewPlan builds the plan of a parsed chain, or of a refusal (c nil, err
// the *chain.ParseError). A chain's lists are never null on the wire.
func NewPlan(c *chain.Chain, err error) *Plan {
	p := &Plan{Segments: []PlanSegment{}, Ops: []chain.Op{}, Warnings: []Warning{}, Error: NewError(err)}
	if c == nil {
		return p
	}
	for _, pl := range c.Pipelines {
		for _, s := range pl.Segments {
			p.Segments = append(p.Segments, PlanSegment{
				Args: s.Args, Env: s.Env(), Redirects: newRedirects(s.Redirects),
				Builtin: s.IsBuiltin(), Span: newSpan(s.Span), Words: newWords(s),
				Timed: pl.Timed, TimePOSIX: pl.TimePOSIX, Background: pl.Background, Substitutions: newSubstitutions(s),
				Compound: newCompound(s),
			})
		}
	}
	if ops := c.SegmentOps(); ops != nil {
		p.Ops = ops
	}
	for _, w := range c.Warnings {
		p.Warnings = append(p.Warnings, Warning{Offset: w.Offset, Message: w.Message})
	}
	return p
}

// newWords lists the argument words of a segment with expansions.
func newWords(s *chain.Segment) []Word {
	if !s.HasExpansions() {
		return nil
	}
	out := make([]Word, len(s.Words))
	for i, w := range s.Words {
		out[i] = Word{Text: s.WordText(i), Expanded: w.Fields, Glob: w.Globbed, Runtime: w.Runtime}
		if out[i].Expanded == nil {
			out[i].Expanded = []string{}
		}
	}
	return out
}

// Judge adds a policy's decision to the plan; nil adds nothing.
func (p *Plan) Judge(d *chain.Decision) { p.Decision = NewDecision(d) }
