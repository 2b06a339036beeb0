package policy

// Programs that build command lines from their input: xargs runs its
// command (echo when none) with words it reads; GNU parallel runs the
// words before ":::" through a shell.

import "github.com/chainrun/chainrun/chain"

func registerXargs() {
	registerAll(
		&program{names: []string{"xargs"}, wrap: xargsWrap, runs: xargsRuns, runsCode: true,
			guard: xargsGuard,
			opts: optSpec{shortVal: "adEILnPs", shortOpt: "eil", shortFlag: "0oprtx",
				longVal:  []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
				longOpt:  []string{"eof", "replace", "max-lines"},
				longFlag: []string{"null", "open-tty", "interactive", "no-run-if-empty", "show-limits", "verbose", "exit", "help", "version"},
				abbrev:   true, roles: map[string]fileRole{"-a": roleRead, "--arg-file": roleRead}}},
		&program{names: []string{"parallel"}, wrap: parallelWrap, runsCode: true,
			opts: optSpec{shortVal: "jSaIdEnNPL", longVal: []string{"jobs", "sshlogin", "arg-file", "delimiter", "max-args", "joblog", "results"}}},
	)
}

// xargsGuard: xargs runs a command built from its input, unless it only
// prints its version or help.
func xargsGuard(p *program, name string, rest []word) string {
	if _, opts, bad := scanOpts(append([]word{lit(name)}, rest...), &p.opts); bad == "" {
		if _, ok := findFlag(opts, "--version", "--help"); ok {
			return ""
		}
	}
	return "xargs runs a command built from its input"
}

// xargsWrap unwraps xargs, which runs echo when given no command.
func xargsWrap(p *program, args []word) wrapResult {
	r, i, _, ok := wrapOpts(p, args)
	if !ok {
		return r
	}
	r.cmd = []word{lit("echo")}
	if i < len(args) {
		r.cmd = args[i:]
	}
	return r
}

// xargsRuns is the one command xargs runs, with the paths a plain find
// feeding it prints (plainFind); an option it cannot read, an input file
// (-a) or another feed makes it none.
func xargsRuns(p *program, args []word, from *chain.Segment) runsResult {
	r := xargsWrap(p, args)
	trees, ok := plainFind(from)
	if r.unreadable != "" || len(r.files) > 0 || !ok {
		return runsResult{}
	}
	return runsResult{cmds: [][]word{r.cmd}, trees: trees, splits: true}
}

// parallelWrap unwraps GNU parallel: the words before ":::" are a command
// line it runs through a shell.
func parallelWrap(p *program, args []word) wrapResult {
	i, _, bad := scanOpts(args, &p.opts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	end := len(args)
	for k := i; k < len(args); k++ {
		if args[k].hasPrefix(":::") || args[k].is("::::") {
			end = k
			break
		}
	}
	if i >= end {
		return wrapResult{shell: true}
	}
	return joinedBody(args[i:end])
}
