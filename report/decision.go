package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Decision is the policy's judgement of a chain as chainrun shows it: on
// the wire inside the run report and the plan (its fields sit at the top
// level of both objects), in the audit log, and as text through Text. It
// is the one rendering of a chain.Decision, so every view carries the
// same facts: the verdict, why each segment got its verdict, why the chain
// as a whole did, and the settings entries that would allow it.
//
// A report without a decision has a nil *Decision, whose fields encoding/json
// leaves out. The tags' omitempty and omitzero say the same to a JSON-schema
// generator (the fields are not required); they never drop a field of a
// decision NewDecision made, whose lists are [] rather than nil.
type Decision struct {
	// Verdict is the strictest verdict over the segments and the chain.
	Verdict chain.Verdict `json:"decision,omitempty"`
	// Reasons has one judgement per segment, in chain order.
	Reasons []SegmentDecision `json:"reasons,omitzero"`
	// ChainReasons concern the chain as a whole (cd combined with git,
	// more segments than the cap, …); a chain asked or denied for one of
	// these alone says why only here.
	ChainReasons []string `json:"chain_reasons,omitzero"`
	// Suggestions are the entries of permissions.allow that would allow
	// the asked segments, as a user writes them: "Bash(git tag:*)",
	// "Edit(./notes.txt)".
	Suggestions []string `json:"suggestions,omitzero"`
}

// SegmentDecision is the policy's judgement of one segment.
type SegmentDecision struct {
	// Segment is the segment's index in the chain, from 0.
	Segment int `json:"segment"`
	// Text is the segment's source text. The text rendering quotes it;
	// the wire does not repeat it (a plan's segments carry their spans).
	Text string `json:"-"`
	// Verdict is allow, ask or deny.
	Verdict chain.Verdict `json:"verdict"`
	// Rule is the rule that decided, if one did.
	Rule string `json:"rule,omitempty"`
	// Reasons say why, one line each.
	Reasons []string `json:"reasons"`
}

// NewDecision renders a policy's decision; nil gives nil, which leaves
// the decision's fields out of a report. Its lists are never null.
func NewDecision(d *chain.Decision) *Decision {
	if d == nil {
		return nil
	}
	out := &Decision{
		Verdict:      d.Verdict,
		Reasons:      make([]SegmentDecision, len(d.Segments)),
		ChainReasons: nonNil(d.Chain),
		Suggestions:  nonNil(d.Suggestions),
	}
	for i, s := range d.Segments {
		out.Reasons[i] = SegmentDecision{Segment: s.Segment, Text: s.Text, Verdict: s.Verdict, Rule: s.Rule, Reasons: s.Reasons}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Text renders the decision for people and models: the verdict, one line
// per segment with its rule and reasons, the chain-wide reasons, and for
// an ask the settings entries that would allow it. The CLI's approval
// prompt and --explain and the MCP server's run and explain results all
// print this. With every false only the segments not allowed are listed
// (a prompt shows what it asks about); with every true, all of them.
func (d *Decision) Text(every bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "decision: %s\n", d.Verdict)
	for _, s := range d.Reasons {
		if s.Verdict == chain.Allow && !every {
			continue
		}
		fmt.Fprintf(&b, "  segment %d %s%s", s.Segment+1, quoted(s.Text), verdictText(s.Verdict))
		if s.Rule != "" {
			fmt.Fprintf(&b, " (rule %q)", s.Rule)
		}
		if len(s.Reasons) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(s.Reasons, "; "))
		}
		b.WriteByte('\n')
	}
	for _, r := range d.ChainReasons {
		fmt.Fprintf(&b, "  chain: %s\n", r)
	}
	if len(d.Suggestions) > 0 && d.Verdict == chain.Ask {
		b.WriteString("  to allow it, add to permissions.allow:")
		for _, s := range d.Suggestions {
			fmt.Fprintf(&b, " %s", strconv.Quote(s))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// quoted is a segment's text as the segment lines show it, followed by a
// space; nothing when the text is not known.
func quoted(text string) string {
	if text == "" {
		return ""
	}
	return strconv.Quote(text) + " "
}

// verdictText says what a segment's verdict does: "asks", "is denied".
func verdictText(v chain.Verdict) string {
	switch v {
	case chain.Ask:
		return "asks"
	case chain.Deny:
		return "is denied"
	case chain.Allow:
		return "is allowed"
	}
	return string(v)
}
