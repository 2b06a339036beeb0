package policy

import "github.com/chainrun/chainrun/chain"

// Shells and the programs that hand a command line to one (sh -c, cmd /c,
// powershell -Command, su -c). A shell is never allowed by a rule, but
// deny rules must still see what its body runs: the body is parsed with
// chainrun's own parser and every segment of it unwrapped like a segment
// of the chain. Each shell family finds its body its own way, in its
// registry record (prog_shell.go).

// shellBody finds and judges the command line a shell runs. Without one
// the shell runs a script or reads commands interactively: it asks. su and
// runuser may instead run a plain command after "--". A word known only at
// run time leaves the body alone when it comes after it (a positional
// parameter: the body is found without it); anywhere else it may be the
// -c, or move or be the body, so the command line is known only at run
// time.
func (a *analysis) shellBody(p *program, name string, args []word, depth int) {
	if script, ok := syntaxOnly(p, args); ok {
		a.cmds = append(a.cmds, command{args: canonLayer(args)})
		a.files = append(a.files, fileArg{word: script, role: roleRead, what: name + " -n reads"})
		return
	}
	a.shell = true
	a.cmds = append(a.cmds, command{args: canonLayer(args)})
	body, found := p.body(args)
	if k := firstUnknown(args); k > 0 {
		if b, ok := p.body(args[:k]); !found || !ok || !sameWord(b, body) {
			a.runtimeAt(name+" argument "+args[k].show()+" is known only at run time, so the command line it runs is not known", args[k:k+1])
			return
		}
	}
	if !found && p.userCmd && a.suCommand(name, args, depth) {
		return
	}
	if !found && a.stdinKnown && !p.winBody && !p.userCmd && stdinScript(args) {
		a.ask(name + " is a shell wrapper, never allowed by a rule")
		a.ask(name + " runs the script it reads from standard input, judged as " + name + " -c with that text: " + shownBody(a.stdinText))
		a.parseBody(name, lit(a.stdinText), depth)
		return
	}
	if !found {
		a.ask(name + " runs a script or an interactive shell")
		return
	}
	a.ask(name + " is a shell wrapper, never allowed by a rule")
	a.parseBody(name, body, depth)
}

// suCommand unwraps runuser -u USER -- CMD (and su … -- CMD): a command run
// as another user. It reports whether there was one.
func (a *analysis) suCommand(name string, args []word, depth int) bool {
	for k, x := range args {
		if x.is("--") && k+1 < len(args) {
			a.ask(name + " runs a command as another user")
			a.unwrap(args[k+1:], depth+1, false)
			return true
		}
	}
	return false
}

// bodyDialect is the dialect a shell body is read in: POSIX but for the
// shells whose record says Windows (cmd and PowerShell keep backslashes).
func bodyDialect(name string) chain.Dialect {
	if p := lookup(name); p != nil && p.winBody {
		return chain.Windows
	}
	return chain.POSIX
}

// parseBody parses a shell body with the engine's parser and unwraps each
// of its segments. An unreadable body asks; one holding a word known only
// at run time is a command known only at run time.
func (a *analysis) parseBody(name string, body word, depth int) {
	// The body's commands read the shell's input, which is not theirs to
	// judge as a script again.
	known := a.stdinKnown
	a.stdinKnown = false
	defer func() { a.stdinKnown = known }()
	text, ok := body.known()
	if !ok {
		// Run-time text is read by the shell as a command line: any code.
		a.runtimeAt("the "+name+" command line ("+body.show()+") is known only at run time", []word{body})
		return
	}
	c, err := chain.ParseDialect(text, bodyDialect(name))
	if err != nil {
		a.ask("cannot read the " + name + " body: " + err.Error())
		return
	}
	for _, s := range c.Segments() {
		for _, as := range s.Assigns {
			a.envs = append(a.envs, as.Name)
		}
		before := len(a.cmds)
		args := segArgv(s)
		a.unwrap(args, depth+1, false)
		for i := before; i < len(a.cmds); i++ {
			a.cmds[i].redirects = s.Redirects
		}
		if len(s.Redirects) > 0 && len(a.cmds) == before {
			a.cmds = append(a.cmds, command{args: canonLayer(args), redirects: s.Redirects})
		}
	}
}

// syntaxOnly finds the script a POSIX-family shell given -n alone reads
// (bash -n install.sh): it parses the script and runs nothing, so it is
// judged as a read of it. Every word must be known now.
func syntaxOnly(p *program, args []word) (word, bool) {
	if p.winBody || p.userCmd || len(args) < 3 || !args[1].is("-n") {
		return word{}, false
	}
	for _, w := range args[2:] {
		if w.isUnknown() {
			return word{}, false
		}
	}
	if args[2].hasPrefix("-") || args[2].hasPrefix("+") {
		return word{}, false
	}
	return args[2], true
}
