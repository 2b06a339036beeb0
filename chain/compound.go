package chain

import "github.com/chainrun/chainrun/internal/expr"

// CompoundKind names a compound command.
type CompoundKind string

// The compound commands chainrun runs, with bash's meaning.
const (
	CompoundGroup    CompoundKind = "{"      // { list; }: runs in the chain's own state
	CompoundSubshell CompoundKind = "("      // ( list ): runs in a copy of the state
	CompoundIf       CompoundKind = "if"     // if/elif/else/fi
	CompoundWhile    CompoundKind = "while"  // while cond; do body; done
	CompoundUntil    CompoundKind = "until"  // until cond; do body; done
	CompoundFor      CompoundKind = "for"    // for NAME in words; do body; done
	CompoundArithFor CompoundKind = "for ((" // for ((init; cond; post)); do body; done
	CompoundCase     CompoundKind = "case"   // case word in pattern) list;; esac
)

// Compound is a compound command: a segment whose parts are inner chains
// (conditions, bodies), each parsed with the same refusals as any chain,
// judged before anything runs, and run when bash would run it, in the
// chain's state (except a subshell's, and a pipeline stage's, which run
// in a copy). Its segment holds the compound's own redirects and has no
// words.
type Compound struct {
	Kind CompoundKind
	// Conds are if's and elif's conditions in order, or the while or
	// until condition.
	Conds []*Chain
	// Bodies are what runs: Bodies[i] after Conds[i] for if, the loop
	// body or the list of a group or subshell as Bodies[0], the list of
	// each case item in order.
	Bodies []*Chain
	// Else is if's else branch, nil when it has none.
	Else *Chain
	// Var is the for loop's variable.
	Var string
	// Items holds, as its Words, the words of for's list; for case, its
	// one Assign's value is the word case matches (expanded as an
	// assignment's value is: no splitting, no globbing). Substitutions in
	// them are its Substs.
	Items *Segment
	// Patterns are each case item's patterns; CaseOps how each item ends
	// (";;", ";&" or ";;&").
	Patterns [][]Word
	CaseOps  []string
	// Arith are the C-style for loop's three expressions, as written
	// ("" when one is empty), with what they evaluate from.
	Arith [3]Arith
	// Iterations are, in a plan, the for loop's body planned once for
	// each word of a list the plan knows (up to MaxPlannedIterations),
	// with the variable set to it: the policy judges each, so that
	// for c in rm; do $c -rf x; done is judged as rm -rf x before the run.
	Iterations []*Chain
}

// MaxPlannedIterations bounds the iterations of a for loop a plan
// judges one by one; a longer list is judged through the body alone.
const MaxPlannedIterations = 32

// Arith is an arithmetic expression of a C-style for loop.
type Arith struct {
	Text string
	Expr expr.Arith
}

// Inner lists the chains the compound may run: its conditions, bodies and
// else branch, and the inner chains of the substitutions in its words, in
// source order within each group. The policy judges each before the run.
func (c *Compound) Inner() []*Chain {
	var out []*Chain
	if c.Items != nil {
		for _, sb := range c.Items.Substs {
			out = append(out, sb.Chain)
		}
	}
	out = append(out, c.Conds...)
	out = append(out, c.Bodies...)
	if c.Else != nil {
		out = append(out, c.Else)
	}
	return append(out, c.Iterations...)
}

// Inner lists every chain the segment may run besides its own program:
// its substitutions' and, for a compound, its parts (Compound.Inner).
func (s *Segment) Inner() []*Chain {
	var out []*Chain
	for _, sb := range s.Substs {
		out = append(out, sb.Chain)
	}
	if s.Compound != nil {
		out = append(out, s.Compound.Inner()...)
	}
	return out
}

// IsLoop reports a compound that break and continue act on.
func (c *Compound) IsLoop() bool {
	return c.Kind == CompoundWhile || c.Kind == CompoundUntil || c.Kind == CompoundFor || c.Kind == CompoundArithFor
}

// CompoundFrame is the segment the policy judges, and the runner judges
// again, for a compound's own redirects ({ …; } > out, done < in): the
// built-in true with them, which opens them as the compound does.
func (s *Segment) CompoundFrame() *Segment {
	f := *s
	f.Compound = nil
	f.Args, f.Builtin = []string{string(BuiltinTrue)}, BuiltinTrue
	f.Words = []Word{{Span: Span{s.Span.Start, s.Span.Start}, Fields: f.Args}}
	return &f
}

// ChainText is the text of c in its Source, from its first pipeline to
// its last, for messages and audit records.
func ChainText(c *Chain) string {
	if len(c.Pipelines) == 0 {
		return ""
	}
	sp := Span{c.Pipelines[0].Span.Start, c.Pipelines[len(c.Pipelines)-1].Span.End}
	if 0 <= sp.Start && sp.Start <= sp.End && sp.End <= len(c.Source) {
		return c.Source[sp.Start:sp.End]
	}
	return ""
}
