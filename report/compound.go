package report

import "github.com/chainrun/chainrun/chain"

// Compound is a compound command (if, a loop, case, a group, a subshell)
// as the plan shows it: each part once, as planned, with the words the
// compound sets (the loop variable, assignments inside) marked runtime;
// each runs, and is judged again, when bash would run it, a loop's body
// every iteration.
type Compound struct {
	// Kind is the compound's keyword: "if", "for", "for ((", "while",
	// "until", "case", "{" or "(".
	Kind string `json:"kind"`
	// Var is the for loop's variable; Items the words of its list, or
	// the word case matches, as the plan expands them.
	Var   string `json:"var,omitempty"`
	Items []Word `json:"items,omitempty"`
	// Parts in source order.
	Parts []CompoundPart `json:"parts"`
}

// CompoundPart is one part of a compound: its role and its segments.
type CompoundPart struct {
	// Role is "condition", "body", "else", or for case "case PATTERN|…",
	// or for the C-style for the expression "init", "test" or "step"
	// (with Expr set and no segments).
	Role     string        `json:"role"`
	Expr     string        `json:"expr,omitempty"`
	Segments []PlanSegment `json:"segments"`
	Ops      []chain.Op    `json:"ops"`
}

// newCompound is the plan view of a segment's compound, nil when it is
// none.
func newCompound(s *chain.Segment) *Compound {
	c := s.Compound
	if c == nil {
		return nil
	}
	out := &Compound{Kind: string(c.Kind), Var: c.Var, Parts: []CompoundPart{}}
	if c.Items != nil {
		out.Items = compoundItems(c.Items)
	}
	add := func(role string, ch *chain.Chain) {
		p := NewPlan(ch, nil)
		out.Parts = append(out.Parts, CompoundPart{Role: role, Segments: p.Segments, Ops: p.Ops})
	}
	for i, a := range c.Arith {
		if a.Text != "" {
			out.Parts = append(out.Parts, CompoundPart{Role: [3]string{"init", "test", "step"}[i], Expr: a.Text,
				Segments: []PlanSegment{}, Ops: []chain.Op{}})
		}
	}
	for i, body := range c.Bodies {
		switch {
		case c.Kind == chain.CompoundCase:
			role := "case "
			for j, w := range c.Patterns[i] {
				if j > 0 {
					role += "|"
				}
				role += w.Fields[0] // the pattern as written
			}
			add(role, body)
			continue
		case i < len(c.Conds):
			add("condition", c.Conds[i])
		}
		add("body", body)
	}
	if c.Else != nil {
		add("else", c.Else)
	}
	return out
}

// compoundItems lists the words of a for list, or case's word.
func compoundItems(items *chain.Segment) []Word {
	if len(items.Assigns) == 1 {
		a := items.Assigns[0]
		return []Word{{Text: items.Text, Expanded: []string{a.Value}, Runtime: a.Runtime}}
	}
	out := make([]Word, len(items.Words))
	for i, w := range items.Words {
		out[i] = Word{Text: items.WordText(i), Expanded: w.Fields, Glob: w.Globbed, Runtime: w.Runtime}
		if out[i].Expanded == nil {
			out[i].Expanded = []string{}
		}
	}
	return out
}
