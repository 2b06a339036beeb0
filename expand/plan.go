package expand

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
	if !c.HasExpansions() {
		return c, nil // nothing to plan: the chain runs as written
	}
	p := sh.Clone()
	p.unknown, p.listed, p.runtimeValues = map[string]bool{}, map[string][]fs.DirEntry{}, map[string]bool{}
	out := *c
	out.Pipelines = make([]*chain.Pipeline, len(c.Pipelines))
	for i, pl := range c.Pipelines {
		if i > 0 {
			p.markUnknown("?", true)
		}
		certain := i == 0 || c.Ops[i-1] == chain.OpSeq
		np := *pl
		np.Segments = make([]*chain.Segment, len(pl.Segments))
		for j, seg := range pl.Segments {
			st := p
			if len(pl.Segments) > 1 {
				st = p.Clone() // a pipeline stage is a subshell
			}
			e, err := plan(seg, st)
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

// planCd follows a cd whose target is known and exists now; any other
// leaves the directory unknown.
func (p *Shell) planCd(s *chain.Segment, certain bool) {
	args := s.Args[1:]
	physical := len(args) > 0 && args[0] == "-P"
	if len(args) > 0 && (args[0] == "-L" || args[0] == "-P" || args[0] == "--") {
		args = args[1:]
	}
	target, ok := "", certain && len(args) <= 1 && !physical
	if _, cdpath := p.Lookup("CDPATH"); cdpath {
		ok = false
	}
	runtime := false
	switch {
	case !ok:
	case len(args) == 0:
		target, ok = p.Lookup("HOME")
		runtime = p.runtimeValues[p.key("HOME")]
	case args[0] == "-":
		target, ok = p.Lookup("OLDPWD")
		runtime = p.runtimeValues[p.key("OLDPWD")]
	default:
		target, runtime = args[0], s.ArgRuntime(len(s.Args)-1)
	}
	if ok && !runtime && !p.unknown[p.key("PWD")] {
		if !filepath.IsAbs(target) {
			// As written, as the engine's cd checks it: missing/.. fails.
			target = p.Dir + string(filepath.Separator) + target
		}
		if fi, err := os.Stat(target); err == nil && fi.IsDir() {
			p.Env = p.names().Set(p.Env, "OLDPWD", p.Dir)
			p.Dir = filepath.Clean(target)
			p.Env = p.names().Set(p.Env, "PWD", p.Dir)
			return
		}
	}
	p.markUnknown("PWD", true)
	p.markUnknown("OLDPWD", true)
	p.markUnknown("files", true)
}

// touches notes a segment that may create or remove files: any program,
// and any built-in writing to a file. Globs after it are known only when
// they run.
func (p *Shell) touches(s *chain.Segment) {
	if len(s.Args) > 0 && !s.IsBuiltin() {
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
