package spec

import "strings"

// The built-ins that say what a name is (command -v, command -V, type) and
// command NAME, which runs NAME as bash would without its functions and
// aliases: a chain has none, so it runs NAME itself.

// BashBuiltins are bash's built-in commands, and BashKeywords its reserved
// words: what type and command -V call "a shell builtin" and "a shell
// keyword", whether or not chainrun runs them. Literal lists, laid out by
// the linker: nothing is built when a program starts.
var (
	BashBuiltins = []string{".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command",
		"compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec",
		"exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local",
		"logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set",
		"shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask",
		"unalias", "unset", "wait"}
	BashKeywords = []string{"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
		"do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}
)

// Command reads command's options (args after the name): query is 'v' or
// 'V' when command only reports what its names are (the last of -v and -V
// wins, as in bash), at is the index in args of the first name or of the
// command it runs, and bad is an option chainrun does not run (-p, which
// searches a default PATH, or one bash refuses too).
func Command(args []string) (query byte, at int, bad string) {
	for at < len(args) {
		a := args[at]
		if a == "--" {
			return query, at + 1, ""
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			if a[j] != 'v' && a[j] != 'V' {
				return 0, at, "-" + a[j:j+1]
			}
			query = a[j]
		}
		at++
	}
	return query, at, ""
}

// Type reads type's options (args after the name): the letters given
// (t: print the kind; p: the path of a program only; P: search PATH even
// for a built-in; f is accepted and changes nothing, a chain has no
// functions), at the index of the first name, and bad an option chainrun
// does not run (-a, which lists every match) or bash refuses.
func Type(args []string) (opts string, at int, bad string) {
	for at < len(args) {
		a := args[at]
		if a == "--" {
			return opts, at + 1, ""
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			if strings.IndexByte("tpPf", a[j]) < 0 {
				return "", at, "-" + a[j:j+1]
			}
			opts += a[j : j+1]
		}
		at++
	}
	return opts, at, ""
}

// queryEffects: command -v and -V and type only report; command NAME is no
// built-in of its own (the runner runs NAME, and the policy judges NAME
// through the command wrapper's registry record).
func queryEffects([]string) Effects { return Effects{} }

func setEffects([]string) Effects { return Effects{State: true} }
