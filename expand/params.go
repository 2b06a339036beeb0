package expand

import (
	"slices"
	"strconv"

	shexpand "mvdan.cc/sh/v3/expand"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
)

// paramsKey is the key a plan marks the positional parameters unknown
// by: after a set or shift whose words or run it cannot know.
const paramsKey = "@"

// param is a positional parameter as expansion reads it: $1 …, $# and
// the list $@ and $* expand from.
func (s *Shell) param(name string) shexpand.Variable {
	s.read(paramsKey)
	switch name {
	case "#":
		return str(strconv.Itoa(len(s.Params)))
	case "@", "*":
		return shexpand.Variable{Set: true, Kind: shexpand.Indexed, List: s.Params}
	}
	n, err := strconv.Atoi(name)
	if err != nil || n < 1 || n > len(s.Params) {
		return shexpand.Variable{}
	}
	return str(s.Params[n-1])
}

// planParams follows set -- and shift in a plan: when the segment runs
// for sure and its words are known, the parameters are what it leaves;
// otherwise they are known only at run time from here on.
func (p *Shell) planParams(s *chain.Segment, certain bool) {
	if s.Builtin == chain.BuiltinSet {
		if _, ok := spec.SetOperands(s.Args[1:]); !ok && !anyRuntime(s) {
			return // options only: the parameters stay
		}
	}
	if !certain || anyRuntime(s) || p.unknown[paramsKey] {
		p.markUnknown(paramsKey, true)
		return
	}
	if s.Builtin == chain.BuiltinSet {
		p.Params, _ = spec.SetOperands(s.Args[1:])
		return
	}
	n := 1
	if len(s.Args) > 1 {
		v, err := strconv.Atoi(s.Args[1])
		if err != nil || len(s.Args) > 2 || v < 0 {
			return // fails, changing nothing
		}
		n = v
	}
	if n <= len(p.Params) {
		p.Params = p.Params[n:]
	}
}

// anyRuntime reports a segment with a word known only at run time.
func anyRuntime(s *chain.Segment) bool {
	return slices.ContainsFunc(s.Argv(), func(a chain.Arg) bool { return a.Runtime })
}
