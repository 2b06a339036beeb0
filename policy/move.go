package policy

import (
	"path/filepath"

	"github.com/chainrun/chainrun/chain"
)

// A Move is a change of directory made before a chain and outside its
// command line: an MCP call's dir argument, or an MCP session's directory
// carried over from a cd in an earlier call. The chain is judged as if it
// began with `cd To`: its target is judged as judgeCd judges a cd's, and
// a program that obeys the repository's configuration (git) asks, as cd
// combined with git does, when the new directory belongs to another
// repository than From (repo.go): the configuration it obeys is then
// another one.
type Move struct {
	// From is where the moves began (the session's first directory); To
	// is the directory the chain starts in.
	From, To string
	// Via names the move in reasons: "the call's dir argument".
	Via string
	// Judged is set when To was judged when the move was made (a cd in an
	// earlier chain, approved there where it asked): its target is not
	// judged again, but the chain-wide checks still count the move.
	Judged bool
}

// After returns a copy of p that judges chains as started after the move
// m. A policy with no roots takes m.From as its root, as a chain's cd
// keeps the roots of the directory the chain started in.
//
// The move's reasons go on the segments they concern, not on the chain:
// a segment judged again as it starts (alone, from where it starts) then
// meets the same reasons it met before the run.
func (p *Policy) After(m Move) *Policy {
	q := *p
	if m.From == "" || m.To == "" || filepath.Clean(m.From) == filepath.Clean(m.To) {
		q.move = nil
		return &q
	}
	q.move = &m
	if len(q.Roots) == 0 {
		q.Roots = []string{m.From}
	}
	return &q
}

// judgeMove adds the move's reasons to the decisions of segs: to every
// segment when its target leaves the roots or is sensitive (the whole
// chain runs there), to each segment that runs git. They ask as the
// chain-wide checks do: bypassPermissions lifts them but for a sensitive
// target, the classifier does not. git asks only where To belongs to
// another repository than From.
func (p *Policy) judgeMove(env *pathEnv, d *chain.Decision, facts []segFacts) {
	m := p.move
	if m == nil {
		return
	}
	target, hard := "", false
	if !m.Judged {
		target, hard = env.judgeDir(m.Via+" "+quoteArg(m.To), cachedResolve(m.To))
	}
	repo := otherRepo(cachedResolve(m.From), cachedResolve(m.To))
	for i := range d.Segments {
		sd, f := &d.Segments[i], &facts[i]
		var asks []string
		if target != "" {
			asks = append(asks, target)
		}
		if f.git && repo != "" {
			asks = append(asks, "git after "+m.Via+" moved the chain to "+quoteArg(m.To)+", where "+repo+": "+cdGitRisk)
		}
		if len(asks) == 0 || sd.Verdict == chain.Deny {
			continue
		}
		sd.Reasons = append(asks, sd.Reasons...)
		sd.Verdict = chain.Ask
		f.hard = f.hard || hard
		f.moved = true
	}
}
