package expand

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
)

// Plan returns the chain as it would run from shell sh, as far as that
// can be known before anything runs: the plan the policy judges and an
// explain view shows. Each segment is expanded against the state the
// segments before it leave (the variables that NAME=value, export and
// unset set, the directory cd moves to) and the files on disk now. What
// cannot be known yet stays as written, its Word (Assign, Redirect) marked
// Runtime: $? after the first pipeline, a variable or directory changed
// in a pipeline that may be skipped, a glob after a segment that may
// create files. sh is not changed; a chain with nothing to expand is
// returned as it is.
//
// The plan's segments keep what they expand from, so each can be
// expanded again, for real, just before it starts (Segment). A
// command word that is known now and names a shell built-in chainrun does
// not run is refused here, before anything runs.
func Plan(c *chain.Chain, sh *Shell) (*chain.Chain, error) {
	if !c.NeedsPlan() {
		return c, nil // nothing to plan: the chain runs as written
	}
	p := sh.Clone()
	p.unknown, p.listed, p.runtimeValues = map[string]bool{}, map[string][]fs.DirEntry{}, map[string]bool{}
	p.unknown["!"] = true // a process id, known once the pipeline started
	return p.planChain(c)
}

// planChain plans c from p's state, which it changes: the whole chain,
// or the inner chain of a command substitution in a copy of the state
// its segment starts in (what the plan does not know stays unknown).
func (p *Shell) planChain(c *chain.Chain) (*chain.Chain, error) {
	out := *c
	out.Pipelines = make([]*chain.Pipeline, len(c.Pipelines))
	var gated *Shell
	for i, pl := range c.Pipelines {
		op := chain.OpSeq
		if i > 0 {
			op = c.Ops[i-1]
			p.markUnknown("?", true)
		}
		gated = p.gate(gated, op, i > 0 && (i == 1 || c.Ops[i-2] == chain.OpSeq))
		np, err := p.planPipeline(pl, gated, i == 0 || op == chain.OpSeq)
		if err != nil {
			return nil, err
		}
		out.Pipelines[i] = np
	}
	return &out, nil
}

// gate returns the state a pipeline after op is planned in when that is
// not p's: after "a && b" b runs only if a ran and succeeded, so what a
// did (cd x: the directory) holds for b for sure. gated is that state for
// the pipeline before, nil when it was p; prevSure says the pipeline
// before runs for sure. "a || b" and "a; b" end the run of &&: b may run
// where a did not.
func (p *Shell) gate(gated *Shell, op chain.Op, prevSure bool) *Shell {
	switch {
	case op != chain.OpAnd:
		return nil
	case gated != nil:
		gated.markUnknown("?", true)
		return gated
	case prevSure:
		return p.Clone()
	}
	return nil
}

// planPipeline plans one pipeline, in gated when it is set (else in p),
// and applies what it does to p, for sure when it runs for sure (sure),
// and to gated for sure.
func (p *Shell) planPipeline(pl *chain.Pipeline, gated *Shell, sure bool) (*chain.Pipeline, error) {
	run := p
	if gated != nil {
		run = gated
	}
	np := *pl
	np.Segments = make([]*chain.Segment, len(pl.Segments))
	for j, seg := range pl.Segments {
		st := run
		if len(pl.Segments) > 1 || pl.Background {
			st = run.Clone() // a pipeline stage, or a background pipeline, is a subshell
		}
		e, err := plan(seg, st)
		if err != nil {
			return nil, err
		}
		np.Segments[j] = e
		if len(pl.Segments) == 1 && !pl.Background {
			p.apply(e, sure)
			if gated != nil {
				gated.apply(e, true)
			}
		}
		p.touches(e)
		if gated != nil {
			gated.touches(e)
		}
	}
	return &np, nil
}

// plan expands one segment for the plan and records the directory it
// was planned in.
func plan(s *chain.Segment, sh *Shell) (*chain.Segment, error) {
	e, err := Segment(s, sh)
	if err != nil {
		if ee, ok := err.(*Error); ok && ee.Kind == chain.KindUnsupported {
			return nil, err
		}
		// An error such as $((1/0)) happens only if the segment is
		// reached; the run reports it there, as bash would.
		e = runtimeCopy(s)
	}
	if e == s {
		c := *s
		e = &c
	}
	if e.Substs, err = planSubsts(s.Substs, sh); err != nil {
		return nil, err
	}
	if s.Compound != nil {
		if e.Compound, err = planCompound(s.Compound, sh); err != nil {
			return nil, err
		}
	}
	e.Dir = sh.Dir
	if sh.unknown[sh.key("PWD")] {
		e.Dir = ""
	}
	return e, nil
}

// runtimeCopy is the segment with every expanding word known only at
// run time.
func runtimeCopy(s *chain.Segment) *chain.Segment {
	c := *s
	c.Words = append([]chain.Word(nil), s.Words...)
	for i := range c.Words {
		if c.Words[i].Expands {
			c.Words[i].Runtime = true
		}
	}
	return &c
}

// apply changes the plan's shell as the segment will change the real one:
// for sure when it runs in a pipeline that always runs (certain) and
// its values are known, else the names it sets become unknown.
func (p *Shell) apply(s *chain.Segment, certain bool) {
	switch {
	case s.Compound != nil:
		if s.Compound.Kind != chain.CompoundSubshell {
			p.forgetCompound(s.Compound, true)
		}
	case len(s.Args) == 0:
		for _, a := range s.Assigns {
			p.set(a.Name, a.Value, false, a.Runtime, certain, p.Assign)
		}
	case s.Builtin == chain.BuiltinExport:
		for _, a := range s.Args[1:] {
			// NAME=$X known only at run time: the name is written out,
			// the value not.
			name, value, hasValue := strings.Cut(a, "=")
			runtime := hasValue && strings.ContainsAny(value, "$`~*?[{")
			p.set(name, value, false, runtime, certain, func(n, v string) { p.Export(n, v, hasValue) })
		}
	case s.Builtin == chain.BuiltinUnset:
		for i, a := range s.Args[1:] {
			if a != "-v" && a != "--" {
				p.set(a, "", s.ArgRuntime(i+1), false, certain, func(n, _ string) { p.Unset(n) })
			}
		}
	case s.Builtin == chain.BuiltinCd:
		p.planCd(s, certain)
	case s.Builtin == chain.BuiltinPrintf:
		p.planPrintf(s)
	case s.Builtin == chain.BuiltinSet, s.Builtin == chain.BuiltinShift:
		p.planParams(s, certain)
	case s.Builtin == chain.BuiltinShopt:
		p.planShopt(s, certain)
	}
}

// planPrintf marks the variable printf -v NAME sets (spec.PrintfVar) as
// known only at run time: the plan does not run printf. A first word
// known only at run time may be -v: any variable may be set.
func (p *Shell) planPrintf(s *chain.Segment) {
	args := s.Args[1:]
	if len(args) > 0 && s.ArgRuntime(1) {
		p.markUnknown(anyName, true)
		return
	}
	name, rest, ok := spec.PrintfVar(args)
	switch {
	case !ok:
	case s.ArgRuntime(len(s.Args) - len(rest) - 1): // the word that holds NAME
		p.markUnknown(anyName, true)
	case chain.ValidName(name):
		p.markUnknown(name, true)
	}
}

// set applies do(name, value) to the plan's shell: nameRuntime and
// valueRuntime say the name or the value is known only at run time.
func (p *Shell) set(name, value string, nameRuntime, valueRuntime, certain bool, do func(name, value string)) {
	if nameRuntime {
		p.markUnknown(anyName, true) // unset $U: any variable may be the one
		return
	}
	if !chain.ValidName(name) {
		return
	}
	do(name, value)
	p.markUnknown(name, !certain || valueRuntime)
	if p.runtimeValues != nil {
		p.runtimeValues[p.key(name)] = valueRuntime
	}
}

// anyName in a plan's unknown set stands for every variable: one whose
// name is known only at run time was set or unset.
const anyName = "*"

// planCd follows a cd as the runner's will go (spec.Cd, bash's one cd:
// CDPATH, -L/-P, "-", OLDPWD, HOME) when it runs for sure, its words and
// the variables it reads are known, and its target is a directory now;
// any other leaves the directory unknown.
func (p *Shell) planCd(s *chain.Segment, certain bool) {
	if certain && !p.unknown[p.key("PWD")] && !slices.ContainsFunc(s.Argv()[1:], func(a chain.Arg) bool { return a.Runtime }) {
		known := true
		res, err := spec.Cd(p.Dir, s.Args[1:], spec.CdHooks{
			Lookup: func(name string) (string, bool) {
				v, ok := p.Lookup(name)
				known = known && !p.runtimeValues[p.key(name)] && !p.unknown[p.key(name)] && !p.unknown[anyName]
				return v, ok
			},
			Stat:    spec.StatDir,
			Resolve: spec.EvalSymlinks,
		})
		if known && err == nil && res.Dir != "" {
			p.Env = p.names().Set(p.Env, "OLDPWD", p.Dir)
			p.Dir = res.Dir
			p.Env = p.names().Set(p.Env, "PWD", p.Dir)
			return
		}
		if known && err == nil {
			return // cd "": stays
		}
	}
	p.markUnknown("PWD", true)
	p.markUnknown("OLDPWD", true)
	p.markUnknown("files", true)
}

// touches notes a segment that may create or remove files: a program
// Writes does not clear, and any segment writing to a file by a redirect.
// Globs after it are known only when they run.
func (p *Shell) touches(s *chain.Segment) {
	if s.Compound != nil {
		p.markUnknown("files", true) // what runs inside may write
		return
	}
	if len(s.Args) > 0 && !s.IsBuiltin() && p.mayWrite(s) {
		p.markUnknown("files", true)
		return
	}
	for _, r := range s.Redirects {
		if r.Op != chain.RedirIn && r.Op != chain.RedirDupIn && r.Op != chain.RedirDupOut && !r.Op.IsText() {
			p.markUnknown("files", true)
			return
		}
	}
}

// mayWrite reports whether the program of s may create or remove files:
// unless Writes says it does not, for an argv known in every word.
func (p *Shell) mayWrite(s *chain.Segment) bool {
	if p.Writes == nil || slices.ContainsFunc(s.Argv(), func(a chain.Arg) bool { return a.Runtime }) {
		return true
	}
	return p.Writes(s.Args)
}
