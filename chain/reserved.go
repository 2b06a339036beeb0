package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// closingWord reports the reserved words that only continue or close a
// compound command. bash's grammar has no rule that starts a command with
// one of them, so in command position they make the whole line a syntax
// error (status 2, nothing runs) — unlike a program of that name, which
// bash would only fail to find (127).
func closingWord(w string) bool {
	switch w {
	case "then", "else", "elif", "fi", "do", "done", "esac", "in", "}", "]]":
		return true
	}
	return false
}

// reservedCommand refuses a simple command whose first word is a closing
// reserved word. bash only reads a word as reserved when it is unquoted
// and in command position: after an assignment or a redirect it is an
// ordinary program name (`x=1 fi` and `>f fi` look for a program fi), so
// those are left alone. mvdan accepts some of these words (else, in) where
// bash does not, which is why the lowering checks them itself.
func (l *lowerer) reservedCommand(st *syntax.Stmt, call *syntax.CallExpr) *ParseError {
	if len(call.Args) == 0 || len(call.Assigns) > 0 {
		return nil
	}
	w := call.Args[0]
	if len(w.Parts) != 1 {
		return nil
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !closingWord(lit.Value) || l.src[l.off(lit.Pos()):l.off(lit.End())] != lit.Value {
		return nil // quoted or escaped: an ordinary word
	}
	for _, r := range st.Redirs {
		if l.off(r.Pos()) < l.off(w.Pos()) {
			return nil
		}
	}
	return refuse(l.src, l.off(w.Pos()), KindSyntax, "reserved word",
		"%q is a reserved word that only belongs inside a compound command; bash refuses the whole line (quote it to run a program of that name)", lit.Value)
}

// reservedAfterWord reports whether mvdan's "can only be used" error at
// off follows another word of the same simple command that leaves the
// reserved word an ordinary name for bash: a redirect's target, as in
// `>f fi`, which bash runs (and fails to find). After time, !, or the
// words that open a command list, the word is in command position and
// bash refuses the line too.
func reservedAfterWord(src string, off int) bool {
	i := off
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i == 0 || strings.IndexByte(";&|(\n", src[i-1]) >= 0 {
		return false
	}
	j := i
	for j > 0 && strings.IndexByte(" \t;&|(\n", src[j-1]) < 0 {
		j--
	}
	switch src[j:i] {
	case "time", "-p", "!", "if", "then", "else", "elif", "while", "until", "do", "{":
		return false
	}
	return true
}

// quotedWord returns the first `word` of one of mvdan's messages, which
// names the token it stopped at.
func quotedWord(msg string) string {
	_, rest, ok := strings.Cut(msg, "`")
	if !ok {
		return ""
	}
	w, _, _ := strings.Cut(rest, "`")
	return w
}
