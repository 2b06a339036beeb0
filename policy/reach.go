package policy

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Where an exported variable goes. export NAME=v changes what every
// program started after it in the same shell sees: each later segment's
// program, the programs of their command substitutions, and, while NAME
// is still exported when the chain ends, whatever runs next with the
// chain's environment (an MCP session carries it to its later calls,
// which do not judge it again). So export is judged as NAME=v in front of
// each of them is (envAsk, the safe-list): a name off the list asks,
// naming the first program it reaches, unless an unset takes it away
// before any program starts and before the chain ends. An export in a
// pipeline of several stages runs in a subshell and reaches nothing.
//
// The engine judges a segment again as it starts, alone in its pipeline,
// once anything ran before it or one of its words was known only at run
// time; judged so, an export sees no unset after it and would ask, which
// stops a chain the plan let through. So the unset counts only for an
// export the chain starts with, every word known, which is not judged
// again.

// exportReach tells, per top-level segment of c, where the names its
// export puts into the environment go; nil for a segment that exports
// nothing.
func exportReach(c *chain.Chain) []func(name string) string {
	out := make([]func(string) string, len(c.Segments()))
	i := 0
	for k, pl := range c.Pipelines {
		for _, s := range pl.Segments {
			if s.Builtin == chain.BuiltinExport {
				out[i] = reachFrom(c, k, len(pl.Segments) > 1, i == 0 && !s.HasRuntime())
			}
			i++
		}
	}
	return out
}

// reachFrom is where a name exported by pipeline k goes: "" nowhere, else
// what gets it. piped says k is a pipeline of several stages (a subshell);
// first that an unset after it counts (see above).
func reachFrom(c *chain.Chain, k int, piped, first bool) func(string) string {
	return func(name string) string {
		if piped {
			return ""
		}
		// sure: pipeline m runs whenever the export ran. Every pipeline
		// from the export to it succeeds whenever it runs, so neither &&
		// nor set -e skips it, and none is exit.
		sure := true
		for m := k + 1; m < len(c.Pipelines); m++ {
			sure = sure && c.Ops[m-1] != chain.OpOr && alwaysSucceeds(c.Pipelines[m-1])
			for _, s := range c.Pipelines[m].Segments {
				if r := runsProgram(s); r != "" {
					return r + " gets it"
				}
			}
			if first && sure && unsets(c.Pipelines[m], name) {
				return ""
			}
		}
		return "it is still exported when the chain ends, and what runs next with the chain's environment gets it"
	}
}

// runsProgram names the first program a segment starts, its command
// substitutions' and a compound's parts' first: "" when it starts none (a built-in that runs
// nothing, assignments alone).
func runsProgram(s *chain.Segment) string {
	for _, ch := range s.Inner() {
		for _, in := range ch.Segments() {
			if r := runsProgram(in); r != "" {
				return r
			}
		}
	}
	if len(s.Args) == 0 || s.IsBuiltin() && s.Builtin != chain.BuiltinCommand {
		return ""
	}
	return "`" + shortText(s.Text) + "`"
}

// shortText is a segment's text for a reason: its first line, at most 60
// bytes of it.
func shortText(t string) string {
	t, _, _ = strings.Cut(t, "\n")
	if len(t) > 60 {
		t = t[:57] + "..."
	}
	return t
}

// alwaysSucceeds reports a pipeline whose status is 0 whenever it runs:
// true, or an export, unset or assignment alone of names known and valid,
// with no redirect and no substitution.
func alwaysSucceeds(pl *chain.Pipeline) bool {
	if len(pl.Segments) != 1 {
		return false
	}
	s := pl.Segments[0]
	if len(s.Redirects) > 0 || len(s.Substs) > 0 || s.HasRuntime() {
		return false
	}
	switch s.Builtin {
	case chain.BuiltinTrue:
		return true
	case chain.BuiltinExport, chain.BuiltinUnset:
		return !slices.ContainsFunc(s.Args[1:], func(a string) bool {
			name, _, _ := strings.Cut(a, "=")
			return !chain.ValidName(name)
		})
	}
	return len(s.Args) == 0
}

// unsets reports a pipeline that unsets the variable name: unset NAME
// alone, every word known, with no redirect (one that fails to open
// keeps unset from running).
func unsets(pl *chain.Pipeline, name string) bool {
	if len(pl.Segments) != 1 {
		return false
	}
	s := pl.Segments[0]
	if s.Builtin != chain.BuiltinUnset || s.HasRuntime() || len(s.Redirects) > 0 || slices.Contains(s.Args, "-f") {
		return false
	}
	return slices.Contains(s.Args[1:], name)
}
