package policy

// The dangerous-flag guard: a prefix or glob allow rule such as "sed:*" or
// "git log:*" covers reading, not the flags that make a reader write files
// or run programs. guard returns why such a flag is present, or "".
//
// Each program's guard lives in the file of its family: guard_flags.go
// holds the generic option scanner most guards are built on (a flagSpec
// per program), guard_sed.go and guard_awk.go read scripts, guard_git.go
// git's options and subcommands, guard_exec.go the programs that run
// other commands, guard_build.go go, cargo and the JavaScript package
// managers, guard_net.go ssh, rsync, curl and wget, guard_files.go the
// file tools and formatters. A new guard is a case in programGuard plus a
// function (or a flagSpec) in its family's file. A guarded program given
// a word known only at run time is stopped too (runtimeArgGuard).
func guard(args []string) string {
	if len(args) == 0 {
		return ""
	}
	name, rest := canonicalName(args[0]), args[1:]
	why, guarded := programGuard(name, rest)
	if why == "" && guarded {
		why = runtimeArgGuard(name, rest)
	}
	return why
}

// runtimeArgGuard is the guard of a guarded program one of whose words is
// known only at run time: the word may turn out to be (or, split, hold)
// the very option or script the guard is there to stop, so a prefix or
// glob rule does not cover it.
func runtimeArgGuard(name string, rest []string) string {
	k := firstUnknown(rest)
	if k < 0 {
		return ""
	}
	return name + " argument " + showText(rest[k]) + " is known only at run time and may be an option or script that writes files or runs programs"
}

// programGuard is the guard of the program name: why its arguments make
// it write files or run programs ("" when they do not), and whether name
// has a guard at all.
func programGuard(name string, rest []string) (string, bool) {
	switch name {
	case "find":
		return findGuard(rest), true
	case "fd", "fdfind":
		return fdGuard(rest), true
	case "xargs":
		return "xargs runs a command built from its input", true
	case "env":
		return envGuard(rest), true
	case "sed", "gsed":
		return sedGuard(rest), true
	case "awk", "gawk", "mawk", "nawk":
		return awkGuard(rest), true
	case "git":
		return gitGuard(rest), true
	case "go":
		return goGuard(rest), true
	case "cargo":
		return flagGuard(rest, cargoSpec()), true
	case "npm":
		return npmGuard(rest), true
	case "npx", "bunx", "pnpx":
		return name + " runs a package from the registry", true
	case "pnpm", "yarn", "bun":
		return subcommandGuard(name, rest), true
	case "ssh", "scp", "sftp":
		return flagGuard(rest, sshSpecs()[name]), true
	case "rsync":
		return flagGuard(rest, rsyncSpec()), true
	case "curl":
		return flagGuard(rest, curlSpec()), true
	case "wget":
		return flagGuard(rest, wgetSpec()), true
	}
	return fileToolGuard(name, rest)
}
