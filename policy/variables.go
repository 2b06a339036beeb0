package policy

import (
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Segments that set the chain's variables: NAME=value alone, export and
// unset. They run nothing themselves; what they can do is change what
// later programs see, so a variable that makes programs run other code
// (PAGER, LD_PRELOAD, PATH, GIT_SSH_COMMAND, …) asks, as it does in front
// of a command, and the rest is an engine built-in's work. unset only
// takes away.

// judgeAssignments decides a segment of assignments alone. Such a
// variable is exported when it already is, so it is judged as an export.
func judgeAssignments(j *segJudgement) {
	var asks []string
	for _, a := range j.seg.Assigns {
		if isCodeRunnerEnv(a.Name) {
			asks = append(asks, "assignment "+a.Name+"= can make later programs run other code")
		}
	}
	if len(asks) > 0 {
		j.sd.Verdict = chain.Ask
		j.sd.Reasons = append(j.sd.Reasons, asks...)
		return
	}
	j.sd.Verdict = chain.Allow
	j.reason("sets chain variables (an engine built-in)")
}

// exportAsks are the structural asks of an export: a code-running
// variable, or a name known only at run time.
func exportAsks(s *chain.Segment) []string {
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
		switch {
		case !known:
			asks = append(asks, "export "+w.show()+" names a variable known only at run time")
		case isCodeRunnerEnv(name):
			asks = append(asks, "export "+name+" can make later programs run other code")
		}
	}
	return asks
}
