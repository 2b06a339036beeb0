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
// file tools and formatters. A new guard is a case below plus a function
// (or a flagSpec) in its family's file.
func guard(args []string) string {
	if len(args) == 0 {
		return ""
	}
	name, rest := canonicalName(args[0]), args[1:]
	switch name {
	case "find":
		return findGuard(rest)
	case "fd", "fdfind":
		return fdGuard(rest)
	case "xargs":
		return "xargs runs a command built from its input"
	case "env":
		return envGuard(rest)
	case "sed", "gsed":
		return sedGuard(rest)
	case "awk", "gawk", "mawk", "nawk":
		return awkGuard(rest)
	case "git":
		return gitGuard(rest)
	case "go":
		return goGuard(rest)
	case "cargo":
		return flagGuard(rest, cargoSpec())
	case "npm":
		return npmGuard(rest)
	case "npx", "bunx", "pnpx":
		return name + " runs a package from the registry"
	case "pnpm", "yarn", "bun":
		return subcommandGuard(name, rest)
	case "ssh", "scp", "sftp":
		return flagGuard(rest, sshSpecs()[name])
	case "rsync":
		return flagGuard(rest, rsyncSpec())
	case "curl":
		return flagGuard(rest, curlSpec())
	case "wget":
		return flagGuard(rest, wgetSpec())
	}
	return fileToolGuard(name, rest)
}
