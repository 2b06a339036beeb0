package builtin

import (
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Trace is what bash's set -x writes for a command about to run, its
// words expanded: a line "+ NAME=value" for each assignment, then "+ " and
// the words, each quoted as bash's xtrace quotes it (xtraceWord). depth is
// the nesting of the chain (1; 2 inside a command substitution, …): bash
// repeats the "+" once per level. env is the segment's environment, whose
// locale says which bytes print.
func Trace(depth int, assigns []chain.Assign, args []string, env []string) []byte {
	u := localeIsUTF8(env)
	plus := strings.Repeat("+", max(depth, 1))
	var b strings.Builder
	for _, a := range assigns {
		b.WriteString(plus + " " + a.Name + "=")
		if a.Value != "" {
			b.WriteString(xtraceWord(a.Value, u))
		}
		b.WriteByte('\n')
	}
	if len(args) > 0 {
		b.WriteString(plus)
		for _, a := range args {
			b.WriteString(" " + xtraceWord(a, u))
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// xtraceWord quotes a word as bash's xtrace does: ” for an empty word;
// single quotes when it holds a character the shell would read (a blank,
// a quote, an operator, a glob, $, a leading # or ~); $'…' when it holds
// a byte that does not print; else the word as it is.
func xtraceWord(w string, utf8Locale bool) string {
	switch {
	case w == "":
		return "''"
	case hasShellMetas(w):
		return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	case !allPrintable(w, utf8Locale):
		return ansiQuote(w, utf8Locale)
	}
	return w
}

// hasShellMetas is bash's sh_contains_shell_metas.
func hasShellMetas(w string) bool {
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case strings.IndexByte(" \t\n'\"\\|&;()<>!{}*[?]^$`", c) >= 0:
			return true
		case c == '~' && (i == 0 || w[i-1] == '=' || w[i-1] == ':'), c == '#' && i == 0:
			return true
		}
	}
	return false
}
