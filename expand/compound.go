package expand

import (
	"regexp"

	shexpand "mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/expr"
)

// planCompound plans a compound's parts from the state its segment starts
// in. The for list and case word are expanded once, before anything of
// the compound runs. Every condition and body is planned on its own in a
// state where what the compound may set (the loop variable, assignments,
// read, cd, $?) is unknown: a loop runs its body many times, each seeing
// what the last left, so the plan shows each body once with those words
// known only at run time.
func planCompound(c *chain.Compound, sh *Shell) (*chain.Compound, error) {
	out := *c
	if c.Items != nil {
		items, err := plan(c.Items, sh.Clone())
		if err != nil {
			return nil, err
		}
		out.Items = items
	}
	inside := sh.Clone()
	inside.forgetCompound(c, true)
	part := func(ch *chain.Chain) (*chain.Chain, error) {
		if ch == nil {
			return nil, nil
		}
		return inside.Clone().planChain(ch)
	}
	var err error
	out.Conds = make([]*chain.Chain, len(c.Conds))
	for i, ch := range c.Conds {
		if out.Conds[i], err = part(ch); err != nil {
			return nil, err
		}
	}
	out.Bodies = make([]*chain.Chain, len(c.Bodies))
	for i, ch := range c.Bodies {
		if out.Bodies[i], err = part(ch); err != nil {
			return nil, err
		}
	}
	if out.Else, err = part(c.Else); err != nil {
		return nil, err
	}
	if out.Iterations, err = planIterations(&out, sh); err != nil {
		return nil, err
	}
	return &out, nil
}

// planIterations plans a for loop's body once for each word of its list
// when the plan knows them all and they are few: each with the variable
// known, what else the body sets unknown. A command word known only at
// run time is taken to set nothing here: each iteration is judged in
// addition to the body planned on its own, which assumes the worst.
func planIterations(c *chain.Compound, sh *Shell) ([]*chain.Chain, error) {
	if c.Kind != chain.CompoundFor || c.Items.HasRuntime() || len(c.Items.Args) > chain.MaxPlannedIterations {
		return nil, nil
	}
	out := make([]*chain.Chain, 0, len(c.Items.Args))
	inside := sh.Clone()
	inside.forgetCompound(c, false)
	for _, v := range c.Items.Args {
		st := inside.Clone()
		st.Assign(c.Var, v)
		st.markUnknown(c.Var, false)
		ch, err := st.planChain(c.Bodies[0])
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// forgetCompound marks unknown what running c may change in the shell:
// the variables it sets, the directory, $? and the files; with strict, a
// command known only at run time may set any variable.
func (p *Shell) forgetCompound(c *chain.Compound, strict bool) {
	p.markUnknown("?", true)
	p.markUnknown("files", true)
	if c.Var != "" {
		p.markUnknown(c.Var, true)
	}
	if c.Kind == chain.CompoundArithFor {
		p.markUnknown(anyName, true) // its expressions may assign any name
	}
	for _, ch := range c.Inner() {
		for _, s := range ch.Segments() {
			p.forgetSegment(s, strict)
		}
	}
}

// forgetSegment marks unknown what one segment inside a compound may set.
func (p *Shell) forgetSegment(s *chain.Segment, strict bool) {
	switch {
	case s.Compound != nil:
		p.forgetCompound(s.Compound, strict)
	case len(s.Args) == 0:
		for _, a := range s.Assigns {
			p.markUnknown(a.Name, true)
		}
	case len(s.Words) > 0 && s.Words[0].Runtime && strict:
		// Its command is known only at run time: it may be any built-in.
		p.markUnknown(anyName, true)
		p.markUnknown("PWD", true)
		p.markUnknown("OLDPWD", true)
	case s.Builtin != "":
		b, ok := spec.Lookup(string(s.Builtin))
		if !ok {
			return
		}
		e := b.Effects(s.Args[1:])
		if s.HasRuntime() && (len(e.Assigns) > 0 || len(e.Unsets) > 0) {
			p.markUnknown(anyName, true)
		}
		for _, n := range append(e.Assigns, e.Unsets...) {
			p.markUnknown(n, true)
		}
		if e.Chdir {
			p.markUnknown("PWD", true)
			p.markUnknown("OLDPWD", true)
		}
	}
}

// Match reports whether subject matches one of a case item's patterns,
// each expanded in s as bash expands a pattern (quoted characters match
// themselves).
func (s *Shell) Match(pats []chain.Word, subject string) (bool, error) {
	cfg := s.config()
	for _, w := range pats {
		pat, err := shexpand.Pattern(cfg, expr.Syntax(w.Expr))
		if err != nil {
			return false, err
		}
		rx, err := pattern.Regexp(pat, pattern.EntireString)
		if err != nil {
			if pat == subject {
				return true, nil // not a pattern bash would read as one: the text
			}
			continue
		}
		re, err := regexp.Compile("(?s)" + rx)
		if err != nil {
			continue
		}
		if re.MatchString(subject) {
			return true, nil
		}
	}
	return false, nil
}

// Arith evaluates an arithmetic expression of a C-style for loop in s,
// assignments included; an empty one is 1 (true), as bash's is.
func (s *Shell) Arith(a chain.Arith) (int, error) {
	x := expr.ArithSyntax(a.Expr)
	if x == nil {
		return 1, nil
	}
	cfg := s.config()
	cfg.Env = writeEnviron{shellEnviron{s}}
	return shexpand.Arithm(cfg, x)
}

// writeEnviron lets an arithmetic expression assign the shell's variables.
type writeEnviron struct{ shellEnviron }

func (e writeEnviron) Set(name string, vr shexpand.Variable) error {
	if vr.IsSet() {
		e.s.Assign(name, vr.String())
	} else {
		e.s.Unset(name)
	}
	return nil
}
