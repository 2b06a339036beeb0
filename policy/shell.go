package policy

import (
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Shells and the programs that hand a command line to one (sh -c, cmd /c,
// powershell -Command, su -c). A shell is never allowed by a rule, but
// deny rules must still see what its body runs: the body is parsed with
// chainrun's own parser and every segment of it unwrapped like a segment
// of the chain. Each shell family finds its body its own way, below.

// isPosixShell reports the sh family, whose -c takes a command line.
func isPosixShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash":
		return true
	}
	return false
}

// runsShellBody reports the programs whose arguments can be a command
// line run by a shell: the sh family, cmd, PowerShell, su and runuser.
func runsShellBody(name string) bool {
	switch name {
	case "cmd", "powershell", "pwsh", "su", "runuser":
		return true
	}
	return isPosixShell(name)
}

// shellBody finds and judges the command line a shell runs. Without one
// the shell runs a script or reads commands interactively: it asks. su and
// runuser may instead run a plain command after "--". A word known only at
// run time leaves the body alone when it comes after it (a positional
// parameter: the body is found without it); anywhere else it may be the
// -c, or move or be the body, so the command line is known only at run
// time.
func (a *analysis) shellBody(name string, args []string, depth int) {
	a.shell = true
	a.cmds = append(a.cmds, command{args: canonLayer(args)})
	body, found := shellCommandLine(name, args)
	if k := firstUnknown(args); k > 0 {
		if b, ok := shellCommandLine(name, args[:k]); !found || !ok || b != body {
			a.runtimeAt(name+" argument "+showText(args[k])+" is known only at run time, so the command line it runs is not known", args[k:k+1])
			return
		}
	}
	if !found && (name == "su" || name == "runuser") && a.suCommand(name, args, depth) {
		return
	}
	if !found {
		a.ask(name + " runs a script or an interactive shell")
		return
	}
	a.ask(name + " is a shell wrapper, never allowed by a rule")
	a.parseBody(name, body, depth)
}

// shellCommandLine finds the command line the shell name runs, each shell
// family its own way.
func shellCommandLine(name string, args []string) (string, bool) {
	switch name {
	case "cmd":
		return cmdBody(args)
	case "powershell", "pwsh":
		return powershellBody(args)
	case "su", "runuser":
		return suBody(args)
	}
	return posixBody(args)
}

// posixBody finds the body of sh -c BODY, also in clusters (-lc, -ec, +e
// -c) and after --rcfile FILE or -o OPTION.
func posixBody(args []string) (string, bool) {
	cflag := false
	i := 1
opts:
	for ; i < len(args); i++ {
		x := args[i]
		switch {
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
	return "", false
}

// cmdBody finds the body of cmd /c, /k or /r: every word after it.
func cmdBody(args []string) (string, bool) {
	for i, x := range args[1:] {
		if lx := strings.ToLower(x); lx == "/c" || lx == "/k" || lx == "/r" {
			return strings.Join(args[i+2:], " "), true
		}
	}
	return "", false
}

// powershellBody finds the body of powershell -Command (or -c, /c,
// /command): every word after it. -EncodedCommand and -File come first in
// what they take, so they end the search.
func powershellBody(args []string) (string, bool) {
	for i, x := range args[1:] {
		lx := strings.ToLower(x)
		if lx == "-c" || lx == "-command" || lx == "/c" || lx == "/command" {
			return strings.Join(args[i+2:], " "), true
		}
		if strings.HasPrefix(lx, "-e") || strings.HasPrefix(lx, "-f") {
			break
		}
	}
	return "", false
}

// suBody finds the body of su -c BODY (or --command, --session-command,
// --command=BODY).
func suBody(args []string) (string, bool) {
	for i := 1; i < len(args); i++ {
		x := args[i]
		if x == "-c" || x == "--command" || x == "--session-command" {
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		}
		if v, ok := strings.CutPrefix(x, "--command="); ok {
			return v, true
		}
	}
	return "", false
}

// suCommand unwraps runuser -u USER -- CMD (and su … -- CMD): a command run
// as another user. It reports whether there was one.
func (a *analysis) suCommand(name string, args []string, depth int) bool {
	for k, x := range args {
		if x == "--" && k+1 < len(args) {
			a.ask(name + " runs a command as another user")
			a.unwrap(args[k+1:], depth+1, false)
			return true
		}
	}
	return false
}

// bodyDialect is the dialect a shell body is read in: POSIX for the sh
// family, Windows (backslashes kept) for cmd and PowerShell.
func bodyDialect(name string) chain.Dialect {
	if name == "cmd" || name == "powershell" || name == "pwsh" {
		return chain.Windows
	}
	return chain.POSIX
}

// parseBody parses a shell body with the engine's parser and unwraps each
// of its segments. An unreadable body asks; one holding a word known only
// at run time is a command known only at run time.
func (a *analysis) parseBody(name, body string, depth int) {
	if holdsUnknown(body) {
		// Run-time text is read by the shell as a command line: any code.
		src := showText(body)
		a.runtimeAt("the "+name+" command line ("+src+") is known only at run time", []string{unknownWord(src)})
		return
	}
	c, err := chain.ParseDialect(body, bodyDialect(name))
	if err != nil {
		a.ask("cannot read the " + name + " body: " + err.Error())
		return
	}
	for _, s := range c.Segments() {
		for _, as := range s.Assigns {
			a.envs = append(a.envs, as.Name)
		}
		before := len(a.cmds)
		a.unwrap(s.Args, depth+1, false)
		for i := before; i < len(a.cmds); i++ {
			a.cmds[i].redirects = s.Redirects
		}
		if len(s.Redirects) > 0 && len(a.cmds) == before {
			a.cmds = append(a.cmds, command{args: canonLayer(s.Args), redirects: s.Redirects})
		}
	}
}
