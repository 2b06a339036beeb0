package policy

import "strings"

// The guards of programs whose job includes running other commands: find
// -exec, fd -x and env (xargs always asks; see guard). The commands they
// run are unwrapped for deny rules in wrappers.go.

// findGuard refuses the find actions that run commands, delete or write
// files.
func findGuard(args []string) string {
	for _, a := range args {
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir":
			return "find " + a + " runs a command"
		case "-delete":
			return "find -delete removes files"
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			return "find " + a + " writes a file"
		}
	}
	return ""
}

// fdGuard refuses fd running a command on its results.
func fdGuard(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		switch a {
		case "-x", "--exec", "-X", "--exec-batch":
			return "fd " + a + " runs a command"
		}
		if strings.HasPrefix(a, "--exec") {
			return "fd --exec runs a command"
		}
	}
	return ""
}

// envGuard refuses env running a command: only printing the environment
// (with assignments or not) is left to a prefix rule.
func envGuard(args []string) string {
	all := append([]string{"env"}, args...)
	i, opts, bad := scanOpts(all, &envOpts)
	if bad != "" {
		return "env option " + quoteArg(bad) + " cannot be read"
	}
	if _, ok := has(opts, "S", "split-string"); ok {
		return "env -S runs a command"
	}
	for ; i < len(all); i++ {
		if !isAssignWord(all[i]) {
			return "env runs another command"
		}
	}
	return ""
}
