package chain

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/internal/expr"
)

// compoundCommand lowers a compound command chainrun runs to a segment
// holding it (Segment.Compound) and its redirects. ok is false for a
// command that is no such compound: compound refuses it.
func (l *lowerer) compoundCommand(st *syntax.Stmt) (seg *Segment, err *ParseError, ok bool) {
	c := &Compound{}
	switch x := st.Cmd.(type) {
	case *syntax.Block:
		c.Kind = CompoundGroup
		err = l.bodies(c, x.Stmts)
	case *syntax.Subshell:
		c.Kind = CompoundSubshell
		err = l.bodies(c, x.Stmts)
	case *syntax.IfClause:
		c.Kind = CompoundIf
		err = l.ifClause(c, x)
	case *syntax.WhileClause:
		c.Kind = CompoundWhile
		if x.Until {
			c.Kind = CompoundUntil
		}
		err = l.whileClause(c, x)
	case *syntax.ForClause:
		if x.Select {
			return nil, nil, false
		}
		err = l.forClause(c, x)
	case *syntax.CaseClause:
		c.Kind = CompoundCase
		err = l.caseClause(c, x)
	default:
		return nil, nil, false
	}
	if err != nil {
		return nil, err, true
	}
	seg = l.startSegment(0, len(st.Redirs))
	seg.Compound = c
	errs := l.redirects(seg, st.Redirs, nil)
	if first := firstError(errs); first != nil {
		return nil, first, true
	}
	l.takeSubsts(seg)
	l.endSegment(seg, st.Cmd, st.Redirs)
	return seg, nil, true
}

// inner lowers a list of statements as an inner chain of the same
// source, with the same refusals as any chain.
func (l *lowerer) inner(stmts []*syntax.Stmt) (*Chain, *ParseError) {
	in := newLowerer(l.src, l.dialect, sourceFacts{segments: len(stmts) + 2, redirects: 4})
	in.inSubst, in.inPart = l.inSubst, true
	in.params, in.globstar = l.params, l.globstar
	if err := in.file(&syntax.File{Stmts: stmts}); err != nil {
		if pe, ok := err.(*ParseError); ok {
			return nil, pe
		}
		at := 0
		if len(stmts) > 0 {
			at = l.off(stmts[0].Pos())
		}
		return nil, refuse(l.src, at, KindUnsupported, "control flow", "%v", err)
	}
	l.chain.Warnings = append(l.chain.Warnings, in.chain.Warnings...)
	return in.chain, nil
}

// bodies appends the inner chain of each statement list to c.Bodies.
func (l *lowerer) bodies(c *Compound, lists ...[]*syntax.Stmt) *ParseError {
	for _, stmts := range lists {
		ch, err := l.inner(stmts)
		if err != nil {
			return err
		}
		c.Bodies = append(c.Bodies, ch)
	}
	return nil
}

// ifClause lowers if, its elifs (mvdan's nested Else clauses with a
// condition) and its else branch.
func (l *lowerer) ifClause(c *Compound, x *syntax.IfClause) *ParseError {
	for ; x != nil; x = x.Else {
		if len(x.Cond) == 0 { // else
			ch, err := l.inner(x.Then)
			if err != nil {
				return err
			}
			c.Else = ch
			return nil
		}
		cond, err := l.inner(x.Cond)
		if err != nil {
			return err
		}
		c.Conds = append(c.Conds, cond)
		if err := l.bodies(c, x.Then); err != nil {
			return err
		}
	}
	return nil
}

func (l *lowerer) whileClause(c *Compound, x *syntax.WhileClause) *ParseError {
	cond, err := l.inner(x.Cond)
	if err != nil {
		return err
	}
	c.Conds = []*Chain{cond}
	return l.bodies(c, x.Do)
}

// forClause lowers for NAME in WORDS and the C-style for ((…)).
func (l *lowerer) forClause(c *Compound, x *syntax.ForClause) *ParseError {
	switch loop := x.Loop.(type) {
	case *syntax.WordIter:
		if !loop.InPos.IsValid() {
			return refuse(l.src, l.off(x.Pos()), KindUnsupported, "control flow",
				"for %s without in is not supported (it loops over the positional parameters, which this chain does not set); write the words: for %s in a b; do …; done",
				loop.Name.Value, loop.Name.Value)
		}
		c.Kind, c.Var = CompoundFor, loop.Name.Value
		items := &Segment{dialect: l.dialect, Words: make([]Word, 0, len(loop.Items))}
		var errs []*ParseError
		for _, w := range loop.Items {
			if err := l.addWord(items, w, expr.Fields, ""); err != nil {
				errs = append(errs, err)
			}
		}
		if first := firstError(errs); first != nil {
			return first
		}
		l.takeSubsts(items)
		if n := len(loop.Items); n > 0 {
			items.Span = Span{l.off(loop.Items[0].Pos()), l.off(loop.Items[n-1].End())}
			items.Text = l.src[items.Span.Start:items.Span.End]
		}
		c.Items = items
	case *syntax.CStyleLoop:
		c.Kind = CompoundArithFor
		if err := l.arithLoop(c, loop); err != nil {
			return err
		}
	}
	return l.bodies(c, x.Do)
}

// caseClause lowers case WORD in …: the word as an assignment's value
// (bash expands it without splitting or globbing), each item's patterns
// and list.
func (l *lowerer) caseClause(c *Compound, x *syntax.CaseClause) *ParseError {
	at, end := l.off(x.Word.Pos()), l.off(x.Word.End())
	lw, err := l.word(x.Word, false)
	if err != nil {
		return err
	}
	as := Assign{Name: "case", Value: lw.value, Span: Span{at, end}}
	if lw.syn != nil {
		as.Expr, as.Value, as.Runtime = expr.New(lw.syn, expr.Literal, false), l.src[at:end], true
	}
	items := &Segment{dialect: l.dialect, Assigns: []Assign{as}, Span: Span{at, end}, Text: l.src[at:end]}
	l.takeSubsts(items)
	c.Items = items
	for _, it := range x.Items {
		var pats []Word
		for _, w := range it.Patterns {
			pw, err := l.pattern(w)
			if err != nil {
				return err
			}
			pats = append(pats, pw)
		}
		c.Patterns = append(c.Patterns, pats)
		c.CaseOps = append(c.CaseOps, it.Op.String())
		if err := l.bodies(c, it.Stmts); err != nil {
			return err
		}
	}
	return nil
}

// pattern lowers a case pattern: always matched through its syntax
// (Word.Expr), since quoting decides which characters are literal.
func (l *lowerer) pattern(w *syntax.Word) (Word, *ParseError) {
	at, end := l.off(w.Pos()), l.off(w.End())
	lw, err := l.word(w, false)
	if err != nil {
		return Word{}, err
	}
	if len(l.substs) > 0 {
		l.substs = nil
		return Word{}, refuse(l.src, at, KindUnsupported, "control flow",
			"a command substitution in a case pattern is not supported; set a variable first (p=$(…)) and match \"$p\"")
	}
	syn := lw.syn
	if syn == nil {
		syn = w
	}
	return Word{Span: Span{at, end}, Expands: true, Runtime: true, Fields: []string{l.src[at:end]},
		Expr: expr.New(syn, expr.Fields, false)}, nil
}

// arithLoop lowers the three expressions of for ((init; cond; post)),
// where, unlike in $((…)), assignments are what the loop is for.
func (l *lowerer) arithLoop(c *Compound, loop *syntax.CStyleLoop) *ParseError {
	for i, x := range []syntax.ArithmExpr{loop.Init, loop.Cond, loop.Post} {
		if x == nil {
			continue
		}
		var err *ParseError
		syntax.Walk(x, func(n syntax.Node) bool {
			if err != nil {
				return false
			}
			switch n := n.(type) {
			case *syntax.BinaryArithm:
				if isArithAssign(n.Op) {
					return true
				}
			case *syntax.UnaryArithm:
				if n.Op == syntax.Inc || n.Op == syntax.Dec {
					return true
				}
			}
			err = l.checkNode(n)
			return err == nil
		})
		if err != nil {
			return err
		}
		c.Arith[i] = Arith{Text: l.src[l.off(x.Pos()):l.off(x.End())], Expr: expr.NewArith(x)}
	}
	return nil
}

// orNil is e as an error: nil when e is.
func (e *ParseError) orNil() error {
	if e == nil {
		return nil
	}
	return e
}
