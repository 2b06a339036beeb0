package expand

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	shexpand "mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Where mvdan's expansion and bash part ways, the word is brought to
// bash's meaning here, or the expansion is refused with the reason.

// braceWords expands a word's braces as bash does, dropping the words
// that come out empty and unquoted ({a,} is a, not a and an empty word).
// ok is false when the word has no brace expansion.
func (sh *Shell) braceWords(w *syntax.Word) (words []*syntax.Word, ok bool, err error) {
	c := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(c) {
		return nil, false, nil
	}
	for bw, err := range shexpand.BracesSeq(sh.config(), c) {
		if err != nil {
			return nil, true, err
		}
		if !emptyUnquoted(bw) {
			words = append(words, bw)
		}
	}
	return words, true, nil
}

func emptyUnquoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); !ok || lit.Value != "" {
			return false
		}
	}
	return true
}

// dotComponents reports, for each path component of the word, whether
// it starts with a '.' written as such: only such a component of a glob
// matches names starting with a dot. mvdan's matcher lets a bracket
// expression ([!a]*) match one, which bash never does, so the listing of
// each directory drops them for the other components (Shell.readDir).
// abs says the word starts at the root, whose empty first component is
// not counted.
func dotComponents(w *syntax.Word) (dots []bool, abs bool) {
	start, first := true, true
	dots = []bool{false}
	for _, p := range w.Parts {
		var v string
		switch p := p.(type) {
		case *syntax.Lit:
			v = p.Value
		case *syntax.SglQuoted:
			v = p.Value
		case *syntax.DblQuoted:
			v = "x" // its first byte counts only as written
			if len(p.Parts) > 0 {
				if lit, ok := p.Parts[0].(*syntax.Lit); ok {
					v = lit.Value
				}
			}
		default:
			start, first = false, false
			continue
		}
		for i := 0; i < len(v); i++ {
			switch {
			case v[i] == '/':
				if first {
					abs = true
				} else {
					dots = append(dots, false)
				}
				start = true
			case start && (v[i] == '.' || v[i] == '\\' && i+1 < len(v) && v[i+1] == '.'):
				dots[len(dots)-1] = true
				start = false
			default:
				start = false
			}
			first = false
		}
	}
	return dots, abs
}

// dotsAllowed reports whether the listing of dir, a directory a glob of
// the current word reads, may keep names starting with a dot: whether the
// component it is read for starts with a written dot.
func (sh *Shell) dotsAllowed(dir string) bool {
	depth := 0
	if sh.dotAbs {
		dir = strings.TrimPrefix(dir, filepath.VolumeName(dir))
		depth = len(strings.FieldsFunc(dir, isSeparator))
	} else if rel, err := filepath.Rel(sh.Dir, dir); err == nil && rel != "." {
		depth = len(strings.FieldsFunc(rel, isSeparator))
	}
	return depth < len(sh.dots) && sh.dots[depth]
}

func isSeparator(r rune) bool { return r == '/' || r == filepath.Separator }

// checkIFS refuses to split on an IFS with other characters than space,
// tab and newline: bash keeps the empty fields such an IFS makes
// (one,,two is three fields), mvdan's splitting drops them.
func (sh *Shell) checkIFS(w *syntax.Word) error {
	ifs, ok := sh.Lookup("IFS")
	if !ok || strings.Trim(ifs, " \t\n") == "" {
		return nil
	}
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.ParamExp, *syntax.ArithmExp:
			return unsupportedf("IFS=%q splits unquoted expansions by rules chainrun does not follow (empty fields); quote the expansion, or split with a program (tr, cut)", ifs)
		}
	}
	return nil
}

// checkArith refuses arithmetic on a variable whose value is not a
// number: bash evaluates such a value as an expression in turn (X=1+2;
// $((X*2)) is 6) or fails, mvdan's expansion reads it as 0.
func (sh *Shell) checkArith(w *syntax.Word) error {
	var err error
	syntax.Walk(w, func(n syntax.Node) bool {
		a, ok := n.(*syntax.ArithmExp)
		if !ok || err != nil {
			return err == nil
		}
		syntax.Walk(a.X, func(n syntax.Node) bool {
			if err == nil {
				err = sh.arithOperand(n)
			}
			return err == nil
		})
		return false
	})
	return err
}

// arithOperand checks one node of an arithmetic expression: a bare name
// or a $NAME.
func (sh *Shell) arithOperand(n syntax.Node) error {
	name := ""
	switch n := n.(type) {
	case *syntax.ParamExp:
		if n.Param == nil || n.Length {
			return nil
		}
		if n.Exp != nil || n.Repl != nil || n.Slice != nil {
			// ${P:-0}: bash reads the expansion's text as arithmetic too.
			v, err := shexpand.Literal(sh.config(), &syntax.Word{Parts: []syntax.WordPart{n}})
			if err != nil || isArithNumber(strings.TrimSpace(v)) {
				return nil
			}
			return unsupportedf("$((…)) reads %q, which is not a number; bash would evaluate it as an expression in turn, which chainrun does not: compute it in one $((…))", v)
		}
		name = n.Param.Value
	case *syntax.Word:
		if lit, ok := n.Parts[0].(*syntax.Lit); ok && len(n.Parts) == 1 && lit.Value != "" && !isDigitByte(lit.Value[0]) {
			name = lit.Value
		}
	}
	if name == "" {
		return nil
	}
	v, ok := sh.Lookup(name)
	if !ok || isArithNumber(strings.TrimSpace(v)) {
		return nil
	}
	return unsupportedf("$((…)) reads %s=%q, which is not a number; bash would evaluate it as an expression in turn, which chainrun does not: compute it in one $((…))", name, v)
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// isArithNumber reports a value bash and mvdan read alike in arithmetic:
// empty, or an integer in decimal, 0x hex or 0 octal.
func isArithNumber(v string) bool {
	if v == "" {
		return true
	}
	v = strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	if strings.HasPrefix(v, "0b") || strings.HasPrefix(v, "0B") || strings.Contains(v, "_") {
		return false
	}
	_, err := strconv.ParseInt(v, 0, 64)
	return err == nil
}

// unsupported is an expansion chainrun refuses when it happens.
type unsupported struct{ msg string }

func (u *unsupported) Error() string { return u.msg }

func unsupportedf(format string, a ...any) error {
	return &unsupported{fmt.Sprintf(format, a...)}
}
