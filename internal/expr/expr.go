// Package expr carries, inside a chain model, the syntax a word expands
// from, from the parser (package chain) to the expansion (package
// expand). Outside this module an Expr is opaque: it has no exported
// fields or methods, so neither package's exported API hands out
// mvdan.cc/sh types.
package expr

import "mvdan.cc/sh/v3/syntax"

// Mode says how a word expands.
type Mode uint8

const (
	// Fields is an argument: split, globbed, braces.
	Fields Mode = iota
	// Literal is an assignment's value or a here-string: one string,
	// tilde after = and :.
	Literal
	// Document is a heredoc body: parameters, arithmetic and \ escapes
	// only.
	Document
)

// Expr is what a word, an assignment's value or a redirect's target or
// body expands from; the zero Expr is a text that does not expand.
// A word in Literal mode is export's NAME=value argument: its value is
// the syntax, and the text before it, up to the first '=' of the word as
// written, is kept as written.
type Expr struct {
	syn        *syntax.Word // mvdan's word, in bash's reading of backslashes
	mode       Mode
	tildeAfter bool // a tilde after = or : that mvdan does not expand
}

// New returns the Expr of w read in mode m; tildeAfter says a tilde
// after = or : may expand.
func New(w *syntax.Word, m Mode, tildeAfter bool) Expr {
	return Expr{syn: w, mode: m, tildeAfter: tildeAfter}
}

// Syntax returns the word to expand, or nil when e does not expand.
func Syntax(e Expr) *syntax.Word { return e.syn }

// ModeOf returns how e expands.
func ModeOf(e Expr) Mode { return e.mode }

// TildeAfter reports a tilde after = or : that may expand.
func TildeAfter(e Expr) bool { return e.tildeAfter }

// Arith is what an arithmetic expression evaluates from (a C-style for
// loop's); the zero Arith is an empty expression.
type Arith struct{ syn syntax.ArithmExpr }

// NewArith returns the Arith of x.
func NewArith(x syntax.ArithmExpr) Arith { return Arith{syn: x} }

// ArithSyntax returns the syntax of a, nil when it is empty.
func ArithSyntax(a Arith) syntax.ArithmExpr { return a.syn }
