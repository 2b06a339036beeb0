package policy

import (
	"context"

	"github.com/chainrun/chainrun/chain"
)

// Compound commands. Each part of an if, a loop, a case, a group or a
// subshell (conditions, bodies, the substitutions in a for list or case
// word) is judged before anything runs, as a chain of its own, in the
// directory the compound's segment is planned in: the compound's segment
// gets the strictest verdict, so a deny anywhere inside denies the whole
// chain and an ask asks once for it. Words set inside (the loop
// variable, assignments) are known only at run time in the plan; when
// the engine runs a part it judges it again with its words as they are
// then, each iteration. A for loop whose list the plan knows is judged
// iteration by iteration instead of through its body alone: the
// variable is then known, as it will be.
func (p *Policy) judgeCompound(ctx context.Context, s *chain.Segment, at string, sd *chain.SegmentDecision) error {
	if s.Compound == nil {
		return nil
	}
	c := s.Compound
	for _, ch := range c.Inner() {
		if len(c.Iterations) > 0 && ch == c.Bodies[0] {
			continue // each iteration is judged with the words it will run
		}
		if len(ch.Pipelines) == 0 {
			continue
		}
		inner, err := p.Authorize(ctx, ch, at)
		if err != nil {
			return err
		}
		foldInner(sd, chain.ChainText(ch), inner)
	}
	return nil
}
