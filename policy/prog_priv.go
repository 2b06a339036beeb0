package policy

import "strings"

// Privilege wrappers: programs that run a command as another user or
// group (sudo, doas, pkexec, run0, gosu, sg). Each may also start a shell
// or move the command to another directory, which the segment asks about.

func registerPriv() {
	registerAll(
		// sudo's options (getopt_long, so abbreviations resolve).
		&program{names: []string{"sudo"}, wrap: sudoWrap, runsCode: true,
			opts: optSpec{shortVal: "aCcDgpRrTtUu", shortOpt: "h", shortFlag: "ABbEeHiKklNnPSsVv",
				longVal: []string{"user", "group", "close-from", "chdir", "prompt", "role", "type", "command-timeout", "other-user", "host",
					"chroot", "auth-type", "login-class"},
				longOpt: []string{"preserve-env"},
				longFlag: []string{"askpass", "background", "bell", "edit", "set-home", "help", "login", "remove-timestamp", "reset-timestamp",
					"list", "non-interactive", "preserve-groups", "stdin", "shell", "version", "validate"},
				abbrev: true,
				roles:  map[string]fileRole{"-D": roleChdir, "--chdir": roleChdir, "-R": roleChdir, "--chroot": roleChdir}}},
		&program{names: []string{"doas"}, wrap: doasWrap, runsCode: true, opts: optSpec{shortVal: "aCu", shortFlag: "Lns"}},
		// pkexec parses its options by hand: no abbreviations.
		&program{names: []string{"pkexec"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "u", longVal: []string{"user"}, longFlag: []string{"disable-internal-agent", "keep-cwd", "help", "version"}}},
		// run0 (systemd) reads getopt_long options; without a command, or
		// with --via-shell (-i), it starts the user's shell.
		&program{names: []string{"run0"}, wrap: run0Wrap, runsCode: true,
			opts: optSpec{shortVal: "ugD", shortFlag: "hiV",
				longVal: []string{"unit", "property", "description", "slice", "user", "group", "nice", "chdir", "setenv",
					"background", "shell-prompt-prefix", "lightweight", "area", "machine"},
				longFlag: []string{"slice-inherit", "via-shell", "pty", "pty-late", "pipe", "empower", "same-root-dir",
					"no-ask-password", "help", "version"},
				abbrev: true,
				roles:  map[string]fileRole{"-D": roleChdir, "--chdir": roleChdir}}},
		// gosu USER COMMAND: no options but its help and version.
		&program{names: []string{"gosu"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortFlag: "hv", longFlag: []string{"help", "version"}, operands: 1}},
		// sg GROUP [-c] COMMAND runs the command through a shell.
		&program{names: []string{"sg"}, wrap: sgWrap, runsCode: true},
	)
}

// sudoWrap unwraps sudo; -e edits files and -s/-i start a shell.
func sudoWrap(p *program, args []word) wrapResult {
	r, i, opts, ok := wrapOpts(p, args)
	if !ok {
		return r
	}
	if _, ok := findFlag(opts, "-e", "--edit"); ok {
		r.ask = "sudo -e edits files as another user"
		return r
	}
	r.envs, i = assignsBefore(args, i)
	if _, ok := findFlag(opts, "-s", "-i", "--shell", "--login"); ok {
		r.shell = true
		return r
	}
	if i < len(args) {
		r.cmd = args[i:]
	}
	return r
}

// doasWrap unwraps doas; -s starts a shell.
func doasWrap(p *program, args []word) wrapResult {
	i, opts, bad := scanOpts(args, &p.opts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	if _, ok := findFlag(opts, "-s"); ok {
		return wrapResult{shell: true}
	}
	if i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
}

// run0Wrap unwraps run0: --setenv NAME[=VALUE] assigns NAME, and without
// a command or with --via-shell it starts a shell.
func run0Wrap(p *program, args []word) wrapResult {
	r, i, opts, ok := wrapOpts(p, args)
	if !ok {
		return r
	}
	for _, o := range opts {
		if o.flag == "--setenv" {
			// A value known only at run time names its variable as
			// written ($E), which is on no safe-list.
			name, _, _ := strings.Cut(o.val.show(), "=")
			r.envs = append(r.envs, name)
		}
	}
	if _, ok := findFlag(opts, "-i", "--via-shell"); ok || i >= len(args) {
		r.shell = true
		return r
	}
	r.cmd = args[i:]
	return r
}

// sgWrap unwraps sg GROUP [-c] COMMAND, run through a shell.
func sgWrap(_ *program, args []word) wrapResult {
	if len(args) < 3 {
		return wrapResult{shell: true}
	}
	rest := args[2:]
	if rest[0].is("-c") && len(rest) > 1 {
		rest = rest[1:]
	}
	return joinedBody(rest)
}
