package policy

import (
	"strings"
)

// Matching one rule against one view of a segment. Everything here reads
// only the rule's exported fields: nothing is precomputed by ParseRule, so
// a Rule written as a literal matches exactly like the parsed one. What is
// derived from them (the canonical program word, the length of a flag
// rule's verb: ruleForm) is derived once per Authorize call for the deny
// and ask rules, which are matched against every view of every segment;
// the flag set only once the rule's verb has matched. Words known only at
// run time are read as unknown.go says: never equal for an allow rule,
// anything for a deny or ask rule (pessimistic).

// ruleForm is a deny or ask rule with what matchBroad derives from its
// fields: derived once per call (a Policy's rules may be changed between
// calls), never stored on the Rule.
type ruleForm struct {
	r *Rule
	// canon and raw are the program word in the broad (canonical) view
	// and as written (programWord).
	canon, raw string
	// verbLen is flagVerbLen of a prefix rule's tokens, 0 for any other
	// rule: flag-set matching does not apply then.
	verbLen int
	// canonProg and rawProg are canonicalName of canon and of raw: the
	// program whose flag aliases hasFlags looks up.
	canonProg, rawProg string
}

// formOf derives r's form.
func formOf(r *Rule) ruleForm {
	f := ruleForm{r: r, canon: r.programWord(true), raw: r.programWord(false)}
	if r.Match == Prefix {
		f.verbLen = flagVerbLen(r.Tokens)
	}
	if f.verbLen > 0 {
		f.canonProg, f.rawProg = canonicalName(f.canon), canonicalName(f.raw)
	}
	return f
}

// appendForms appends the forms of rules to dst.
func appendForms(dst []ruleForm, rules []Rule) []ruleForm {
	for k := range rules {
		dst = append(dst, formOf(&rules[k]))
	}
	return dst
}

// view reports whether the rule matches one view of a segment (argv,
// canonical or not), as written or by its flag set. Both compare the
// program word first, so a view of words all known now whose program word
// is another is passed over at once; a word known only at run time may be
// anything to a deny or ask rule, so such a view is matched in full.
func (f *ruleForm) view(argv []word, canon, pessimistic bool) bool {
	w0 := f.raw
	if canon {
		w0 = f.canon
	}
	if len(f.r.Tokens) > 0 && len(argv) > 0 && !argv[0].is(w0) && !hasUnknown(argv) {
		return false
	}
	return f.r.matchView(argv, w0, canon, pessimistic) || f.flags(argv, canon, pessimistic)
}

// ruleForms derives the forms of p's deny and ask rules for one call into
// dst's room, returning all of them (the room to keep), the deny rules'
// and the ask rules'.
func ruleForms(dst []ruleForm, p *Policy) (forms, deny, ask []ruleForm) {
	nd := len(p.Deny)
	forms = appendForms(appendForms(dst[:0], p.Deny), p.Ask)
	return forms, forms[:nd:nd], forms[nd:]
}

// flags is matchFlagSet with the form's derived words for the view
// (canon) and pessimism.
func (f *ruleForm) flags(argv []word, canon, pessimistic bool) bool {
	if f.verbLen == 0 {
		return false
	}
	if canon {
		return f.r.matchFlagsN(argv, f.canon, f.canonProg, f.verbLen, canon, pessimistic)
	}
	return f.r.matchFlagsN(argv, f.raw, f.rawProg, f.verbLen, canon, pessimistic)
}

// matchArgs reports whether the rule, as an allow rule, matches argv
// (already in the view's form): words known only at run time equal no
// literal. canon says argv[0] is canonicalised, so the rule's first token
// is compared in canonical form too. Deny and ask rules are matched by
// matchBroad, pessimistically.
func (r *Rule) matchArgs(argv []word, canon bool) bool {
	return r.matchView(argv, r.programWord(canon), canon, false)
}

// matchFlagSet is the deny/ask hardening: a prefix rule whose tail is all
// flags matches a segment that starts with the rule's verb and carries all
// of its flags, in any order and clustering ("rm -rf:*" matches "rm -fr x").
// matchBroad matches the rule's form, derived once per call.
func (r *Rule) matchFlagSet(argv []word, canon bool) bool {
	f := formOf(r)
	return f.flags(argv, canon, true)
}

// programWord is the rule's first token in the form a view compares it
// in: canonical (basename, no .exe, case-folded) for the broad view, as
// written for the others. matchBroad reads it from the rule's form.
func (r *Rule) programWord(canon bool) string {
	if len(r.Tokens) == 0 {
		return ""
	}
	if canon {
		return canonicalName(r.Tokens[0])
	}
	return r.Tokens[0]
}

// matchView is matchArgs with the rule's program word w0 already in the
// view's form; pessimistic, it reports whether argv may match once its
// words known only at run time are known (deny and ask rules).
func (r *Rule) matchView(argv []word, w0 string, canon, pessimistic bool) bool {
	if len(argv) == 0 {
		return false
	}
	n := len(r.Tokens)
	switch r.Match {
	case Any:
		return true
	case Exact, Prefix:
		if n == 0 {
			return false
		}
		if pessimistic && hasUnknown(argv) {
			return mayEqualSeq(argv, w0, r.Tokens, canon, r.Match == Prefix)
		}
		if r.Match == Exact {
			return len(argv) == n && tokenEqual(argv[0], w0, false) && tokensEqual(argv[1:], r.Tokens[1:])
		}
		return len(argv) >= n && tokenEqual(argv[0], w0, false) && tokensEqual(argv[1:n], r.Tokens[1:])
	case Glob:
		return r.matchGlob(argv, w0, canon, pessimistic)
	}
	return false
}

// matchGlob is matchView for a glob rule. In a canonical view the rule's
// own spelling of the program word stands for the canonical one the
// argv holds, so the pattern's first part compares as written.
func (r *Rule) matchGlob(argv []word, w0 string, canon, pessimistic bool) bool {
	n := len(r.Tokens)
	if n > 0 && !tokenEqual(argv[0], w0, pessimistic) {
		return false
	}
	a0 := argv[0]
	if canon && n > 0 && a0.is(w0) {
		a0 = lit(r.Tokens[0])
	}
	switch {
	case !hasUnknown(argv):
		return globMatch(r.Parts, a0, argv[1:])
	case pessimistic:
		return mayGlobMatch(r.Parts, a0, argv[1:])
	}
	return globCoversUnknown(r.Parts, a0, argv[1:])
}

// matchFlagsN is flag-set matching (matchFlagSet) of a prefix rule whose
// verb is its first n tokens (n > 0), with the rule's program word w0
// already in the view's form and prog its canonical name. Pessimistic
// (deny and ask rules), an unknown word may complete the verb and then
// carry any flag, or carry any flag after it; otherwise it is no word of
// the verb and carries no flag.
func (r *Rule) matchFlagsN(argv []word, w0, prog string, n int, canon, pessimistic bool) bool {
	if !pessimistic || !hasUnknown(argv) {
		return len(argv) >= n && tokenEqual(argv[0], w0, false) && tokensEqual(argv[1:n], r.Tokens[1:n]) &&
			hasFlags(argv[n:], prog, r.Tokens[n:], pessimistic)
	}
	reach := seqReach(argv, w0, r.Tokens[:n], canon)
	for e := range reach {
		if !reach[e][n] {
			continue
		}
		if e > 0 && argv[e-1].isUnknown() || hasFlags(argv[e:], prog, r.Tokens[n:], true) {
			return true
		}
	}
	return false
}

// hasFlags reports whether rest (the words after a rule's verb) carries
// every flag of want, in any order, clustering or spelling of prog's; an
// unknown word before "--" may carry any (pessimistic) or none.
func hasFlags(rest []word, prog string, want []string, pessimistic bool) bool {
	have := map[string]bool{}
	for _, w := range rest {
		a, ok := w.known()
		if !ok {
			if pessimistic {
				return true
			}
			continue
		}
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			for _, f := range expandFlag(a) {
				have[f] = true
			}
		}
	}
	for _, t := range want {
		for _, f := range expandFlag(t) {
			if !have[f] && !hasAlias(have, prog, f) {
				return false
			}
		}
	}
	return true
}

// hasAlias reports whether have holds another spelling of flag f of prog.
func hasAlias(have map[string]bool, prog, f string) bool {
	for _, a := range flagAliases(prog, f) {
		if have[a] {
			return true
		}
	}
	return false
}

// flagVerbLen returns how many leading words of a prefix rule are its
// verb when every word after them is a flag ("rm -rf" → 1, "git push
// --force" → 2), or 0 when flag-set matching does not apply: no flag, no
// verb, or a tail that mixes operands with flags.
func flagVerbLen(tokens []string) int {
	i := 0
	for i < len(tokens) && !strings.HasPrefix(tokens[i], "-") {
		i++
	}
	if i == len(tokens) || i == 0 {
		return 0
	}
	for _, t := range tokens[i:] {
		if !strings.HasPrefix(t, "-") || t == "-" || t == "--" {
			return 0
		}
	}
	return i
}

// expandFlag turns "-rf" into "-r", "-f"; long flags lose any "=value".
func expandFlag(t string) []string {
	if strings.HasPrefix(t, "--") {
		if i := strings.IndexByte(t, '='); i > 0 {
			t = t[:i]
		}
		return []string{t}
	}
	if len(t) <= 2 {
		return []string{t}
	}
	out := make([]string, 0, len(t)-1)
	for _, c := range t[1:] {
		out = append(out, "-"+string(c))
	}
	return out
}

// flagAliases gives the other spellings of a flag for the programs where
// they are the same option (or a stronger one, for grep -R), so
// "rm -rf:*" also denies "rm -Rf x", "rm -fR x" and "rm --recursive
// --force x". Each program's record has its own table: chmod -r is a
// mode, not -R.
func flagAliases(prog, f string) []string {
	if p := lookup(prog); p != nil {
		return p.aliases[f]
	}
	return nil
}

// globMatch matches "a0 args..." joined by spaces against the parts of a
// pattern split at its stars; every word is known now.
func globMatch(parts []string, a0 word, rest []word) bool {
	return globParts(parts, joinKnown(a0, rest))
}

// globParts matches s against a pattern split at its stars: the first part
// is a prefix, the last a suffix, the others appear in order between.
func globParts(parts []string, s string) bool {
	switch len(parts) {
	case 0:
		return false
	case 1:
		return s == parts[0]
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	// A trailing " *" keeps its word boundary but also matches the bare
	// command: "npm run *" matches "npm run".
	return strings.HasSuffix(s, last)
}
