package policy

import (
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
)

// Shells: the programs whose arguments can be a command line a shell runs
// (the sh family's -c, cmd /c, powershell -Command, su -c), each finding
// its body its own way; and the shell built-ins that run their arguments
// as code.

func registerShell() {
	registerAll(
		&program{names: []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash"},
			body: posixBody, runsCode: true},
		&program{names: []string{"cmd"}, body: cmdBody, winBody: true, runsCode: true},
		&program{names: []string{"powershell", "pwsh"}, body: powershellBody, winBody: true, runsCode: true},
		&program{names: []string{"su", "runuser"}, body: suBody, userCmd: true, runsCode: true},
		&program{names: []string{"eval", "exec"}, runsCode: true},
		// command NAME runs NAME (a chain has no functions for it to
		// skip); command -v and -V only say what their names are.
		&program{names: []string{"command"}, narrow: true, runsCode: true, opts: optSpec{shortFlag: "p"},
			wrap: func(p *program, args []word) wrapResult {
				if q, _, bad := spec.Command(knownPrefix(args[1:])); bad == "" && q != 0 {
					return wrapResult{} // runs nothing
				}
				return plainWrap(p, args)
			}},
	)
}

// knownPrefix is the words of args known before the run, up to the first
// one known only at run time.
func knownPrefix(args []word) []string {
	var out []string
	for _, w := range args {
		x, ok := w.known()
		if !ok {
			break
		}
		out = append(out, x)
	}
	return out
}

// posixBody finds the body of sh -c BODY, also in clusters (-lc, -ec, +e
// -c) and after --rcfile FILE or -o OPTION.
func posixBody(args []word) (word, bool) {
	cflag := false
	i := 1
opts:
	for ; i < len(args); i++ {
		x, ok := args[i].known()
		switch {
		case !ok:
			break opts
		case x == "--" || x == "-":
			i++
			break opts
		case strings.HasPrefix(x, "--"):
			if x == "--rcfile" || x == "--init-file" {
				i++
			}
		case len(x) > 1 && (x[0] == '-' || x[0] == '+'):
			for j := 1; j < len(x); j++ {
				switch x[j] {
				case 'c':
					cflag = true
				case 'o', 'O':
					if j == len(x)-1 {
						i++
					}
				}
			}
		default:
			break opts
		}
	}
	if cflag && i < len(args) {
		return args[i], true
	}
	return word{}, false
}

// cmdBody finds the body of cmd /c, /k or /r: every word after it.
func cmdBody(args []word) (word, bool) {
	for i, w := range args[1:] {
		x, ok := w.known()
		if lx := strings.ToLower(x); ok && (lx == "/c" || lx == "/k" || lx == "/r") {
			return joinWords(args[i+2:]), true
		}
	}
	return word{}, false
}

// powershellBody finds the body of powershell -Command (or -c, /c,
// /command): every word after it. -EncodedCommand and -File come first in
// what they take, so they end the search.
func powershellBody(args []word) (word, bool) {
	for i, w := range args[1:] {
		x, ok := w.known()
		if !ok {
			continue
		}
		lx := strings.ToLower(x)
		if lx == "-c" || lx == "-command" || lx == "/c" || lx == "/command" {
			return joinWords(args[i+2:]), true
		}
		if strings.HasPrefix(lx, "-e") || strings.HasPrefix(lx, "-f") {
			break
		}
	}
	return word{}, false
}

// suBody finds the body of su -c BODY (or --command, --session-command,
// --command=BODY).
func suBody(args []word) (word, bool) {
	for i := 1; i < len(args); i++ {
		x, known := args[i].known()
		if !known {
			continue
		}
		if x == "-c" || x == "--command" || x == "--session-command" {
			if i+1 < len(args) {
				return args[i+1], true
			}
			return word{}, false
		}
		if v, ok := strings.CutPrefix(x, "--command="); ok {
			return lit(v), true
		}
	}
	return word{}, false
}
