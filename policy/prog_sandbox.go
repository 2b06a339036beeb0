package policy

// Tracers, sandboxes and namespace tools: programs that run a command
// under observation, in a sandbox, another root or namespace, or through a
// proxy. Those that parse their options by hand accept no abbreviations;
// those whose option lists are too long to hold whole take any NAME or
// NAME=value option (anyOpt). A long option not spelled out makes the
// others unreadable.

func registerSandbox() {
	registerAll(
		&program{names: []string{"strace"}, wrap: straceWrap, runsCode: true,
			opts: optSpec{shortVal: "abeEIoOpPsSuUX", shortFlag: "AcCdDfFhiknqrtTvVwxyYzZ",
				longVal:  []string{"output", "trace", "signal", "status", "user", "attach", "string-limit", "columns", "env", "trace-path"},
				longFlag: []string{"follow-forks", "summary-only", "summary", "quiet", "help", "version", "output-separately", "output-append-mode"},
				roles:    map[string]fileRole{"-o": roleWrite, "--output": roleWrite}}},
		&program{names: []string{"ltrace"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "aAeEfFlnopsSuwD", shortFlag: "bcChiLrStTV", longVal: []string{"output", "library", "align", "indent", "user", "config"},
				longFlag: []string{"demangle", "help", "version"}, roles: map[string]fileRole{"-o": roleWrite, "--output": roleWrite, "-F": roleRead, "--config": roleRead}}},
		&program{names: []string{"valgrind"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{anyOpt: true, roles: map[string]fileRole{"--log-file": roleWrite, "--xml-file": roleWrite, "--suppressions": roleRead}}},
		&program{names: []string{"fakeroot"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "lsib", shortFlag: "uhv", longVal: []string{"lib", "faked", "fd-base"}, longFlag: []string{"unknown-is-real", "help", "version"},
				abbrev: true, roles: map[string]fileRole{"-s": roleWrite, "-i": roleRead}}},
		&program{names: []string{"firejail"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{anyOpt: true, roles: map[string]fileRole{"--output": roleWrite, "--output-stderr": roleWrite, "--profile": roleRead}}},
		&program{names: []string{"proxychains", "proxychains4"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "f", shortFlag: "q", roles: map[string]fileRole{"-f": roleRead}}},
		&program{names: []string{"torsocks"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "upaP", shortFlag: "i6dqh", longVal: []string{"user", "pass", "address", "port"}, longFlag: []string{"isolate", "version", "help"}}},
		&program{names: []string{"chroot"}, wrap: chrootWrap, runsCode: true,
			opts: optSpec{longVal: []string{"userspec", "groups"}, longFlag: []string{"skip-chdir", "help", "version"}, operands: 1, abbrev: true}},
		&program{names: []string{"unshare"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "SGRw", shortFlag: "muinpUCTfrchV",
				longVal:  []string{"setuid", "setgid", "root", "wd", "map-user", "map-group", "map-users", "map-groups", "propagation", "setgroups"},
				longOpt:  []string{"mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "kill-child", "mount-proc"},
				longFlag: []string{"fork", "map-root-user", "map-current-user", "map-auto", "keep-caps", "help", "version"},
				roles:    map[string]fileRole{"-R": roleChdir, "--root": roleChdir, "-w": roleChdir, "--wd": roleChdir}}},
		&program{names: []string{"nsenter"}, wrap: plainWrap, runsCode: true,
			opts: optSpec{shortVal: "tSG", shortOpt: "rwmuinpUCT", shortFlag: "FaZhV", longVal: []string{"target", "setuid", "setgid"},
				longOpt:  []string{"root", "wd", "mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time"},
				longFlag: []string{"all", "no-fork", "preserve-credentials", "help", "version"},
				roles:    map[string]fileRole{"-r": roleChdir, "--root": roleChdir, "-w": roleChdir, "--wd": roleChdir}}},
		&program{names: []string{"systemd-run"}, wrap: systemdRunWrap, runsCode: true,
			opts: optSpec{shortVal: "pEuMH", shortFlag: "tPqGdrSh", longVal: []string{"unit", "property", "setenv", "uid", "gid", "working-directory", "description", "slice", "machine", "host"},
				longFlag: []string{"pty", "pipe", "quiet", "wait", "collect", "user", "system", "scope", "same-dir", "no-block", "shell", "help", "version"},
				roles:    map[string]fileRole{"--working-directory": roleChdir, "--same-dir": roleChdir}}},
	)
}

// straceWrap unwraps strace; -o |CMD (or !CMD) pipes the trace to a
// command.
func straceWrap(p *program, args []word) wrapResult {
	r := plainWrap(p, args)
	kept := r.files[:0]
	for _, f := range r.files {
		if f.word.hasPrefix("|") || f.word.hasPrefix("!") {
			r.ask = "strace -o |CMD runs a command"
			continue
		}
		kept = append(kept, f)
	}
	r.files = kept
	return r
}

// chrootWrap unwraps chroot NEWROOT CMD, whose paths are not the ones
// judged.
func chrootWrap(p *program, args []word) wrapResult {
	r := plainWrap(p, args)
	if len(args) > 1 {
		r.ask = "chroot runs the command under another root: its paths are not the ones judged"
	}
	return r
}

// systemdRunWrap unwraps systemd-run, which runs the command as a service
// unit.
func systemdRunWrap(p *program, args []word) wrapResult {
	r := plainWrap(p, args)
	r.ask = "systemd-run runs the command as a service unit"
	return r
}
