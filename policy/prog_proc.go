package policy

// Process wrappers: coreutils and util-linux programs that run their
// command under a limit, a priority, a lock, a pseudo-terminal or a
// schedule. Their option lists are the programs' own, long options
// included, so abbreviations resolve as getopt_long resolves them.

func registerProc() {
	registerAll(
		// The narrow wrappers: the allow view strips them with their options.
		&program{names: []string{"timeout"}, narrow: true, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "ks", shortFlag: "fpv", longVal: []string{"kill-after", "signal"},
				longFlag: []string{"foreground", "preserve-status", "verbose", "help", "version"}, operands: 1, abbrev: true}},
		&program{names: []string{"time"}, narrow: true, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "fo", shortFlag: "apqvV", longVal: []string{"format", "output"},
				longFlag: []string{"append", "portability", "quiet", "verbose", "help", "version"}, abbrev: true,
				roles: map[string]fileRole{"-o": roleWrite, "--output": roleWrite}}},
		&program{names: []string{"nice"}, narrow: true, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "n", shortFlag: "0123456789", longVal: []string{"adjustment"}, longFlag: []string{"help", "version"}, abbrev: true}},
		&program{names: []string{"nohup"}, narrow: true, wrap: plainWrap, runsCode: true,
			opts: optSpec{longFlag: []string{"help", "version"}, abbrev: true}},
		&program{names: []string{"stdbuf"}, narrow: true, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "ioe", longVal: []string{"input", "output", "error"}, longFlag: []string{"help", "version"}, abbrev: true}},

		&program{names: []string{"setsid"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortFlag: "cfwhV", longFlag: []string{"ctty", "fork", "wait", "help", "version"}, abbrev: true}},
		// unbuffer, nocache and catchsegv parse their options by hand: no
		// abbreviations.
		&program{names: []string{"unbuffer"}, wrap: plainWrap, runsCode: true, opts: optSpec{shortFlag: "p"}},
		&program{names: []string{"nocache", "catchsegv"}, wrap: plainWrap, runsCode: true},
		&program{names: []string{"caffeinate"}, wrap: plainWrap, runsCode: true, opts: optSpec{shortVal: "tw", shortFlag: "dimsu"}},
		// busybox runs the applet named by its first word.
		&program{names: []string{"busybox"}, wrap: plainWrap, runsCode: true},

		// ionice, taskset and chrt act on another process with -p (and
		// chrt -m only prints): then they run nothing.
		&program{names: []string{"ionice"}, wrap: schedWrap("-p", "--pid", "-P", "--pgid", "-u", "--uid"), runsCode: true,
			opts: optSpec{shortVal: "cnpPu", shortFlag: "thV", longVal: []string{"class", "classdata", "pid", "pgid", "uid"},
				longFlag: []string{"ignore", "help", "version"}, abbrev: true}},
		&program{names: []string{"taskset"}, wrap: schedWrap("-p", "--pid"), runsCode: true,
			opts: optSpec{shortFlag: "acphV", longFlag: []string{"all-tasks", "cpu-list", "pid", "help", "version"}, operands: 1, abbrev: true}},
		&program{names: []string{"chrt"}, wrap: schedWrap("-p", "--pid", "-m", "--max"), runsCode: true,
			opts: optSpec{shortVal: "TPD", shortFlag: "abdefimoprRvhV", longVal: []string{"sched-runtime", "sched-period", "sched-deadline"},
				longFlag: []string{"all-tasks", "batch", "deadline", "ext", "fifo", "idle", "max", "other", "pid", "rr", "reset-on-fork", "verbose", "help", "version"},
				operands: 1, abbrev: true}},

		&program{names: []string{"watch"}, wrap: watchWrap, runsCode: true,
			opts: optSpec{shortVal: "nqs", shortOpt: "d", shortFlag: "gebcCtwxprhv",
				longVal: []string{"interval", "equexit", "shotsdir"}, longOpt: []string{"differences"},
				longFlag: []string{"chgexit", "errexit", "beep", "color", "no-color", "no-title", "no-wrap", "exec", "precise", "no-rerun", "help", "version"},
				abbrev:   true}},
		// flock's lock file is its operand.
		&program{names: []string{"flock"}, wrap: flockWrap, runsCode: true,
			opts: optSpec{shortVal: "wEc", shortFlag: "sxenouFhV",
				longVal:  []string{"timeout", "wait", "conflict-exit-code", "command"},
				longFlag: []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose", "help", "version"},
				operands: 1, abbrev: true}},
		// script's operand and its log options name files it writes.
		&program{names: []string{"script"}, wrap: scriptWrap, runsCode: true,
			opts: optSpec{shortVal: "cEBIOTmo", shortOpt: "t", shortFlag: "aefqhV",
				longVal:  []string{"command", "echo", "log-io", "log-in", "log-out", "log-timing", "logging-format", "output-limit"},
				longOpt:  []string{"timing"},
				longFlag: []string{"append", "return", "flush", "force", "quiet", "help", "version"},
				abbrev:   true,
				roles: map[string]fileRole{"-B": roleWrite, "--log-io": roleWrite, "-I": roleWrite, "--log-in": roleWrite, "-O": roleWrite,
					"--log-out": roleWrite, "-T": roleWrite, "--log-timing": roleWrite, "-t": roleWrite, "--timing": roleWrite}}},
		&program{names: []string{"entr"}, wrap: entrWrap, runsCode: true, opts: optSpec{shortFlag: "acdnprsz"}},
		// Windows start and its /options.
		&program{names: []string{"start"}, wrap: startWrap, runsCode: true},
	)
}

// schedWrap unwraps ionice, taskset and chrt, which act on another process
// instead when given one of the options other.
func schedWrap(other ...string) func(p *program, args []word) wrapResult {
	return func(p *program, args []word) wrapResult {
		i, opts, bad := scanOpts(args, &p.opts)
		if bad != "" {
			return wrapResult{unreadable: bad}
		}
		if _, ok := findFlag(opts, other...); ok || i >= len(args) {
			return wrapResult{}
		}
		return wrapResult{cmd: args[i:]}
	}
}

// watchWrap unwraps watch, which passes its words to sh -c unless -x.
func watchWrap(p *program, args []word) wrapResult {
	i, opts, bad := scanOpts(args, &p.opts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	if i >= len(args) {
		return wrapResult{}
	}
	if _, ok := findFlag(opts, "-x", "--exec"); ok {
		return wrapResult{cmd: args[i:]}
	}
	return joinedBody(args[i:])
}

// flockWrap unwraps flock FILE CMD; -c passes a command line to sh -c,
// before or after the lock file. The lock file is created.
func flockWrap(p *program, args []word) wrapResult {
	i, opts, bad := scanOpts(args, &p.opts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	var lock []fileArg
	if k := i - 1; k >= 1 && k < len(args) {
		lock = []fileArg{{word: args[k], role: roleWrite, what: "flock lock file"}}
	}
	if body, ok := findFlag(opts, "-c", "--command"); ok {
		return wrapResult{shellBody: &body, files: lock}
	}
	// Options may also follow the lock file: flock FILE -c CMD.
	if i < len(args) && args[i].hasPrefix("-") {
		after := p.opts
		after.operands = 0
		j, more, bad := scanOpts(append([]word{lit("flock")}, args[i:]...), &after)
		if bad != "" {
			return wrapResult{unreadable: bad}
		}
		if body, ok := findFlag(more, "-c", "--command"); ok {
			return wrapResult{shellBody: &body, files: lock}
		}
		i += j - 1
	}
	if i >= len(args) {
		return wrapResult{files: lock}
	}
	return wrapResult{cmd: args[i:], files: lock}
}

// scriptWrap unwraps script -c COMMAND; without -c it starts a shell.
func scriptWrap(p *program, args []word) wrapResult {
	r, i, opts, ok := wrapOpts(p, args)
	if !ok {
		return r
	}
	if i < len(args) {
		r.files = append(r.files, fileArg{word: args[i], role: roleWrite, what: "script typescript"})
	} else {
		r.files = append(r.files, fileArg{word: lit("typescript"), role: roleWrite, what: "script typescript"})
	}
	if body, ok := findFlag(opts, "-c", "--command"); ok {
		r.shellBody = &body
		return r
	}
	r.shell = true
	return r
}

// entrWrap unwraps entr, which runs its command through $SHELL with -s.
func entrWrap(p *program, args []word) wrapResult {
	i, opts, bad := scanOpts(args, &p.opts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	if i >= len(args) {
		return wrapResult{}
	}
	if _, ok := findFlag(opts, "-s"); ok {
		return joinedBody(args[i:])
	}
	return wrapResult{cmd: args[i:]}
}

// startWrap unwraps Windows start and its /options.
func startWrap(_ *program, args []word) wrapResult {
	i := 1
	for i < len(args) && args[i].hasPrefix("/") {
		i++
	}
	if i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
}
