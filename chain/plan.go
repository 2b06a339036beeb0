package chain

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
)

// Expand returns the chain as it would run from shell sh, as far as that
// can be known before anything runs: the plan the policy judges and an
// explain view shows. Each segment is expanded against the state the
// segments before it leave (the variables that NAME=value, export and
// unset set, the directory cd moves to) and the files on disk now. What
// cannot be known yet becomes an unknown word and its Word is marked
// Runtime: $? after the first pipeline, a variable or directory changed
// in a pipeline that may be skipped, a glob after a segment that may
// create files. sh is not changed; a chain with nothing to expand is
// returned as it is.
//
// The plan's segments keep what they expand from, so each can be
// expanded again, for real, just before it starts (Segment.Expand). A
// command word that is known now and names a shell built-in chainrun does
// not run is refused here, before anything runs.
func (c *Chain) Expand(sh *Shell) (*Chain, error) {
	if !c.NeedsPlan() {
		return c, nil // nothing to plan: the chain runs as written
	}
	p := sh.Clone()
	p.unknown, p.listed = map[string]bool{}, map[string][]fs.DirEntry{}
	out := *c
	out.Pipelines = make([]*Pipeline, len(c.Pipelines))
	for i, pl := range c.Pipelines {
		if i > 0 {
			p.markUnknown("?", true)
		}
		certain := i == 0 || c.Ops[i-1] == OpSeq
		np := *pl
		np.Segments = make([]*Segment, len(pl.Segments))
		for j, seg := range pl.Segments {
			st := p
			if len(pl.Segments) > 1 {
				st = p.Clone() // a pipeline stage is a subshell
			}
			e, err := seg.plan(st)
			if err != nil {
				return nil, err
			}
			np.Segments[j] = e
			if len(pl.Segments) == 1 {
				p.apply(e, certain)
			}
			p.touches(e)
		}
		out.Pipelines[i] = &np
	}
	return &out, nil
}

// NeedsPlan reports whether the chain has anything a plan computes: a
// word that expands, or a cd, whose directory the policy takes from the
// plan (it knows CDPATH, HOME and OLDPWD).
func (c *Chain) NeedsPlan() bool {
	for _, p := range c.Pipelines {
		for _, s := range p.Segments {
			if s.Builtin == BuiltinCd {
				return true
			}
		}
	}
	return c.HasExpansions()
}

// HasExpansions reports whether any segment expands anything.
func (c *Chain) HasExpansions() bool {
	for _, p := range c.Pipelines {
		for _, s := range p.Segments {
			if s.HasExpansions() {
				return true
			}
		}
	}
	return false
}

// plan expands one segment for the plan and records the directory it
// was planned in.
func (s *Segment) plan(sh *Shell) (*Segment, error) {
	e, err := s.Expand(sh)
	if err != nil {
		if ee, ok := err.(*ExpandError); ok && ee.Kind == KindUnsupported {
			return nil, err
		}
		// An error such as $((1/0)) happens only if the segment is
		// reached; the run reports it there, as bash would.
		e = s.runtimeCopy()
	}
	if e == s {
		c := *s
		e = &c
	}
	e.Dir = sh.Dir
	if sh.unknown[sh.key("PWD")] {
		e.Dir = ""
	}
	return e, nil
}

// runtimeCopy is the segment with every expanding word unknown.
func (s *Segment) runtimeCopy() *Segment {
	c := *s
	c.Words = append([]Word(nil), s.Words...)
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
func (p *Shell) apply(s *Segment, certain bool) {
	switch {
	case len(s.Args) == 0:
		for _, a := range s.Assigns {
			p.set(a.Name, a.Value, certain, p.Assign)
		}
	case s.Builtin == BuiltinExport:
		for _, a := range s.Args[1:] {
			if IsUnknown(a) {
				a = UnknownSource(a) // NAME=$X: the name is known, the value not
			}
			name, value, hasValue := strings.Cut(a, "=")
			if hasValue && strings.ContainsAny(value, "$`~*?[{") {
				value = Unknown(value)
			}
			p.set(name, value, certain, func(n, v string) { p.Export(n, v, hasValue) })
		}
	case s.Builtin == BuiltinUnset:
		for _, a := range s.Args[1:] {
			if a != "-v" && a != "--" {
				p.set(a, "", certain, func(n, _ string) { p.Unset(n) })
			}
		}
	case s.Builtin == BuiltinCd:
		p.planCd(s, certain)
	case s.Builtin == BuiltinPrintf:
		p.planPrintf(s)
	}
}

// planPrintf marks the variable printf -v NAME sets (spec.PrintfVar) as
// known only at run time: the plan does not run printf. A first word
// known only at run time may be -v: any variable may be set.
func (p *Shell) planPrintf(s *Segment) {
	args := s.Args[1:]
	if len(args) > 0 && IsUnknown(args[0]) {
		p.markUnknown(anyName, true)
		return
	}
	name, _, ok := spec.PrintfVar(args)
	switch {
	case !ok:
	case IsUnknown(name):
		p.markUnknown(anyName, true)
	case validName(name):
		p.markUnknown(name, true)
	}
}

func (p *Shell) set(name, value string, certain bool, do func(name, value string)) {
	if IsUnknown(name) {
		p.markUnknown(anyName, true) // unset $U: any variable may be the one
		return
	}
	if !validName(name) {
		return
	}
	known := certain && !IsUnknown(value)
	do(name, value)
	p.markUnknown(name, !known)
}

// anyName in a plan's unknown set stands for every variable: one whose
// name is known only at run time was set or unset.
const anyName = "*"

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" || isDigitByte(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// planCd follows a cd as the runner's will go (spec.Cd, bash's one cd:
// CDPATH, -L/-P, "-", OLDPWD, HOME) when it runs for sure, its words and
// the variables it reads are known, and its target is a directory now;
// any other leaves the directory unknown.
func (p *Shell) planCd(s *Segment, certain bool) {
	if certain && !p.unknown[p.key("PWD")] && !slices.ContainsFunc(s.Args[1:], IsUnknown) {
		known := true
		res, err := spec.Cd(p.Dir, s.Args[1:], spec.CdHooks{
			Lookup: func(name string) (string, bool) {
				v, ok := p.Lookup(name)
				known = known && !IsUnknown(v) && !p.unknown[p.key(name)] && !p.unknown[anyName]
				return v, ok
			},
			Stat:    spec.StatDir,
			Resolve: spec.EvalSymlinks,
		})
		if known && err == nil && res.Dir != "" {
			p.Env = p.Names.Set(p.Env, "OLDPWD", p.Dir)
			p.Dir = res.Dir
			p.Env = p.Names.Set(p.Env, "PWD", p.Dir)
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

// touches notes a segment that may create or remove files: any program,
// and any built-in writing to a file. Globs after it are known only when
// they run.
func (p *Shell) touches(s *Segment) {
	if len(s.Args) > 0 && !s.IsBuiltin() {
		p.markUnknown("files", true)
		return
	}
	for _, r := range s.Redirects {
		if r.Op != RedirIn && r.Op != RedirDupIn && r.Op != RedirDupOut && !r.Op.IsText() {
			p.markUnknown("files", true)
			return
		}
	}
}
