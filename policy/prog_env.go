package policy

import "github.com/chainrun/chainrun/chain"

// env runs a command with assignments, -S text split like a command line,
// or prints the environment. Only printing is left to a prefix rule.

// envOpts are env's options (coreutils), made by the registration (a value with maps,
// which a package variable would build at every start).
func envOpts() optSpec {
	return optSpec{shortVal: "uCS", shortFlag: "i0v", longVal: []string{"unset", "chdir", "split-string"},
		longOpt:  []string{"block-signal", "default-signal", "ignore-signal"},
		longFlag: []string{"ignore-environment", "null", "debug", "list-signal-handling", "help", "version"}, abbrev: true,
		roles: map[string]fileRole{"-C": roleChdir, "--chdir": roleChdir}}
}

func registerEnv() {
	register(&program{names: []string{"env"}, opts: envOpts(), wrap: envWrap, guard: envGuard, runsCode: true})
}

// envWrap unwraps env: -S/--split-string text is split like a command
// line (or, when it cannot be, judged as a shell body), NAME=v words are
// assignments, a lone "-" is -i.
func envWrap(p *program, args []word) wrapResult {
	r, i, opts, ok := wrapOpts(p, args)
	if !ok {
		return r
	}
	var split []word
	for _, o := range opts {
		if o.flag == "-S" || o.flag == "--split-string" {
			s, known := o.val.known()
			if !known {
				body := o.val // a command line known only at run time
				r.shellBody = &body
				return r
			}
			c, err := chain.ParseDialect(s, chain.POSIX)
			if err != nil || len(c.Segments()) != 1 || len(c.Segments()[0].Redirects) > 0 {
				body := o.val
				r.shellBody = &body
				return r
			}
			seg := c.Segments()[0]
			for _, as := range seg.Assigns {
				r.envs = append(r.envs, as.Name)
			}
			split = append(split, lits(seg.Args)...)
		}
	}
	rest := append(split, args[i:]...)
	j := 0
	for j < len(rest) && rest[j].is("-") {
		j++ // a lone "-" is -i
	}
	names, j := assignsBefore(rest, j)
	r.envs = append(r.envs, names...)
	if j < len(rest) {
		r.cmd = rest[j:]
	}
	return r
}

// envGuard refuses env running a command: only printing the environment
// (with assignments or not) is left to a prefix rule.
func envGuard(p *program, _ string, args []word) string {
	all := append([]word{lit("env")}, args...)
	i, opts, bad := scanOpts(all, &p.opts)
	if bad != "" {
		return "env option " + quoteArg(bad) + " cannot be read"
	}
	if _, ok := findFlag(opts, "-S", "--split-string"); ok {
		return "env -S runs a command"
	}
	for ; i < len(all); i++ {
		if _, ok := assignWord(all[i]); !ok {
			return "env runs another command"
		}
	}
	return ""
}
