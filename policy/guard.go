package policy

import "strings"

// The dangerous-flag guard: a prefix or glob allow rule such as "sed:*" or
// "git log:*" covers reading, not the flags that make a reader write files
// or run programs. guard returns why such a flag is present, or "".
//
// Each program's guard is part of its registry record (prog_*.go): most
// are the dangerous options of its optSpec (specGuard), the others a
// function beside the record (sed's and awk's scripts, git's options and
// subcommands). A guarded program given a word known only at run time is
// stopped too (runtimeArgGuard).
func guard(args []word) string {
	if len(args) == 0 {
		return ""
	}
	prog, ok := args[0].known()
	if !ok {
		return ""
	}
	name, rest := canonicalName(prog), args[1:]
	p := lookup(name)
	if p == nil || p.guard == nil {
		return ""
	}
	why := p.guard(p, name, rest)
	if why == "" || p.editsOnly(why) {
		if r := runtimeArgGuard(name, rest); r != "" {
			why = r
		}
	}
	return why
}

// editsOnly reports a guard reason that is only p's writing of files the
// path step judges as writes: its in-place edit of its file operands
// (editsInPlace: sed -i, gofmt -w, prettier --write) or an option writing
// the file it names (a write role in its spec, which paths reads: sort -o,
// curl -o). Such a write is an Edit of those files, not a program run.
func (p *program) editsOnly(why string) bool {
	if p.editsInPlace != "" && strings.HasPrefix(why, p.editsInPlace+" (") {
		return true
	}
	if !p.optionWrites() {
		return false // its reading of the paths does not see the option
	}
	for f, r := range p.opts.danger {
		if p.opts.roles[f] == roleWrite && strings.HasPrefix(why, r+" (") {
			return true
		}
	}
	return false
}

// optionWrites reports a record whose paths hold the values of its
// options with a write role: read off its spec's roles (paths).
func (p *program) optionWrites() bool {
	return p.files == nil && (p.operands != 0 || p.looseOpts)
}

// guardEditsOnly reports that the guard's reason g for args is only an
// in-place edit of the file operands, which the path step judges as writes.
func guardEditsOnly(args []word, g string) bool {
	p := lookupWord(canonWord(args[0]))
	return p != nil && p.editsOnly(g)
}

// specGuard is the guard of a program described by its options alone: the
// dangerous ones of its spec, an edit of files (editsOnly) only when no
// other is given, so that what permits the edit never hides the rest.
func specGuard(p *program, _ string, rest []word) string {
	_, opts := walkFlags(rest, &p.opts)
	edit := ""
	for i := range opts {
		r := p.opts.dangerIn(opts[i : i+1])
		switch {
		case r == "":
		case !p.editsOnly(r):
			return r
		case edit == "":
			edit = r
		}
	}
	return edit
}

// runtimeArgGuard is the guard of a guarded program one of whose words is
// known only at run time: the word may turn out to be (or, split, hold)
// the very option or script the guard is there to stop, so a prefix or
// glob rule does not cover it.
func runtimeArgGuard(name string, rest []word) string {
	k := firstUnknown(rest)
	if k < 0 {
		return ""
	}
	return name + " argument " + rest[k].show() + " is known only at run time and may be an option or script that writes files or runs programs"
}
