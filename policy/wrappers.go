package policy

import (
	"strings"
)

// Exec wrappers: programs that run the command in their arguments
// (timeout 5 rm x, sudo -u bob rm x, xargs rm). The broad view unwraps
// them so deny rules see the command; the narrow view strips only the
// harmless ones (the registry's narrow records). Each wrapper is a record
// of the registry (a prog_*.go file) whose wrap function says what it
// runs; this file holds what they share.

// wrapResult is what a wrapper runs.
type wrapResult struct {
	cmd       []word   // the wrapped command; nil when there is none
	envs      []string // names the wrapper assigns (env NAME=v, sudo NAME=v)
	shell     bool     // the wrapper starts a shell itself (sudo -s, doas -s)
	shellBody *word    // the wrapper passes this text to sh -c (watch, flock -c)
	ask       string   // a reason to ask, if the wrapper is unusual
	files     []fileArg
	// unreadable is the first option word the wrapper's spec could not
	// read: the command may start at any later word.
	unreadable string
}

// plainWrap is the wrap of the wrappers that run the rest of their words
// after their options and operands.
func plainWrap(p *program, args []word) wrapResult { return afterOpts(args, &p.opts) }

// wrapOpts reads a wrapper's options by its record: i is where its
// operands start, and r holds the files its options name (optFiles). ok
// is false, with r saying why, when the options cannot be read.
func wrapOpts(p *program, args []word) (r wrapResult, i int, opts []flagUse, ok bool) {
	i, opts, bad := scanOpts(args, &p.opts)
	if bad != "" {
		return wrapResult{unreadable: bad}, i, opts, false
	}
	optFiles(p.names[0], &p.opts, opts, &r)
	return r, i, opts, true
}

// optFiles turns the options of spec that name files into file arguments,
// and a directory change into a reason to ask.
func optFiles(name string, spec *optSpec, opts []flagUse, r *wrapResult) {
	for _, o := range opts {
		role, ok := spec.roles[o.flag]
		if !ok || !role.names() {
			continue
		}
		if role == roleChdir {
			r.ask = name + " changes the directory or root its command runs in (" + strings.TrimLeft(o.flag, "-") + "): the command's paths cannot be judged"
			continue
		}
		if !o.val.is("") {
			r.files = append(r.files, fileArg{word: o.val, role: role, what: name + " " + o.flag})
		}
	}
}

// afterOpts is the command after a wrapper's options and operands, if any.
func afterOpts(args []word, spec *optSpec) wrapResult {
	i, opts, bad := scanOpts(args, spec)
	var r wrapResult
	if bad != "" {
		r.unreadable = bad
		return r
	}
	optFiles(args[0].show(), spec, opts, &r)
	if i < len(args) {
		r.cmd = args[i:]
	}
	return r
}

// assignsBefore reads the NAME=value words at args[i:] (env and sudo
// assign them to the command): the names, and the index after them.
func assignsBefore(args []word, i int) ([]string, int) {
	var names []string
	for i < len(args) {
		n, ok := assignWord(args[i])
		if !ok {
			break
		}
		names = append(names, n)
		i++
	}
	return names, i
}

// joinedBody is the command line a wrapper hands to a shell: its words
// joined by spaces (watch, sg, parallel, entr -s).
func joinedBody(args []word) wrapResult {
	body := joinWords(args)
	return wrapResult{shellBody: &body}
}

// execOptions unwraps each command an option isExec introduces, up to a
// word isEnd accepts. A word known only at run time may be such an
// option: every word from it on may start a command.
func (a *analysis) execOptions(args []word, depth int, isExec, isEnd func(word) bool) {
	starts := false
	for i := 1; i < len(args); i++ {
		if args[i].isUnknown() && !starts {
			a.possibleStarts(args[i:])
			starts = true
			continue
		}
		if !isExec(args[i]) {
			continue
		}
		j := i + 1
		for j < len(args) && !isEnd(args[j]) {
			j++
		}
		if j > i+1 {
			n := len(a.cmds)
			a.unwrap(args[i+1:j], depth+1, false)
			for k := n; k < len(a.cmds); k++ {
				a.cmds[k].found = true
			}
		}
		i = j
	}
}
