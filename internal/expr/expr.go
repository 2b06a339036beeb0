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
type Expr struct {
	syn        *syntax.Word // mvdan's word, in bash's reading of backslashes
	mode       Mode
	prefix     string // export's "NAME=" before a literal-mode value
	tildeAfter bool   // a tilde after = or : that mvdan does not expand
}

// New returns the Expr of w read in mode m: prefix is the text written
// before it (export's "NAME="), tildeAfter that a tilde after = or :
// may expand.
func New(w *syntax.Word, m Mode, prefix string, tildeAfter bool) Expr {
	return Expr{syn: w, mode: m, prefix: prefix, tildeAfter: tildeAfter}
}

// Syntax returns the word to expand, or nil when e does not expand.
func Syntax(e Expr) *syntax.Word { return e.syn }

// ModeOf returns how e expands.
func ModeOf(e Expr) Mode { return e.mode }

// Prefix returns the text written before e's word.
func Prefix(e Expr) string { return e.prefix }

// TildeAfter reports a tilde after = or : that may expand.
func TildeAfter(e Expr) bool { return e.tildeAfter }
