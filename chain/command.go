package chain

import (
	"github.com/chainrun/chainrun/builtin/spec"
)

// The parse-time checks of set and command, where their words are
// written literally; the runner makes the same checks on the words as
// they expand (package builtin), with bash's statuses.

// setArgs refuses what set would do that chainrun does not carry out:
// list the variables, set the positional parameters, turn on an option
// other than errexit, nounset and pipefail. An option bash refuses too is
// left to the run, which fails with bash's message and status 2.
func (l *lowerer) setArgs(seg *Segment) *ParseError {
	if anyExpands(seg) {
		l.params = true // may set the positional parameters
		return nil      // known when it runs: the built-in checks it
	}
	if _, ok := spec.SetOperands(seg.Args[1:]); ok {
		l.params = true
	}
	_, err := spec.Set(seg.Args[1:])
	if err == nil || err.Invalid {
		return nil
	}
	msg := err.Error()
	if err.Arg != "" {
		msg = "set " + msg
	}
	return refuse(l.src, seg.Words[0].Span.Start, KindUnsupported, "set option", "%s", msg)
}

// commandQueryArgs refuses command -p, which runs NAME with a default
// PATH chainrun does not model; drop -p to run NAME with the chain's
// PATH.
func (l *lowerer) commandQueryArgs(seg *Segment) *ParseError {
	if _, _, bad := spec.Command(seg.Args[1:]); bad == "-p" {
		return refuse(l.src, seg.Words[0].Span.Start, KindUnsupported, "command -p",
			"command -p searches a default PATH, which chainrun does not model; drop -p to run the program from the chain's PATH")
	}
	return nil
}

// commandArgs checks command NAME …: NAME is run as if command were not
// there, so a shell built-in chainrun refuses is refused behind it too,
// and so is a built-in that changes the chain (cd, exit, export, unset,
// set, printf -v), which the policy judges by name, not behind a wrapper.
func (l *lowerer) commandArgs(seg *Segment) *ParseError {
	if anyExpands(seg) {
		return nil // known when it runs: the runner checks it
	}
	if msg := CommandTargetRefusal(CommandWords(seg.Args), l.dialect); msg != "" {
		return refuse(l.src, seg.Words[0].Span.Start, KindUnsupported, "command", "%s", msg)
	}
	return nil
}

// CommandTargetRefusal says why chainrun does not run command NAME … for
// args (NAME and its words), or "": NAME is a shell built-in it refuses, or
// an engine built-in whose run changes the chain (write NAME without
// command: a chain has no functions for command to skip).
func CommandTargetRefusal(args []string, d Dialect) string {
	if b, ok := builtinOf(args, d); ok {
		if rec, ok := spec.Lookup(string(b)); ok && rec.Effects(args[1:]).State {
			return "command " + args[0] + " changes the chain's state; write " + args[0] + " without command (a chain has no functions for command to skip)"
		}
		return ""
	}
	if hint, ok := shellBuiltin(args[0], d); ok {
		return "command " + args[0] + " runs a shell built-in that needs a shell; " + hint
	}
	return ""
}

// anyExpands reports a segment with a word known only when it runs.
func anyExpands(seg *Segment) bool {
	for _, w := range seg.Words {
		if w.Expands {
			return true
		}
	}
	return false
}

// readArgs refuses the options of read that chainrun does not run (-a:
// a chain keeps no arrays; -p, -n, -t …).
func (l *lowerer) readArgs(seg *Segment) *ParseError {
	if anyExpands(seg) {
		return nil // known when it runs: the built-in checks it
	}
	if _, bad := spec.Read(seg.Args[1:]); bad != "" {
		return refuse(l.src, seg.Words[0].Span.Start, KindUnsupported, "read option", "read %s: %s", bad, spec.ReadOptionHint(bad))
	}
	return nil
}
