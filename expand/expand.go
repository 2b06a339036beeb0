package expand

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	shexpand "mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/expr"
)

// Error is an expansion that failed when its segment was about to
// start: $((1/0)) (chain.KindExpansion; bash ends the chain there with status
// 1), or a command word that expanded to a shell built-in chainrun does
// not run (chain.KindUnsupported).
type Error struct {
	Kind    chain.ErrorKind
	Segment int
	Offset  int
	Err     error
	// Unset is set for an unset variable under set -u (Shell.NoUnset):
	// bash's status for it is 127.
	Unset bool
	// Redirect is set when a redirect's target or text failed: for a
	// program bash expands it in the child it forked, so only that
	// command fails.
	Redirect bool
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ErrorKind returns e.Kind, for chain.KindOf.
func (e *Error) ErrorKind() chain.ErrorKind { return e.Kind }

// config is the expansion configuration for s: command substitutions
// through s's Substitute (cmdSubst) in a segment that has them, globs
// through s's ReadDir, case-insensitive on Windows.
func (s *Shell) config() *shexpand.Config {
	cfg := &shexpand.Config{
		Env:        shellEnviron{s},
		ReadDir2:   s.readDir,
		NoCaseGlob: s.windows() || s.Glob.NoCaseGlob,
		NoUnset:    s.NoUnset,
		GlobStar:   s.Glob.GlobStar,
		NullGlob:   s.Glob.NullGlob,
		DotGlob:    s.Glob.DotGlob,
	}
	if s.segment != nil && len(s.segment.Substs) > 0 {
		cfg.CmdSubst, cfg.ProcSubst = s.cmdSubst, s.procSubst
	}
	return cfg
}

// expandWord expands one word in mode m.
func (s *Shell) expandWord(w *syntax.Word, m expr.Mode) ([]string, error) {
	cfg := s.config()
	switch m {
	case expr.Literal:
		v, err := shexpand.Literal(cfg, w)
		return []string{v}, err
	case expr.Document:
		v, err := shexpand.Document(cfg, w)
		return []string{v}, err
	}
	if g, ok := s.anchorDrive(w); ok {
		fields, err := shexpand.Fields(cfg, g.word)
		return g.restore(fields), err
	}
	return shexpand.Fields(cfg, w)
}

// Segment returns the segment as it runs in shell sh: every argument word,
// assignment value, redirect target and heredoc body expanded. The
// assignments expand after the arguments, left to right, each seeing the
// ones before it, as bash does. A segment without expansions is returned
// as it is.
func Segment(s *chain.Segment, sh *Shell) (*chain.Segment, error) {
	if !s.HasExpansions() {
		return s, nil
	}
	sh.segment = s
	defer func() { sh.segment = nil }()
	out := *s
	if err := expandArgs(s, sh, &out); err != nil {
		return nil, err
	}
	if err := expandAssigns(s, sh, &out); err != nil {
		return nil, err
	}
	if err := expandRedirects(s, sh, &out); err != nil {
		return nil, err
	}
	if len(s.Words) > 0 && s.Words[0].Expands {
		if err := commandWord(s, &out); err != nil {
			return nil, err
		}
	}
	if sh.unknown == nil {
		out.Substs = nil // they ran: what is judged now is their output
	}
	return &out, nil
}

// commandWord settles what an expanded command word names: an engine
// built-in, or a shell built-in chainrun cannot run, which stops the
// chain there as a refusal would have before it.
func commandWord(s *chain.Segment, out *chain.Segment) error {
	out.Builtin = ""
	if len(out.Args) == 0 {
		return nil
	}
	name := out.Args[0]
	b, hint := s.CommandBuiltin(out.Args)
	out.Builtin = b
	if hint != "" {
		return &Error{Kind: chain.KindUnsupported, Segment: s.Index, Offset: s.Words[0].Span.Start,
			Err: fmt.Errorf("%s expanded to %q, a shell built-in chainrun does not run; %s", s.WordText(0), name, hint)}
	}
	return nil
}

func expandArgs(s *chain.Segment, sh *Shell, out *chain.Segment) error {
	out.Words = make([]chain.Word, len(s.Words))
	out.Args = make([]string, 0, len(s.Args))
	for i, w := range s.Words {
		w.Fields, w.Globbed, w.Runtime = []string{argValue(s, i)}, false, false
		if w.Expands {
			sh.reads = nil
			f, globbed, err := sh.wordFields(&w, s.WordText(i))
			if err != nil {
				return expandError(s, w.Span, err)
			}
			w.Fields, w.Globbed = f, globbed
			if len(sh.reads) > 0 {
				w.Fields, w.Runtime = []string{s.WordText(i)}, true
			}
		}
		out.Words[i] = w
		out.Args = append(out.Args, w.Fields...)
	}
	return nil
}

// argValue is word i's value when it does not expand.
func argValue(s *chain.Segment, i int) string {
	w := s.Words[i]
	if len(w.Fields) == 1 {
		return w.Fields[0]
	}
	return ""
}

// wordFields expands an argument word by its mode; text is the word as
// written.
func (sh *Shell) wordFields(w *chain.Word, text string) ([]string, bool, error) {
	syn, mode := expr.Syntax(w.Expr), expr.ModeOf(w.Expr)
	if expr.TildeAfter(w.Expr) {
		syn = sh.assignTildes(syn, mode == expr.Fields)
	}
	if mode == expr.Literal {
		v, err := sh.expandWord(syn, expr.Literal)
		if err != nil {
			return nil, false, err
		}
		// export's NAME=value: NAME= as written, then the value.
		prefix := text[:strings.IndexByte(text, '=')+1]
		return []string{prefix + v[0]}, false, nil
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
		f, err := sh.expandWord(bw, expr.Fields)
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

func expandAssigns(s *chain.Segment, sh *Shell, out *chain.Segment) error {
	if len(s.Assigns) == 0 {
		return nil
	}
	out.Assigns = make([]chain.Assign, len(s.Assigns))
	tmp := sh.Clone()
	for i, a := range s.Assigns {
		if a.Expands() {
			syn := tmp.colonTilde(expr.Syntax(a.Expr))
			if expr.TildeAfter(a.Expr) {
				syn = tmp.assignTildes(syn, false)
			}
			tmp.reads = nil
			v, err := tmp.expandWord(syn, expr.Literal)
			if err != nil {
				return expandError(s, a.Span, err)
			}
			a.Value, a.Runtime = v[0], false
			if len(tmp.reads) > 0 {
				a.Value, a.Runtime = a.Name+"=", true
				sh.reads = tmp.reads
			}
		}
		tmp.Assign(a.Name, a.Value)
		tmp.markUnknown(a.Name, a.Runtime) // the next value may read it
		out.Assigns[i] = a
	}
	if tmp.substituted {
		sh.substStatus, sh.substituted = tmp.substStatus, true
	}
	return nil
}

func expandRedirects(s *chain.Segment, sh *Shell, out *chain.Segment) error {
	if len(s.Redirects) == 0 {
		return nil
	}
	out.Redirects = make([]chain.Redirect, len(s.Redirects))
	for i, r := range s.Redirects {
		if r.Expands() {
			sh.reads = nil
			asWritten := r.Target // the text as written the lowering left
			if err := expandRedirect(s, sh, &r); err != nil {
				if e, ok := err.(*Error); ok {
					e.Redirect = true
				}
				return err
			}
			r.Runtime = len(sh.reads) > 0
			if r.Runtime {
				r.Target, r.Body, r.Ambiguous = asWritten, "", false
			}
		}
		out.Redirects[i] = r
	}
	return nil
}

func expandRedirect(s *chain.Segment, sh *Shell, r *chain.Redirect) error {
	switch r.Op {
	case chain.RedirHeredoc, chain.RedirHeredocTabs:
		v, err := sh.expandWord(expr.Syntax(r.Expr), expr.Document)
		if err != nil {
			return expandError(s, r.BodySpan, err)
		}
		r.Body = v[0]
	case chain.RedirHereString:
		v, err := sh.expandWord(expr.Syntax(r.Expr), expr.Literal)
		if err != nil {
			return expandError(s, r.BodySpan, err)
		}
		r.Body = v[0] + "\n"
	default:
		f, _, err := sh.fields(expr.Syntax(r.Expr))
		if err != nil {
			return expandError(s, r.Span, err)
		}
		// An ambiguous target keeps its text as written, for bash's
		// message ("$X: ambiguous redirect").
		r.Ambiguous = len(f) != 1
		if len(f) == 1 {
			r.Target = f[0]
		}
	}
	return nil
}

// expandError is a failed expansion of the text at span, named by that
// text as bash names the expression ("$((1/0)): division by zero").
func expandError(s *chain.Segment, span chain.Span, err error) *Error {
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
	var unset shexpand.UnsetParameterError
	isUnset := errors.As(err, &unset) && unset.Message == "unbound variable"
	if isUnset {
		msg = unset.Error() // bash's "X: unbound variable"
		if chain.Positional(unset.Node.Param.Value) {
			msg = "$" + msg // bash names $1 so
		}
	}
	kind := chain.KindExpansion
	if _, ok := err.(*unsupported); ok {
		kind = chain.KindUnsupported
	}
	return &Error{Kind: kind, Segment: s.Index, Offset: span.Start, Err: errors.New(msg), Unset: isUnset}
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
