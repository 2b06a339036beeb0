package expand

import (
	"io"

	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/chain"
)

// Substituter runs the inner chain of a command substitution in shell sh
// (the directory, environment and variables of the outer segment at that
// point; what the inner chain changes stays in it, as in bash's subshell)
// and writes its standard output to stdout. It returns the inner chain's
// status; an error fails the expansion of the outer segment.
type Substituter func(s *chain.Subst, sh *Shell, stdout io.Writer) (status int, err error)

// substMark is what a plan notes as read by a word holding a command
// substitution: its output is known only when it runs.
const substMark = "$("

// cmdSubst is mvdan's CmdSubst hook: in a plan the output is unknown
// (the word becomes Runtime and nothing runs); in a run the Shell's
// Substituter runs the inner chain. Without one, the substitution is
// refused rather than expanded to nothing.
func (s *Shell) cmdSubst(w io.Writer, cs *syntax.CmdSubst) error {
	var sb *chain.Subst
	if s.segment != nil {
		sb = s.segment.SubstAt(int(cs.Pos().Offset()))
	}
	if s.unknown != nil {
		if sb != nil {
			if out, ok := knownOutput(sb.Chain); ok {
				_, err := io.WriteString(w, out)
				return err
			}
		}
		if s.reads == nil {
			s.reads = map[string]bool{}
		}
		s.reads[substMark] = true
		return nil
	}
	if s.Substitute == nil || sb == nil {
		return unsupportedf("command substitution needs a runner to run its inner chain, and none is set")
	}
	status, err := s.Substitute(sb, s, w)
	s.substStatus, s.substituted = status, true
	return err
}

// knownOutput is the output of an inner chain a plan knows without
// running it: cat reading nothing but a heredoc body written out (cat
// <<'EOF' … EOF), the form agents write commit messages in. The run
// still runs it; the segment is judged again if what it printed differs.
func knownOutput(c *chain.Chain) (string, bool) {
	if len(c.Pipelines) != 1 || len(c.Pipelines[0].Segments) != 1 {
		return "", false
	}
	s := c.Pipelines[0].Segments[0]
	if len(s.Args) != 1 || s.Args[0] != "cat" || len(s.Assigns) > 0 || len(s.Redirects) != 1 || s.HasExpansions() {
		return "", false
	}
	r := s.Redirects[0]
	if r.Fd != 0 || r.Op != chain.RedirHeredoc && r.Op != chain.RedirHeredocTabs {
		return "", false
	}
	return r.Body, true
}

// SubstStatus reports the status of the last command substitution the
// shell ran and whether one ran: $? after a segment of assignments alone.
func (s *Shell) SubstStatus() (status int, ran bool) { return s.substStatus, s.substituted }

// planSubsts plans the inner chains of a segment's substitutions in a
// copy of sh: each runs in a subshell of the state the segment starts in.
func planSubsts(subs []*chain.Subst, sh *Shell) ([]*chain.Subst, error) {
	if len(subs) == 0 {
		return subs, nil
	}
	out := make([]*chain.Subst, len(subs))
	for i, sb := range subs {
		c := *sb
		if sb.Chain.NeedsPlan() {
			inner, err := sh.Clone().planChain(sb.Chain)
			if err != nil {
				return nil, err
			}
			c.Chain = inner
		}
		out[i] = &c
	}
	return out, nil
}
