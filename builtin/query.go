package builtin

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/expand"
)

// The built-ins that say what a name is, as bash says it: command -v
// (the path, or the name of a built-in or keyword), command -V and type
// ("ls is /usr/bin/ls", "echo is a shell builtin").

// kind is what a name is to bash: "keyword", "builtin", "file" (path set)
// or "" when it is nothing.
func describe(name string, c Call, st State) (kind, path string) {
	switch {
	case slices.Contains(spec.BashKeywords, name):
		return "keyword", ""
	case slices.Contains(spec.BashBuiltins, name):
		return "builtin", ""
	}
	return findFile(name, c, st)
}

// findFile is name's program as the segment would run it: the path found
// in PATH, or the name itself when it holds a separator.
func findFile(name string, c Call, st State) (kind, path string) {
	p, ok := st.Find(name, c.Env)
	if !ok {
		return "", ""
	}
	if strings.ContainsAny(name, "/\\") {
		p = name
	}
	return "file", p
}

// command runs command -v or -V (the parser sends command NAME … to the
// runner, which runs NAME): status 0 when any name was found, else 1.
func command(io *IO, args []string, c Call, st State) int {
	q, at, bad := spec.Command(args)
	if bad != "" {
		if bad == "-p" {
			return io.fail(2, "command: -p: not supported: chainrun does not model the default PATH; drop -p")
		}
		io.fail(2, "command: "+bad+": invalid option")
		return io.fail(2, "command: usage: command [-pVv] command [arg ...]")
	}
	names := args[at:]
	if len(names) == 0 {
		return 0
	}
	code := 1
	for _, n := range names {
		kind, path := describe(n, c, st)
		switch {
		case kind == "":
			if q == 'V' {
				io.fail(1, "command: "+n+": not found")
			}
			continue
		case q == 'V':
			io.write(1, []byte(verbose(n, kind, path, st)))
		case kind == "file":
			io.write(1, []byte(path+"\n"))
		default:
			io.write(1, []byte(n+"\n"))
		}
		code = 0
	}
	return code
}

// verbose is command -V's and type's line for a name found: a program
// the chain ran already is in bash's hash table, and says so.
func verbose(name, kind, path string, st State) string {
	switch kind {
	case "keyword":
		return name + " is a shell keyword\n"
	case "builtin":
		return name + " is a shell builtin\n"
	}
	if h, ok := st.Hashed(name); ok && h == path {
		return name + " is hashed (" + path + ")\n"
	}
	return name + " is " + path + "\n"
}

// typeCmd runs type [-tpPf] NAME…: status 1 when any name was not found.
func typeCmd(io *IO, args []string, c Call, st State) int {
	opts, at, bad := spec.Type(args)
	if bad != "" {
		if bad == "-a" {
			return io.fail(2, "type: -a: not supported: chainrun does not list every match; use which -a")
		}
		io.fail(2, "type: "+bad+": invalid option")
		return io.fail(2, "type: usage: type [-afptP] name [name ...]")
	}
	code := 0
	for _, n := range args[at:] {
		kind, path := describe(n, c, st)
		if strings.Contains(opts, "P") {
			kind, path = findFile(n, c, st)
		}
		switch {
		case kind == "":
			if opts == "" || opts == "f" {
				io.fail(1, "type: "+n+": not found")
			}
			code = 1
		case strings.Contains(opts, "t"):
			io.write(1, []byte(kind+"\n"))
		case strings.ContainsAny(opts, "pP"):
			if kind == "file" {
				io.write(1, []byte(path+"\n"))
			}
		default:
			io.write(1, []byte(verbose(n, kind, path, st)))
		}
	}
	return code
}

// set runs set's option changes (spec.Set) on the chain's options; what
// chainrun does not carry out fails with status 2, as an invalid option
// does in bash.
func set(io *IO, args []string, st State, inPipeline bool) int {
	changes, err := spec.Set(args)
	if err != nil {
		io.fail(2, "set: "+err.Error())
		if err.Invalid && err.Why == "invalid option" {
			io.fail(2, "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]")
		}
		return 2
	}
	if inPipeline {
		return 0
	}
	if params, ok := spec.SetOperands(args); ok {
		sh := st.Shell()
		sh.Params = params
		st.Keep(sh)
	}
	o := st.Options()
	for _, ch := range changes {
		switch ch.Option {
		case "errexit":
			o.Errexit = ch.On
		case "nounset":
			o.Nounset = ch.On
		case "pipefail":
			o.Pipefail = ch.On
		case "xtrace":
			o.Xtrace = ch.On
		}
	}
	return 0
}

// Options are the shell options set changes, which the runner obeys.
type Options struct {
	// Errexit (set -e): a pipeline that fails ends the chain, unless it is
	// followed by && or || (bash's exceptions).
	Errexit bool
	// Nounset (set -u): expanding an unset variable is an error.
	Nounset bool
	// Pipefail (set -o pipefail): a pipeline's status is its rightmost
	// non-zero one.
	Pipefail bool
	// Xtrace (set -x): each command is written to the chain's stderr as
	// it starts (Trace).
	Xtrace bool
	// Glob are the shopt options that change globbing.
	Glob expand.GlobOptions
}
