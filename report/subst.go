package report

import "github.com/chainrun/chainrun/chain"

// Substitution is a command substitution of a segment as the plan shows
// it: where it is, and the argv of each segment of its inner chain, as
// planned, which runs (judged, audited) when its word expands, just
// before the segment starts. Substitutions nested in it are listed after
// it, each on its own (their spans lie inside its span), so the type
// holds no plan of its own.
type Substitution struct {
	Span Span `json:"span"`
	// Argv is each inner segment's argv; Ops joins them as Plan's do.
	Argv [][]string `json:"argv"`
	Ops  []chain.Op `json:"ops"`
}

// newSubstitutions lists a segment's substitutions, nested ones after
// the one holding them; nil when it has none.
func newSubstitutions(s *chain.Segment) []Substitution {
	var out []Substitution
	for _, sb := range s.Substs {
		e := Substitution{Span: newSpan(sb.Span), Argv: [][]string{}, Ops: []chain.Op{}}
		if ops := sb.Chain.SegmentOps(); ops != nil {
			e.Ops = ops
		}
		var nested []Substitution
		for _, in := range sb.Chain.Segments() {
			e.Argv = append(e.Argv, in.Args)
			nested = append(nested, newSubstitutions(in)...)
		}
		out = append(append(out, e), nested...)
	}
	return out
}
