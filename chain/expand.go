package chain

import (
	"errors"
	"fmt"
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
	// Globbed is set when the word was a glob that matched files (its
	// fields are the matches).
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
	hint, ok := shellBuiltin(name, s.dialect)
	if name == "export" || name == "unset" {
		hint, ok = "write "+name+" itself, not through a variable", true
	}
	if ok {
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
				return s.expandError(w.Span.Start, err)
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
// pattern characters).
func (sh *Shell) fields(w *syntax.Word) ([]string, bool, error) {
	sh.globbed, sh.skipPWD = false, true
	f, err := sh.expandWord(w, fieldsMode)
	return f, sh.globbed, err
}

func (s *Segment) expandAssigns(sh *Shell, out *Segment) error {
	if len(s.Assigns) == 0 {
		return nil
	}
	out.Assigns = make([]Assign, len(s.Assigns))
	tmp := sh.Clone()
	for i, a := range s.Assigns {
		if a.syn != nil {
			syn := a.syn
			if a.tildeAfter {
				syn = tmp.assignTildes(syn, false)
			}
			tmp.reads = nil
			v, err := tmp.expandWord(syn, literalMode)
			if err != nil {
				return s.expandError(a.Span.Start, err)
			}
			a.Value = v[0]
			if len(tmp.reads) > 0 {
				a.Value = Unknown(a.Name + "=")
				sh.reads = tmp.reads
			}
		}
		tmp.Assign(a.Name, a.Value)
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
			if err := s.expandRedirect(sh, &r); err != nil {
				return err
			}
			if len(sh.reads) > 0 {
				r.Target, r.Body, r.Ambiguous = "", "", false
				if !r.Op.IsText() {
					r.Target = Unknown(s.Text[r.Span.Start-s.Span.Start : r.Span.End-s.Span.Start])
				}
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
			return s.expandError(r.BodySpan.Start, err)
		}
		r.Body = v[0]
	case RedirHereString:
		v, err := sh.expandWord(r.syn, literalMode)
		if err != nil {
			return s.expandError(r.BodySpan.Start, err)
		}
		r.Body = v[0] + "\n"
	default:
		f, _, err := sh.fields(r.syn)
		if err != nil {
			return s.expandError(r.Span.Start, err)
		}
		r.Target, r.Ambiguous = "", len(f) != 1
		if len(f) == 1 {
			r.Target = f[0]
		}
	}
	return nil
}

func (s *Segment) expandError(off int, err error) *ExpandError {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 && strings.Contains(msg[:i], ":") {
		msg = msg[i+2:] // mvdan's "1:7: " position prefix
	}
	return &ExpandError{Kind: KindExpansion, Segment: s.Index, Offset: off, Err: errors.New(msg)}
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
