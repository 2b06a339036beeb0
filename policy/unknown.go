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

// word is one word the policy judges: its value, or, when it is known
// only at run time, the word as written ("$X", "out/*.o"). Every word of
// the judged argv is one (segArgv), and so is everything taken from them
// or judged beside them: operands and option values (options.go), the
// paths of fileArg, a shell body (joinWords), an assignment's value
// (assignValue), a redirect's target (redirectTarget). It is no string
// and has no ==, so nothing compares it with a literal without deciding
// what an unknown word means: is, isOneOf, hasPrefix and tokenEqual read
// it as no literal and the start of nothing (a deny or ask rule reads it
// as anything), known gives the value of a word known now (and nothing
// for an unknown one), show the text reasons print. Only this file reads
// its fields.
type word struct {
	_       [0]func() // no ==: sameWord compares words
	src     string
	runtime bool
}

// lit is the word whose value s is known now.
func lit(s string) word { return word{src: s} }

// unknownWord is the word known only at run time written as src.
func unknownWord(src string) word { return word{src: src, runtime: true} }

// lits types words known now.
func lits(ss []string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = lit(s)
	}
	return out
}

// known returns the value of a word known now; "" and false for an
// unknown one, whose text only show gives.
func (w word) known() (string, bool) {
	if w.runtime {
		return "", false
	}
	return w.src, true
}

// knownOr is the value of a word known now, or def for an unknown one.
func knownOr(w word, def string) string {
	if w.runtime {
		return def
	}
	return w.src
}

// sameWord reports two words that are the same: both known with one
// value, or both the same text known only at run time.
func sameWord(a, b word) bool { return a.src == b.src && a.runtime == b.runtime }

// sameWords is sameWord over two runs of words.
func sameWords(a, b []word) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameWord(a[i], b[i]) {
			return false
		}
	}
	return true
}

// joinWords is the command line a wrapper hands to a shell, its words
// joined by spaces: known only at run time when one of them is (shown as
// their source text).
func joinWords(args []word) word {
	var b strings.Builder
	j := word{}
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.src)
		j.runtime = j.runtime || a.runtime
	}
	j.src = b.String()
	return j
}

// joinKnown joins a0 and rest by spaces, for a glob rule: words known now
// only (matchGlob and globCoversUnknown take the unknown ones away).
func joinKnown(a0 word, rest []word) string {
	n := len(a0.src)
	for _, a := range rest {
		n += 1 + len(a.src)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(a0.src)
	for _, a := range rest {
		b.WriteByte(' ')
		b.WriteString(a.src)
	}
	return b.String()
}

// hasWord reports whether args holds a word known now to be s.
func hasWord(args []word, s string) bool {
	for _, a := range args {
		if a.is(s) {
			return true
		}
	}
	return false
}

// isUnknown reports a word known only at run time.
func (w word) isUnknown() bool { return w.runtime }

// is reports a word known now to be s; an unknown word is no literal.
func (w word) is(s string) bool { return !w.runtime && w.src == s }

// isOneOf reports a word known now to be one of ss.
func (w word) isOneOf(ss ...string) bool {
	for _, s := range ss {
		if w.is(s) {
			return true
		}
	}
	return false
}

// hasPrefix reports a word known now to start with p; an unknown word
// starts with nothing (it is no option, no "+toolchain").
func (w word) hasPrefix(p string) bool { return !w.runtime && strings.HasPrefix(w.src, p) }

// show is the word's text for reasons: its value, or its source text.
func (w word) show() string { return w.src }

// segArgv is the argv of s as the policy judges it.
func segArgv(s *chain.Segment) []word { return appendArgv(make([]word, 0, len(s.Args)), s) }

// appendArgv appends the argv of s, as the policy judges it, to dst.
func appendArgv(dst []word, s *chain.Segment) []word {
	if !s.HasRuntime() {
		for _, a := range s.Args {
			dst = append(dst, lit(a))
		}
		return dst
	}
	for _, a := range s.Argv() {
		dst = append(dst, word{src: a.Text, runtime: a.Runtime})
	}
	return dst
}

// assignValue is the value an assignment sets, as the policy judges it.
func assignValue(a chain.Assign) word { return word{src: a.Value, runtime: a.Runtime} }

// redirectTarget is the file a redirect names, as the policy judges it
// (a here-string's text is no file).
func redirectTarget(r chain.Redirect) word {
	return word{src: r.Target, runtime: r.Runtime && !r.Op.IsText()}
}

// tokenEqual reports whether the word arg may be the rule literal tok: an
// unknown word is tok only for a pessimistic reader (deny, ask), never for
// an allow rule.
func tokenEqual(arg word, tok string, pessimistic bool) bool {
	if arg.runtime {
		return pessimistic
	}
	return arg.src == tok
}

// tokensEqual is tokenEqual for allow rules over two runs of words.
func tokensEqual(args []word, toks []string) bool {
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
func firstUnknown(args []word) int {
	for i, a := range args {
		if a.runtime {
			return i
		}
	}
	return -1
}

// hasUnknown reports whether any word of args is unknown.
func hasUnknown(args []word) bool { return firstUnknown(args) >= 0 }

// runtimeWords names the unknown words of args for a reason ("$X is",
// "$X, $Y are"), or "" when there are none.
func runtimeWords(args []word) string {
	var words []string
	for _, a := range args {
		if a.runtime {
			words = append(words, a.src)
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
func mayEqualSeq(argv []word, w0 string, toks []string, canon, prefix bool) bool {
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
func seqReach(argv []word, w0 string, toks []string, canon bool) [][]bool {
	n := len(toks)
	reach := make([][]bool, len(argv)+1)
	reach[0] = make([]bool, n+1)
	reach[0][0] = true
	for i, a := range argv {
		cur, next := reach[i], make([]bool, n+1)
		reach[i+1] = next
		if a.runtime {
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
func seqWordEqual(a word, i, j int, w0 string, toks []string, canon bool) bool {
	switch {
	case j > 0:
		return tokenEqual(a, toks[j], true)
	case canon && i > 0:
		return tokenEqual(canonWord(a), w0, true)
	}
	return tokenEqual(a, w0, true)
}

// globCoversUnknown is an allow glob rule over an argv holding unknown
// words: only the pattern's trailing star may cover them, as a prefix
// rule's tail does, so the words before the first unknown one must match
// the pattern with its last star left over. The program word is never
// covered.
func globCoversUnknown(parts []string, a0 word, rest []word) bool {
	k := firstUnknown(rest)
	if k < 0 {
		k = len(rest)
	}
	if a0.runtime || len(parts) < 2 || parts[len(parts)-1] != "" {
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
func mayGlobMatch(parts []string, a0 word, rest []word) bool {
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
	for _, w := range append([]word{a0}, rest...) {
		if w.runtime {
			subj = append(subj, globHole)
			continue
		}
		subj = appendBytes(append(subj, ' '), w.src)
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
