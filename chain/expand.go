package chain

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Word is one argument word of a segment as written, and what it expanded
// to. A word without expansions is its own single field, known at parse
// time; a word with expansions (parameters, $?, tilde, globs, braces,
// $'…', $((…))) gets its fields from Segment.Expand.
type Word struct {
	// Span covers the word in Chain.Source.
	Span Span
	// Expands is set when bash would expand something in the word.
	Expands bool
	// Fields are the arguments the word became: Args[First:First+len(Fields)]
	// of the segment. Before expansion an expanding word has one field,
	// an unknown word (see Unknown).
	Fields []string
	// Globbed is set when the word had unquoted pattern characters and
	// was matched against the files: its fields are the matches, or the
	// word as written when nothing matched (bash's default).
	Globbed bool
	// Runtime is set, in a plan, for a word whose value is known only when
	// its segment starts; its one field is then an unknown word.
	Runtime bool

	syn        *syntax.Word // mvdan's word, in bash's reading of backslashes
	mode       mode         // how it expands
	prefix     string       // export's "NAME=" before a literal-mode value
	tildeAfter bool         // a tilde after = or : that mvdan does not expand
}

// mode says how a word expands.
type mode int

const (
	fieldsMode   mode = iota // an argument: split, globbed, braces
	literalMode              // an assignment's value or a here-string: one string, tilde after = and :
	documentMode             // a heredoc body: parameters, arithmetic and \ escapes only
)

// ExpandError is an expansion that failed when its segment was about to
// start: $((1/0)) (KindExpansion; bash ends the chain there with status
// 1), or a command word that expanded to a shell built-in chainrun does
// not run (KindUnsupported).
type ExpandError struct {
	Kind    ErrorKind
	Segment int
	Offset  int
	Err     error
}

func (e *ExpandError) Error() string { return e.Err.Error() }
func (e *ExpandError) Unwrap() error { return e.Err }

// ErrorKind returns e.Kind, for KindOf.
func (e *ExpandError) ErrorKind() ErrorKind { return e.Kind }

// config is the expansion configuration for s: no command substitution
// (refused at parse time; this is the second lock), globs through s's
// ReadDir, case-insensitive on Windows.
func (s *Shell) config() *expand.Config {
	return &expand.Config{
		Env:        s,
		ReadDir2:   s.readDir,
		NoCaseGlob: s.windows(),
	}
}

// expandWord expands one word in mode m.
func (s *Shell) expandWord(w *syntax.Word, m mode) ([]string, error) {
	cfg := s.config()
	switch m {
	case literalMode:
		v, err := expand.Literal(cfg, w)
		return []string{v}, err
	case documentMode:
		v, err := expand.Document(cfg, w)
		return []string{v}, err
	}
	return expand.Fields(cfg, w)
}

// Expand returns the segment as it runs in shell sh: every argument word,
// assignment value, redirect target and heredoc body expanded. The
// assignments expand after the arguments, left to right, each seeing the
// ones before it, as bash does. A segment without expansions is returned
// as it is.
func (s *Segment) Expand(sh *Shell) (*Segment, error) {
	if !s.HasExpansions() {
		return s, nil
	}
	out := *s
	if err := s.expandArgs(sh, &out); err != nil {
		return nil, err
	}
	if err := s.expandAssigns(sh, &out); err != nil {
		return nil, err
	}
	if err := s.expandRedirects(sh, &out); err != nil {
		return nil, err
	}
	if len(s.Words) > 0 && s.Words[0].Expands {
		if err := s.commandWord(&out); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// commandWord settles what an expanded command word names: an engine
// built-in, or a shell built-in chainrun cannot run, which stops the
// chain there as a refusal would have before it.
func (s *Segment) commandWord(out *Segment) error {
	out.Builtin = ""
	if len(out.Args) == 0 {
		return nil
	}
	name := out.Args[0]
	if b, ok := lookupBuiltinDialect(name, s.dialect); ok {
		out.Builtin = b
		return nil
	}
	if hint, ok := shellBuiltin(name, s.dialect); ok {
		return &ExpandError{Kind: KindUnsupported, Segment: s.Index, Offset: s.Words[0].Span.Start,
			Err: fmt.Errorf("%s expanded to %q, a shell built-in chainrun does not run; %s", s.WordText(0), name, hint)}
	}
	return nil
}

// WordText returns word i of the segment as written.
func (s *Segment) WordText(i int) string {
	w := s.Words[i].Span
	return s.Text[w.Start-s.Span.Start : w.End-s.Span.Start]
}

func (s *Segment) expandArgs(sh *Shell, out *Segment) error {
	out.Words = make([]Word, len(s.Words))
	out.Args = make([]string, 0, len(s.Args))
	for i, w := range s.Words {
		w.Fields, w.Globbed, w.Runtime = []string{argValue(s, i)}, false, false
		if w.Expands {
			sh.reads = nil
			f, globbed, err := sh.wordFields(&w)
			if err != nil {
				return s.expandError(w.Span, err)
			}
			w.Fields, w.Globbed = f, globbed
			if len(sh.reads) > 0 {
				w.Fields, w.Runtime = []string{Unknown(s.WordText(i))}, true
			}
		}
		out.Words[i] = w
		out.Args = append(out.Args, w.Fields...)
	}
	return nil
}

// argValue is word i's value when it does not expand.
func argValue(s *Segment, i int) string {
	w := s.Words[i]
	if len(w.Fields) == 1 {
		return w.Fields[0]
	}
	return ""
}

// wordFields expands an argument word by its mode.
func (sh *Shell) wordFields(w *Word) ([]string, bool, error) {
	syn := w.syn
	if w.tildeAfter {
		syn = sh.assignTildes(syn, w.mode == fieldsMode)
	}
	if w.mode == literalMode {
		v, err := sh.expandWord(syn, literalMode)
		if err != nil {
			return nil, false, err
		}
		return []string{w.prefix + v[0]}, false, nil
	}
	return sh.fields(syn)
}

// fields expands an argument word and reports whether it globbed
// (mvdan's expansion lists a directory only for a field with unquoted
// pattern characters). Braces are expanded here, word by word, so the
// empty words bash drops are dropped.
func (sh *Shell) fields(w *syntax.Word) ([]string, bool, error) {
	words, ok, err := sh.braceWords(w)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		words = []*syntax.Word{w}
	}
	var out []string
	globbed := false
	for _, bw := range words {
		if err := sh.checkWord(bw); err != nil {
			return nil, false, err
		}
		bw = sh.colonTilde(bw)
		sh.globbed, sh.skipPWD = false, true
		sh.dots, sh.dotAbs = dotComponents(bw)
		f, err := sh.expandWord(bw, fieldsMode)
		if err != nil {
			return nil, false, err
		}
		if sh.globbed && runtime.GOOS == "windows" && slashesOnly(bw) {
			forwardSlashes(f)
		}
		out, globbed = append(out, f...), globbed || sh.globbed
	}
	return out, globbed, nil
}

// slashesOnly reports a word whose literal text separates paths with '/'
// only: its matches keep that separator on Windows too, where mvdan's
// globbing joins them with '\\' (sub/* is sub/c.txt, as in Git Bash).
func slashesOnly(w *syntax.Word) bool {
	slash := false
	for _, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok {
			if strings.Contains(lit.Value, `\`) {
				return false
			}
			slash = slash || strings.Contains(lit.Value, "/")
		}
	}
	return slash
}

// forwardSlashes turns the separators of glob matches into '/': a name
// cannot hold a '\\' on Windows, so every one is a separator.
func forwardSlashes(f []string) {
	for i := range f {
		f[i] = strings.ReplaceAll(f[i], `\`, "/")
	}
}

// checkWord refuses what mvdan's expansion would read differently from
// bash in this state.
func (sh *Shell) checkWord(w *syntax.Word) error {
	if err := sh.checkIFS(w); err != nil {
		return err
	}
	return sh.checkArith(w)
}

func (s *Segment) expandAssigns(sh *Shell, out *Segment) error {
	if len(s.Assigns) == 0 {
		return nil
	}
	out.Assigns = make([]Assign, len(s.Assigns))
	tmp := sh.Clone()
	for i, a := range s.Assigns {
		if a.syn != nil {
			syn := tmp.colonTilde(a.syn)
			if a.tildeAfter {
				syn = tmp.assignTildes(syn, false)
			}
			tmp.reads = nil
			v, err := tmp.expandWord(syn, literalMode)
			if err != nil {
				return s.expandError(a.Span, err)
			}
			a.Value = v[0]
			if len(tmp.reads) > 0 {
				a.Value = Unknown(a.Name + "=")
				sh.reads = tmp.reads
			}
		}
		tmp.Assign(a.Name, a.Value)
		tmp.markUnknown(a.Name, IsUnknown(a.Value)) // the next value may read it
		out.Assigns[i] = a
	}
	return nil
}

func (s *Segment) expandRedirects(sh *Shell, out *Segment) error {
	if len(s.Redirects) == 0 {
		return nil
	}
	out.Redirects = make([]Redirect, len(s.Redirects))
	for i, r := range s.Redirects {
		if r.syn != nil {
			sh.reads = nil
			asWritten := r.Target // the unknown word the lowering left
			if err := s.expandRedirect(sh, &r); err != nil {
				return err
			}
			if len(sh.reads) > 0 {
				r.Target, r.Body, r.Ambiguous = asWritten, "", false
			}
		}
		out.Redirects[i] = r
	}
	return nil
}

func (s *Segment) expandRedirect(sh *Shell, r *Redirect) error {
	switch r.Op {
	case RedirHeredoc, RedirHeredocTabs:
		v, err := sh.expandWord(r.syn, documentMode)
		if err != nil {
			return s.expandError(r.BodySpan, err)
		}
		r.Body = v[0]
	case RedirHereString:
		v, err := sh.expandWord(r.syn, literalMode)
		if err != nil {
			return s.expandError(r.BodySpan, err)
		}
		r.Body = v[0] + "\n"
	default:
		f, _, err := sh.fields(r.syn)
		if err != nil {
			return s.expandError(r.Span, err)
		}
		// An ambiguous target keeps its text as written, for bash's
		// message ("$X: ambiguous redirect").
		r.Target, r.Ambiguous = UnknownSource(r.Target), len(f) != 1
		if len(f) == 1 {
			r.Target = f[0]
		}
	}
	return nil
}

// expandError is a failed expansion of the text at span, named by that
// text as bash names the expression ("$((1/0)): division by zero").
func (s *Segment) expandError(span Span, err error) *ExpandError {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 && strings.Contains(msg[:i], ":") {
		msg = msg[i+2:] // mvdan's "1:7: " position prefix
	}
	text := ""
	if a, b := span.Start-s.Span.Start, span.End-s.Span.Start; a >= 0 && b <= len(s.Text) && a < b {
		text = s.Text[a:b]
		msg = text + ": " + msg
	}
	if m, ok := divisionByZero(text, err); ok {
		msg = m
	}
	kind := KindExpansion
	if _, ok := err.(*unsupported); ok {
		kind = KindUnsupported
	}
	return &ExpandError{Kind: kind, Segment: s.Index, Offset: span.Start, Err: errors.New(msg)}
}

// divisionByZero words mvdan's "division by zero" as bash does: the
// expression, and the token where it failed (the divisor on).
func divisionByZero(text string, err error) (string, bool) {
	if !strings.Contains(err.Error(), "division by zero") {
		return "", false
	}
	i := strings.Index(text, "$((")
	j := strings.LastIndex(text, "))")
	if i < 0 || j < i+3 {
		return "", false
	}
	expr := strings.TrimSpace(text[i+3 : j])
	k := strings.LastIndexAny(expr, "/%")
	if k < 0 {
		return "", false
	}
	return fmt.Sprintf("%s: division by 0 (error token is %q)", expr, strings.TrimLeft(expr[k+1:], " ")), true
}

// HasExpansions reports whether anything in the segment expands.
func (s *Segment) HasExpansions() bool {
	for _, w := range s.Words {
		if w.Expands {
			return true
		}
	}
	for _, a := range s.Assigns {
		if a.syn != nil {
			return true
		}
	}
	for _, r := range s.Redirects {
		if r.syn != nil {
			return true
		}
	}
	return false
}
