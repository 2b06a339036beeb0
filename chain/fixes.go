package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The next step a refusal of a loop or a command substitution shows: the
// chain to write instead, built from the user's own text where it can be
// written out exactly, else a worked example.

// maxFixLen bounds a written-out chain; a longer one would bury the
// message, and the example says the same.
const maxFixLen = 200

// plainItem reports a loop item that means itself wherever it is pasted:
// no quoting, expansion or glob characters.
func plainItem(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("._/:@%+=,-", r)) {
			return false
		}
	}
	return s != ""
}

// forFix is the chain a for loop means, each iteration written out and
// joined with ; (a loop goes on after a failing iteration, as ; does), when
// its items are plain words and its body names the variable only as $NAME
// or ${NAME}; else the same shown on an example.
func forFix(src string, c *syntax.ForClause) string {
	const example = "write one command per item, joined with ; (for f in a b; do ls $f; done is ls a; ls b)"
	it, ok := c.Loop.(*syntax.WordIter)
	if !ok || c.Select || len(it.Items) == 0 || len(c.Do) == 0 {
		return example
	}
	items := make([]string, len(it.Items))
	for i, w := range it.Items {
		items[i] = src[w.Pos().Offset():w.End().Offset()]
		if !plainItem(items[i]) {
			return example
		}
	}
	start, end := int(c.Do[0].Pos().Offset()), int(c.Do[len(c.Do)-1].End().Offset())
	uses, ok := loopVarUses(c.Do, it.Name.Value)
	if !ok {
		return example
	}
	var iters []string
	for _, item := range items {
		var b strings.Builder
		at := start
		for _, u := range uses {
			b.WriteString(src[at:u[0]])
			b.WriteString(item)
			at = u[1]
		}
		b.WriteString(src[at:end])
		iters = append(iters, strings.TrimRight(b.String(), "; \t\n"))
	}
	fix := strings.Join(iters, "; ")
	if len(fix) > maxFixLen || strings.Contains(fix, "\n") {
		return example
	}
	return "write instead: " + fix
}

// loopVarUses lists the spans of $NAME and ${NAME} in the body, in order;
// ok is false when the body uses the variable any other way (${NAME%x},
// an assignment) or holds a nested loop, whose meaning a text substitution
// would not keep.
func loopVarUses(body []*syntax.Stmt, name string) (spans [][2]int, ok bool) {
	ok = true
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ParamExp:
				if n.Param != nil && n.Param.Value == name {
					if !plainParam(n) {
						ok = false
					}
					spans = append(spans, [2]int{int(n.Pos().Offset()), int(n.End().Offset())})
				}
			case *syntax.Assign:
				if n.Name != nil && n.Name.Value == name {
					ok = false
				}
			case *syntax.ForClause, *syntax.WhileClause:
				ok = false
			}
			return ok
		})
	}
	return spans, ok
}

// plainParam reports $NAME or ${NAME}: no operator, index or length.
func plainParam(p *syntax.ParamExp) bool {
	return !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil
}

// substFix says how to keep a command substitution bash runs inside
// another expansion: assign it to a variable first and expand that.
func substFix(src string, c *syntax.CmdSubst) string {
	whole := src[c.Pos().Offset():c.End().Offset()]
	if len(whole) > maxFixLen || strings.Contains(whole, "\n") {
		return "; assign it to a variable first (v=$(…)) and use $v there"
	}
	return "; assign it to a variable first: v=" + whole + " then $v in its place"
}
