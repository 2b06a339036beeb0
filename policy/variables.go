package policy

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Segments that set the chain's variables: NAME=value alone, export and
// unset. They run nothing themselves; what they can do is change what
// later programs see. export puts a variable into the environment, and so
// does an assignment to a name that is exported already (PATH, HOME): each
// such name is judged by envAsk, the safe-list, an export's where it
// reaches a program or the chain's end (reach.go). An assignment to a name
// that is not exported only feeds expansions, which are judged where they
// are used, so it is free. unset only takes away.

// judgeAssignments decides a segment of assignments alone.
func (p *Policy) judgeAssignments(j *segJudgement) {
	var asks []string
	for _, a := range j.seg.Assigns {
		if r := p.assignAsk("the assignment "+a.Name+"=", a.Name); r != "" {
			asks = append(asks, r)
		}
	}
	if len(asks) > 0 {
		j.sd.Verdict = chain.Ask
		j.sd.Reasons = append(j.sd.Reasons, asks...)
		j.facts.hard = true
		return
	}
	j.sd.Verdict = chain.Allow
	j.reason("sets chain variables (an engine built-in)")
}

// assignAsk judges setting a shell variable (NAME=value alone, printf -v
// NAME): it reaches programs only when the name is exported, and then it
// is judged as export is.
func (p *Policy) assignAsk(how, name string) string {
	if !p.exported(name) {
		return ""
	}
	return envAsk(how+" changes an exported variable: it", name)
}

// exportAsks are the structural asks of an export: a name known only at
// run time, and a name off the safe-list that reaches a program or the
// chain's end (reach, exportReach), judged as NAME=v in front of it is.
func exportAsks(s *chain.Segment, reach func(name string) string) []string {
	if s.Builtin != chain.BuiltinExport {
		return nil
	}
	var asks []string
	for _, w := range segArgv(s)[1:] {
		arg, known := w.known()
		if !known && strings.Contains(w.show(), "=") {
			arg, known = w.show(), true // NAME=$X: the name is written out
		}
		name, _, _ := strings.Cut(arg, "=")
		if !known {
			asks = append(asks, "export "+w.show()+" names a variable known only at run time")
		} else if strings.HasPrefix(name, "-") {
			continue // an option (export -p)
		} else if r := envAsk("export", name); r != "" {
			if to := reachOf(reach, name); to != "" {
				asks = append(asks, r+"; "+to)
			}
		}
	}
	return asks
}

// reachOf is where name goes (exportReach); a segment judged without its
// chain's reach sends it everywhere.
func reachOf(reach func(string) string, name string) string {
	if reach == nil || !chain.ValidName(name) {
		return "every program after it gets it"
	}
	return reach(name)
}

// envAsks are the asks of the variables put into the segment's program's
// environment by the segment itself (NAME=v before it, env NAME=v, a
// shell body's assignments) and from outside the command line (ForEnv).
func (p *Policy) envAsks(a *analysis) []string {
	var asks []string
	for _, n := range a.envs {
		if r := envAsk("the assignment "+n+"=", n); r != "" && !slices.Contains(asks, r) {
			asks = append(asks, r)
		}
	}
	return asks
}

// givenAsks are the asks of the variables set from outside the command
// line (ForEnv), which every segment's program inherits.
func (p *Policy) givenAsks() []string {
	var asks []string
	for _, g := range p.given {
		if r := envAsk(g.how, g.name); r != "" {
			asks = append(asks, r)
		}
	}
	return asks
}

// givenVar is a variable set from outside the command line, and how.
type givenVar struct{ name, how string }

// ForEnv returns a copy of p that judges chains started with the
// environment env (NAME=value; nil means this process's), in which the
// variables named by given were set from outside the command line: the
// CLI's --env, the MCP server's env argument, the variables an MCP
// session carries from earlier calls. given maps each name to how it was
// set ("--env", "the env argument"). Every segment that runs something
// judges each given name as it judges NAME=v in front of it (asking for
// a name not on the safe-list); env tells which names are exported, so
// that an assignment alone to one of them (PATH=/x) is judged as an
// export.
func (p *Policy) ForEnv(env []string, given map[string]string) *Policy {
	q := *p
	q.environ = env
	q.given = nil
	for _, n := range slices.Sorted(func(yield func(string) bool) {
		for n := range given {
			if !yield(n) {
				return
			}
		}
	}) {
		q.given = append(q.given, givenVar{name: n, how: given[n]})
	}
	return &q
}
