package policy

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
)

// Engine built-ins are judged by what they declare they do (spec.All):
// the variables they set are judged as assignments are, the files whose
// metadata they read as reads (Read deny rules apply), and cd's directory
// as judgeCd judges it. export keeps its own check (exportAsks), which
// reads NAME=$X words.

// builtinEffects returns the effects of the segment's engine built-in,
// or false when it runs none.
func builtinEffects(s *chain.Segment) (effects, bool) {
	if s.Builtin == "" || len(s.Args) == 0 {
		return effects{}, false
	}
	b, ok := spec.Lookup(string(s.Builtin))
	if !ok {
		return effects{}, false
	}
	e := b.Effects(s.Args[1:])
	var argv []word // the words effectWords looks at: those known only at run time
	if s.HasRuntime() {
		argv = segArgv(s)
	}
	return effects{assigns: effectWords(e.Assigns, argv), stats: effectWords(e.Stats, argv)}, true
}

// effects are the effects of a built-in the policy judges, the names and
// files they name typed: spec reads the words' texts, and a name or file
// taken from a word known only at run time is known only at run time.
type effects struct {
	assigns, stats []word
}

// effectWords types the names or files ss a built-in's effects took from
// argv: one that may come from a word known only at run time (a part of
// its source text) is unknown too.
func effectWords(ss []string, argv []word) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = lit(s)
		for _, w := range argv {
			if s != "" && w.isUnknown() && strings.Contains(w.show(), s) {
				out[i] = unknownWord(s)
				break
			}
		}
	}
	return out
}

// builtinAsks are the structural asks of a built-in that sets variables
// (printf -v NAME): it is judged as an assignment alone is (assignAsk),
// and a name known only at run time asks.
func (p *Policy) builtinAsks(s *chain.Segment) []string {
	e, ok := builtinEffects(s)
	if !ok || s.Builtin == chain.BuiltinExport {
		return nil
	}
	var asks []string
	for _, w := range e.assigns {
		if name, ok := w.known(); !ok {
			asks = append(asks, string(s.Builtin)+" sets a variable whose name ("+w.show()+") is known only at run time")
		} else if r := p.assignAsk(string(s.Builtin)+" -v "+name, name); r != "" {
			asks = append(asks, r)
		}
	}
	return asks
}

// builtinFiles are the files a built-in's effects name beyond the
// path-like words every command's are judged as (pathLikeFiles): test -f
// x reads x's metadata, a read for the path rules.
func builtinFiles(s *chain.Segment) []fileArg {
	e, ok := builtinEffects(s)
	if !ok || len(e.stats) == 0 {
		return nil
	}
	judged := pathLikeFiles(segArgv(s))
	var files []fileArg
	for _, w := range e.stats {
		if w.is("") || slices.ContainsFunc(judged, func(f fileArg) bool { return sameWord(f.word, w) }) {
			continue
		}
		files = append(files, fileArg{word: w, role: roleStat, what: "the metadata of"})
	}
	return files
}

// cdWhere is where a cd goes, as the policy can know it before the run.
type cdWhere struct {
	target  string // the operand as written ($HOME's value without one), for reasons
	logical string // the new logical directory; "" when cd stays
	unknown string // why the directory is known only at run time
	fails   string // why cd fails and stays
}

// cdTarget is where the cd segment s goes from at: the plan's directory
// for the segment after it when the chain was planned (the plan knows the
// environment: HOME, OLDPWD, CDPATH), else spec.Cd's with HOME the home
// directory and no CDPATH but one the chain sets.
func (e *pathEnv) cdTarget(s *chain.Segment, at where) cdWhere {
	args := s.Args[1:]
	w := cdWhere{target: e.homeDir()}
	if _, operands, _ := spec.PhysicalOption(args); len(operands) > 0 {
		w.target = operands[0]
	}
	if d := e.planned[s]; d != "" {
		w.logical = d
		return w
	}
	cdpath := e.setsCdPath(s)
	res, err := spec.Cd(at.logical, args, spec.CdHooks{
		Lookup: func(name string) (string, bool) {
			switch {
			case name == "HOME":
				return e.homeDir(), true
			case name == "OLDPWD":
				w.unknown = "cd - goes to a directory not known before the chain runs"
			case name == "CDPATH" && cdpath:
				w.unknown = "cd " + quoteArg(w.target) + " is searched for in CDPATH, which the chain sets: it may go anywhere"
			}
			return "", false
		},
		// The directory may be made by an earlier segment: cd is judged
		// as if it succeeds.
		Stat:    func(string) error { return nil },
		Resolve: resolvePath,
	})
	switch ce, _ := err.(*spec.CdError); {
	case w.unknown != "":
	case ce != nil && ce.Code == 2:
		w.fails = "cd " + quoteArg(ce.Arg) + " is an invalid option: cd fails and stays"
	case ce != nil && len(args) > 1:
		w.fails = "cd with more than one operand fails and stays"
	case err == nil:
		w.logical = res.Dir
	}
	return w
}

// setsCdPath reports whether CDPATH may be set for cd segment s by the
// chain: by its own assignment, or by a segment before it (NAME=value,
// export, or a built-in's effects: printf -v CDPATH).
func (e *pathEnv) setsCdPath(s *chain.Segment) bool {
	for _, a := range s.Assigns {
		if strings.EqualFold(a.Name, "CDPATH") {
			return true
		}
	}
	return e.cdpathAt >= 0 && s.Index > e.cdpathAt
}

// firstCdPathSet is the index of the first of segs that may set CDPATH,
// or -1.
func firstCdPathSet(segs []*chain.Segment) int {
	for _, s := range segs {
		if len(s.Args) == 0 {
			for _, a := range s.Assigns {
				if strings.EqualFold(a.Name, "CDPATH") {
					return s.Index
				}
			}
		} else if e, ok := builtinEffects(s); ok && slices.ContainsFunc(e.assigns, mayBeCdPath) {
			return s.Index
		}
	}
	return -1
}

// mayBeCdPath reports a variable name that is, or may be, CDPATH.
func mayBeCdPath(w word) bool {
	name, ok := w.known()
	return !ok || strings.EqualFold(name, "CDPATH")
}

// plannedDirs maps each cd of a planned chain that is a pipeline of its
// own to the directory the plan says the next pipeline starts in, when
// that is known: the directory the cd leads to.
func plannedDirs(c *chain.Chain) map[*chain.Segment]string {
	var m map[*chain.Segment]string
	for i, pl := range c.Pipelines {
		if len(pl.Segments) != 1 || pl.Segments[0].Builtin != chain.BuiltinCd || i+1 >= len(c.Pipelines) {
			continue
		}
		if d := c.Pipelines[i+1].Segments[0].Dir; d != "" && pl.Segments[0].Dir != "" {
			if m == nil {
				m = map[*chain.Segment]string{}
			}
			m[pl.Segments[0]] = d
		}
	}
	return m
}
