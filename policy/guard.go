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

// editsOnly reports a guard reason that is p's in-place edit of its file
// operands and nothing else (editsInPlace).
func (p *program) editsOnly(why string) bool {
	return p.editsInPlace != "" && strings.HasPrefix(why, p.editsInPlace+" (")
}

// guardEditsOnly reports that the guard's reason g for args is only an
// in-place edit of the file operands, which the path step judges as writes.
func guardEditsOnly(args []word, g string) bool {
	p := lookupWord(canonWord(args[0]))
	return p != nil && p.editsOnly(g)
}

// specGuard is the guard of a program described by its options alone: the
// dangerous ones of its spec.
func specGuard(p *program, _ string, rest []word) string { return flagGuard(rest, &p.opts) }

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
