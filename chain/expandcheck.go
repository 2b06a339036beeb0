package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The expansions chainrun performs are those with one meaning that needs
// no code run and no state beyond the chain's variables, directory, last
// status and files. checkExpansions refuses the rest at parse time, at the
// offset where each starts, with the fix: anything left in a word after
// this check is expanded by mvdan.cc/sh/v3/expand exactly as bash would.

// checkExpansions walks every node of a word part (nested defaults
// included: ${X:-$(id)} is refused at the $( ).
func (l *lowerer) checkExpansions(p syntax.Node) *ParseError {
	var err *ParseError
	syntax.Walk(p, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		err = l.checkNode(n)
		return err == nil
	})
	return err
}

func (l *lowerer) checkNode(n syntax.Node) *ParseError {
	switch n := n.(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ExtGlob:
		return l.refusePart(n.(syntax.WordPart))
	case *syntax.DblQuoted:
		if n.Dollar {
			return l.refusePart(n)
		}
	case *syntax.ParamExp:
		if err := l.paramProcSubst(n); err != nil {
			return err
		}
		return l.checkParam(n)
	case *syntax.SglQuoted:
		if n.Dollar && strings.Contains(l.src[l.off(n.Pos()):l.off(n.End())], `\c`) {
			return refuse(l.src, l.off(n.Pos()), KindUnsupported, "ANSI-C quoting",
				`\c (a control character) in $'…' is not supported; write the character with \x, as $'\x01' for \cA`)
		}
	case *syntax.BinaryArithm:
		if isArithAssign(n.Op) {
			return l.arithAssign(l.off(n.OpPos), n.Op.String())
		}
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			return l.arithAssign(l.off(n.OpPos), n.Op.String())
		}
	}
	return nil
}

func isArithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
		syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

func (l *lowerer) arithAssign(at int, op string) *ParseError {
	return refuse(l.src, at, KindUnsupported, "arithmetic assignment",
		"%s inside $((…)) assigns a variable, which chainrun does not do inside an expansion; set it with NAME=value first, then use $((NAME+1))", op)
}

// checkParam refuses the parameter expansions without a single meaning
// for a chain: positional and special parameters (bash would expand them
// to nothing, never what was meant), expansions with side effects,
// arrays, indirection, and the variables bash computes itself.
func (l *lowerer) checkParam(pe *syntax.ParamExp) *ParseError {
	at := l.off(pe.Pos())
	text := strings.ReplaceAll(l.src[at:l.off(pe.End())], "\\\n", "")
	if pe.Param == nil || pe.Flags != nil || pe.NestedParam != nil || pe.Width || pe.IsSet || len(pe.Modifiers) > 0 {
		return refuse(l.src, at, KindUnsupported, "parameter expansion", "%s is not bash syntax", text)
	}
	name := pe.Param.Value
	if pe.Short && strings.EqualFold(name, "env") && strings.HasPrefix(l.src[l.off(pe.End()):], ":") {
		return refuse(l.src, at, KindUnsupported, "PowerShell syntax",
			"$env:NAME is PowerShell syntax; write $NAME, or set it with NAME=value before the command")
	}
	if hint, ok := specialParam(name); ok && !(l.params && Positional(name)) {
		return refuse(l.src, at, KindUnsupported, "special parameter", "%s %s", text, hint)
	}
	switch {
	case pe.Excl || pe.Names != 0:
		return refuse(l.src, at, KindUnsupported, "parameter expansion",
			"%s is an indirect expansion, which is not supported; name the variable directly", text)
	case pe.Index != nil:
		return refuse(l.src, at, KindUnsupported, "parameter expansion",
			"%s indexes an array; chainrun has no arrays: use a plain variable", text)
	case pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && !plainTransform(pe.Exp.Word):
		return refuse(l.src, at, KindUnsupported, "parameter expansion",
			"%s is not supported; of the ${X@…} transformations chainrun does ${X@U}, ${X@u} and ${X@L}", text)
	case pe.Exp != nil && pe.Exp.Word != nil && tildeDefault(pe.Exp.Word):
		return refuse(l.src, l.off(pe.Exp.Word.Pos()), KindUnsupported, "parameter expansion",
			"a ~ at the start of the word in %s expands or stays as written depending on quotes by rules chainrun does not follow; write $HOME", text)
	case pe.Exp != nil && sideEffect(pe.Exp.Op) && assignable(pe) && l.inRedirect:
		return refuse(l.src, at, KindUnsupported, "parameter expansion",
			"%s in a redirect assigns %s only in the child bash forks for a program, and in the shell for a built-in; set it first with %s=value", text, name, name)
	case pe.Exp != nil && sideEffect(pe.Exp.Op) && !assignable(pe):
		return refuse(l.src, at, KindUnsupported, "parameter expansion",
			"%s assigns the variable or aborts when it is unset, a side effect chainrun does not perform inside an expansion; use ${%s:-default}, or set it first with %s=value", text, name, name)
	case pe.Repl != nil && pe.Repl.Orig != nil && anchored(l.src[l.off(pe.Repl.Orig.Pos()):]):
		return refuse(l.src, at, KindUnsupported, "parameter expansion",
			"%s anchors its pattern with # or %%, which chainrun does not support; use ${X#prefix} or ${X%%suffix} and add the new text", text)
	case pe.Exp != nil && pe.Exp.Word != nil && l.quotedInside(pe.Exp.Word):
		return refuse(l.src, l.off(pe.Exp.Word.Pos()), KindUnsupported, "parameter expansion",
			"quotes inside %s are read by rules chainrun does not follow; quote the whole expansion instead (\"${%s%s…}\")", text, name, pe.Exp.Op)
	}
	return nil
}

// anchored reports a ${X/#p/r} or ${X/%%p/r} pattern: mvdan's parser reads
// the # and %% as part of the pattern.
func anchored(orig string) bool {
	return strings.HasPrefix(orig, "#") || strings.HasPrefix(orig, "%")
}

// quotedInside reports quotes in the word of ${X:-word} and its kin that
// bash and mvdan's expansion read differently: single quotes when the
// expansion is inside double quotes (bash keeps them), and any quoted
// text with spaces or pattern characters when it is not (bash keeps it
// one word; an expansion inside may hold either). Which of the two
// applies is not known from the word alone, so both refuse.
func (l *lowerer) quotedInside(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			return true
		case *syntax.DblQuoted:
			if strings.ContainsAny(l.src[l.off(p.Pos()):l.off(p.End())], " \t\n*?[$`") {
				return true
			}
		}
	}
	return false
}

// plainTransform reports the ${X@op} operators whose meaning mvdan's
// expansion gives exactly; @P runs prompt expansion (commands), @Q of an
// unset variable, @E, @a, @A and @K read differently.
func plainTransform(w *syntax.Word) bool {
	switch w.Lit() {
	case "U", "u", "L":
		return true
	}
	return false
}

// tildeDefault reports a word of ${X:-word} starting with ~: bash expands
// it outside double quotes and keeps it inside; mvdan's expansion always
// expands it.
func tildeDefault(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(lit.Value, "~")
}

func sideEffect(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return true
	}
	return false
}

// specialParam reports the parameters refused by name, with the rest of
// the message.
func specialParam(name string) (string, bool) {
	switch {
	case name == "0":
		return "is the shell's name, and there is no shell: write the program's name", true
	case name == "@" || name == "*" || name == "#" || isDigits(name):
		return "is a positional parameter, and a chain has none: bash would expand it to nothing. If it belongs to a program (awk '{print $1}', a script's text), put it in single quotes", true
	case name == "-" || name == "$" || name == "_":
		return "is a property of a running bash (its options, its process id, the last argument), which a chain does not have", true
	}
	switch name {
	case "LINENO", "RANDOM", "SRANDOM", "SECONDS", "BASHPID", "EPOCHSECONDS", "EPOCHREALTIME",
		"PIPESTATUS", "FUNCNAME", "GROUPS", "UID", "EUID", "PPID", "HOSTNAME", "HOSTTYPE",
		"OSTYPE", "MACHTYPE", "SHLVL", "SHELLOPTS", "BASHOPTS", "DIRSTACK", "HISTCMD", "BASH",
		"BASH_VERSION", "BASH_VERSINFO", "BASH_SOURCE", "BASH_LINENO", "BASH_REMATCH",
		"BASH_ARGV", "BASH_ARGC", "BASH_COMMAND", "BASH_SUBSHELL", "COMP_WORDS", "IGNOREEOF":
		return "is a variable bash computes itself, which chainrun does not: write the value, or use a program (id -u, hostname, uname)", true
	}
	return "", false
}
