package policy

import (
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Words known only at run time. Before a chain runs, a word whose value
// depends on what earlier segments do ($? after a command, a variable set
// on a branch that may be skipped, a glob over files an earlier segment
// may create) reaches the policy flagged in the model (Word.Runtime,
// Assign.Runtime, Redirect.Runtime), and the engine judges the real value
// again before the segment starts. The policy judges the word as anything
// it may turn out to be:
//
//   - allow (rules, built-ins, the read-only table, modes, the
//     classifier, path allow rules): an unknown word equals no literal;
//     only a rule's own wildcard covers it (a prefix rule's tail, a glob
//     rule's trailing star), whatever it turns out to be. A program word,
//     or a wrapper's own word, known only at run time is never allowed
//     (analysis.runtime).
//   - deny and ask rules, flag sets and the dangerous-flag guard: an
//     unknown word may be any run of words, none included (an unquoted
//     expansion splits into any number of fields), so it may complete any
//     verb, carry any flag, hold any program.
//   - paths: an unknown word in a path role (access.go) may be any path:
//     every Read or Edit deny or ask rule that judges the role may match
//     it, no allow rule or mode permits it, and it asks in every mode. A
//     word of a program without a table is not guessed to be a path; its
//     value is judged before the segment starts.
//
// Comparisons of a word with a rule's literal go through tokenEqual (one
// word), mayEqualSeq and mayGlobMatch (runs of words, pessimistic) and
// globCoversUnknown (a glob allow rule).

// Inside the policy, the argv it judges holds such a word as an unknown
// word (unknownWord): its text as written behind a mark no real argument
// can carry, since a NUL cannot reach a program's argv, with its path
// separators spelt as look-alikes (U+2215, U+2216) so no basename or
// extension rule can cut the mark away. markRuntime makes them from the
// model's flags as Authorize starts; scrubUnknown takes every mark out of
// the decision, so none leaves the package.

// unknownMark starts every unknown word; a text joined from words (a
// shell body) holds it where one of them was unknown.
const unknownMark = "\x00"

// The look-alikes that stand for path separators inside unknown words.
const (
	divisionSlash = '\u2215'
	setMinus      = '\u2216'
)

// unknownWord returns the unknown word standing for the source text src.
func unknownWord(src string) string {
	return unknownMark + strings.Map(func(r rune) rune {
		switch r {
		case '/':
			return divisionSlash
		case '\\':
			return setMinus
		case 0:
			return -1
		}
		return r
	}, src)
}

// isUnknown reports whether arg is an unknown word.
func isUnknown(arg string) bool { return strings.HasPrefix(arg, unknownMark) }

// unknownSource returns the source text an unknown word stands for.
func unknownSource(arg string) string { return showText(arg) }

// markRuntime returns c as the policy judges it: each argument,
// assignment value and redirect target known only at run time an unknown
// word. A chain without one is returned as it is.
func markRuntime(c *chain.Chain) *chain.Chain {
	if !hasRuntime(c) {
		return c
	}
	out := *c
	out.Pipelines = make([]*chain.Pipeline, len(c.Pipelines))
	for i, pl := range c.Pipelines {
		np := *pl
		np.Segments = make([]*chain.Segment, len(pl.Segments))
		for j, s := range pl.Segments {
			np.Segments[j] = markSegment(s)
		}
		out.Pipelines[i] = &np
	}
	return &out
}

// hasRuntime reports whether any segment of c holds a word known only at
// run time.
func hasRuntime(c *chain.Chain) bool {
	for _, pl := range c.Pipelines {
		for _, s := range pl.Segments {
			if s.HasRuntime() {
				return true
			}
		}
	}
	return false
}

// markSegment is markRuntime for one segment.
func markSegment(s *chain.Segment) *chain.Segment {
	if !s.HasRuntime() {
		return s
	}
	m := *s
	m.Args = make([]string, len(s.Args))
	for i, a := range s.Argv() {
		m.Args[i] = a.Text
		if a.Runtime {
			m.Args[i] = unknownWord(a.Text)
		}
	}
	m.Assigns = append([]chain.Assign(nil), s.Assigns...)
	for i, a := range m.Assigns {
		if a.Runtime {
			m.Assigns[i].Value = unknownWord(a.Value)
		}
	}
	m.Redirects = append([]chain.Redirect(nil), s.Redirects...)
	for i, r := range m.Redirects {
		if r.Runtime && !r.Op.IsText() {
			m.Redirects[i].Target = unknownWord(r.Target)
		}
	}
	return &m
}

// tokenEqual reports whether the word arg may be the rule literal tok: an
// unknown word is tok only for a pessimistic reader (deny, ask), never for
// an allow rule.
func tokenEqual(arg, tok string, pessimistic bool) bool {
	if isUnknown(arg) {
		return pessimistic
	}
	return arg == tok
}

// tokensEqual is tokenEqual for allow rules over two runs of words.
func tokensEqual(args, toks []string) bool {
	if len(args) != len(toks) {
		return false
	}
	for i := range args {
		if !tokenEqual(args[i], toks[i], false) {
			return false
		}
	}
	return true
}

// firstUnknown returns the index of the first unknown word of args, or -1.
func firstUnknown(args []string) int {
	for i, a := range args {
		if isUnknown(a) {
			return i
		}
	}
	return -1
}

// hasUnknown reports whether any word of args is unknown.
func hasUnknown(args []string) bool { return firstUnknown(args) >= 0 }

// holdsUnknown reports a text joined from words one of which was unknown
// (a shell body built from a wrapper's arguments).
func holdsUnknown(s string) bool { return strings.Contains(s, unknownMark) }

// showText renders a word, or a text joined from words, for reasons: an
// unknown word as its source text ("$X"), never with its mark.
func showText(s string) string {
	if !holdsUnknown(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case 0:
			return -1
		case divisionSlash:
			return '/'
		case setMinus:
			return '\\'
		}
		return r
	}, s)
}

// runtimeWords names the unknown words of args for a reason ("$X is",
// "$X, $Y are"), or "" when there are none.
func runtimeWords(args []string) string {
	var words []string
	for _, a := range args {
		if isUnknown(a) {
			words = append(words, showText(a))
		}
	}
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0] + " is"
	}
	return strings.Join(words, ", ") + " are"
}

// mayEqualSeq reports whether argv may stand for the rule words toks
// (toks[0] given as w0, in the view's form), all of them (prefix: argv
// may go on) when each unknown word of argv is read as any run of words,
// none included. canon says the view compares program words canonically:
// a later word that takes the program's place (the unknown words before
// it being empty) is canonicalised too.
func mayEqualSeq(argv []string, w0 string, toks []string, canon, prefix bool) bool {
	reach := seqReach(argv, w0, toks, canon)
	n := len(toks)
	if !prefix {
		return reach[len(argv)][n]
	}
	for e := range reach {
		if reach[e][n] {
			return true
		}
	}
	return false
}

// seqReach is the table mayEqualSeq reads: reach[e][j] says that argv[:e]
// may stand for toks[:j] exactly.
func seqReach(argv []string, w0 string, toks []string, canon bool) [][]bool {
	n := len(toks)
	reach := make([][]bool, len(argv)+1)
	reach[0] = make([]bool, n+1)
	reach[0][0] = true
	for i, a := range argv {
		cur, next := reach[i], make([]bool, n+1)
		reach[i+1] = next
		if isUnknown(a) {
			// From the first reachable j, the word may stand for toks[j:k]
			// for every k ≥ j.
			for j := 0; j <= n; j++ {
				if cur[j] {
					for k := j; k <= n; k++ {
						next[k] = true
					}
					break
				}
			}
			continue
		}
		for j := 0; j < n; j++ {
			if cur[j] && seqWordEqual(a, i, j, w0, toks, canon) {
				next[j+1] = true
			}
		}
	}
	return reach
}

// seqWordEqual compares the known word a (argv[i]) with toks[j]; toks[0]
// is the program word w0.
func seqWordEqual(a string, i, j int, w0 string, toks []string, canon bool) bool {
	switch {
	case j > 0:
		return tokenEqual(a, toks[j], true)
	case canon && i > 0:
		return tokenEqual(canonicalName(a), w0, true)
	}
	return tokenEqual(a, w0, true)
}

// globCoversUnknown is an allow glob rule over an argv holding unknown
// words: only the pattern's trailing star may cover them, as a prefix
// rule's tail does, so the words before the first unknown one must match
// the pattern with its last star left over. The program word is never
// covered.
func globCoversUnknown(parts []string, a0 string, rest []string) bool {
	k := firstUnknown(rest)
	if k < 0 {
		k = len(rest)
	}
	if isUnknown(a0) || len(parts) < 2 || parts[len(parts)-1] != "" {
		return false
	}
	return globMatch(parts, a0, rest[:k])
}

// globHole and globStar stand for an unknown word and a pattern star in
// the sequences mayGlobMatch walks; every other element is a byte.
const (
	globHole = -1
	globStar = -2
)

// mayGlobMatch is a deny or ask glob rule over an argv holding unknown
// words: whether some value of the unknown words makes "a0 args..." match
// the pattern. Both sides are read with a leading blank (" git x"), so an
// unknown word is a hole that stands for nothing or for a blank followed
// by any text, whatever its position.
func mayGlobMatch(parts []string, a0 string, rest []string) bool {
	if len(parts) == 0 {
		return false
	}
	pat := []int16{' '}
	for i, p := range parts {
		if i > 0 {
			pat = append(pat, globStar)
		}
		pat = appendBytes(pat, p)
	}
	var subj []int16
	for _, w := range append([]string{a0}, rest...) {
		if isUnknown(w) {
			subj = append(subj, globHole)
			continue
		}
		subj = appendBytes(append(subj, ' '), w)
	}
	return holeMatch(pat, subj)
}

func appendBytes(s []int16, w string) []int16 {
	for i := 0; i < len(w); i++ {
		s = append(s, int16(w[i]))
	}
	return s
}

// holeState is a place in holeMatch's walk: pattern element i, subject
// element j, and whether a hole at j has started (its blank produced).
type holeState struct {
	i, j int
	in   bool
}

// holeMatch reports whether some filling of the subject's holes makes it
// match the pattern, by walking the pairs of places the two may be in
// together (each is a small automaton; the walk is their product).
func holeMatch(pat, subj []int16) bool {
	cols := len(subj) + 1
	seen := make([]bool, 2*(len(pat)+1)*cols)
	todo := []holeState{{}}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		k := 2*(s.i*cols+s.j) + boolIndex(s.in)
		if seen[k] {
			continue
		}
		seen[k] = true
		if s.i == len(pat) && s.j == len(subj) && !s.in {
			return true
		}
		todo = append(todo, holeSteps(pat, subj, s)...)
	}
	return false
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// holeSteps are the places reachable from s in one step.
func holeSteps(pat, subj []int16, s holeState) []holeState {
	var out []holeState
	i, j := s.i, s.j
	star := i < len(pat) && pat[i] == globStar
	if star {
		out = append(out, holeState{i + 1, j, s.in}) // the star ends
	}
	switch {
	case s.in: // inside a hole, which may produce any byte, or end
		out = append(out, holeState{i, j + 1, false})
		if i < len(pat) && !star {
			out = append(out, holeState{i + 1, j, true})
		}
	case j < len(subj) && subj[j] == globHole: // an empty hole, or its blank
		out = append(out, holeState{i, j + 1, false})
		if star {
			out = append(out, holeState{i, j, true})
		} else if i < len(pat) && pat[i] == ' ' {
			out = append(out, holeState{i + 1, j, true})
		}
	case j < len(subj): // a known byte, taken by the star or the same byte
		if star {
			out = append(out, holeState{i, j + 1, false})
		} else if i < len(pat) && pat[i] == subj[j] {
			out = append(out, holeState{i + 1, j + 1, false})
		}
	}
	return out
}

// scrubUnknown is the last step of Authorize: no decision text may carry
// an unknown word's mark. Reasons name words through quoteArg and
// showText already; a reason that spliced a word in raw (a guard quoting
// an operand) still shows its source text here, and a suggestion holding
// one, which would be a rule no word can match, is dropped.
func scrubUnknown(d *chain.Decision) {
	for i := range d.Segments {
		sd := &d.Segments[i]
		sd.Rule = showText(sd.Rule)
		for k, r := range sd.Reasons {
			sd.Reasons[k] = showText(r)
		}
	}
	for k, r := range d.Chain {
		d.Chain[k] = showText(r)
	}
	kept := d.Suggestions[:0]
	for _, s := range d.Suggestions {
		if !holdsUnknown(s) {
			kept = append(kept, s)
		}
	}
	d.Suggestions = kept
}
