package chain

// What a word expands from is kept in the model (Word.Expr, Assign.Expr,
// Redirect.Expr) for package expand, which computes the values.

// NeedsPlan reports whether the chain has anything a plan computes: a
// word that expands, or a cd, whose directory the policy takes from the
// plan (it knows CDPATH, HOME and OLDPWD).
func (c *Chain) NeedsPlan() bool {
	for _, p := range c.Pipelines {
		for _, s := range p.Segments {
			if s.Builtin == BuiltinCd || s.Compound != nil {
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

// HasExpansions reports whether anything in the segment expands.
func (s *Segment) HasExpansions() bool {
	for _, w := range s.Words {
		if w.Expands {
			return true
		}
	}
	for _, a := range s.Assigns {
		if a.Expands() {
			return true
		}
	}
	for _, r := range s.Redirects {
		if r.Expands() {
			return true
		}
	}
	return false
}

// WordText returns word i of the segment as written.
func (s *Segment) WordText(i int) string {
	w := s.Words[i].Span
	return s.Text[w.Start-s.Span.Start : w.End-s.Span.Start]
}

// ValidName reports whether s is a shell variable name.
func ValidName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// CommandBuiltin says what a command word that expanded to args[0] means
// in the segment's dialect: an engine built-in, or, when refused is not
// empty, a shell built-in chainrun does not run and what to do instead.
func (s *Segment) CommandBuiltin(args []string) (b Builtin, refused string) {
	if b, ok := builtinOf(args, s.dialect); ok {
		return b, ""
	}
	hint, _ := shellBuiltin(args[0], s.dialect)
	return "", hint
}
