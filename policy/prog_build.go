package policy

import (
	"slices"
	"strings"
)

// Build tools and package managers: go, cargo, npm, pnpm, yarn, bun and
// the package runners npx, bunx and pnpx; make, maven, pip and the others
// whose records hold only the verb of a suggested rule. Their guards refuse the options
// that name programs to run or configuration to load, and the
// subcommands that run packages or code; the package runners are
// wrappers of the command they run.

func registerBuild() {
	registerAll(
		&program{names: []string{"go"}, guard: goGuard, global: &optSpec{shortVal: "C"}, verb: 2, longVerbs: []string{"mod", "tool"}},
		// cargo --config can set a runner program.
		&program{names: []string{"cargo"}, guard: specGuard, plus: true, verb: 2,
			opts: optSpec{shortVal: "CZ", longVal: []string{"config", "color", "manifest-path"},
				danger: map[string]string{"--config": "cargo --config can set a runner program"}},
			global: &optSpec{shortVal: "CZ", shortFlag: "qv", longVal: []string{"config", "color"},
				longFlag: []string{"quiet", "verbose", "offline", "frozen", "locked"}}},
		&program{names: []string{"npm"}, guard: npmGuard, verb: 2, longVerbs: []string{"run", "view", "exec"},
			global: &optSpec{shortVal: "Cw", shortFlag: "gsqdy", longVal: []string{"prefix", "workspace", "loglevel", "userconfig", "registry"},
				longFlag: []string{"global", "silent", "quiet", "verbose", "yes"}}},
		&program{names: []string{"pnpm", "yarn"}, guard: subcommandGuard, verb: 2, longVerbs: []string{"run"}},
		&program{names: []string{"bun"}, guard: subcommandGuard, runsCode: true},
		// Build tools and package managers known only by the verb of
		// their suggested rules.
		&program{names: []string{"mvn", "gradle", "dotnet", "swift", "rake", "mix", "composer", "bundle", "pip", "pip3",
			"conda", "rustup"}, verb: 2},
		&program{names: []string{"uv", "poetry"}, verb: 2, longVerbs: []string{"run"}},
		// The package runners run a package's program, or one found on
		// PATH (npx rm): wrappers, whose command deny rules see and whose
		// paths are judged; -c runs a command line.
		&program{names: []string{"npx", "bunx", "pnpx"}, runsCode: true, wrap: npxWrap,
			guard: func(_ *program, name string, args []word) string { return nodeConfigDanger(name, args, true) },
			opts: optSpec{shortVal: "pcw", shortFlag: "yq", longVal: []string{"package", "call", "workspace", "prefix", "registry", "cache"},
				longFlag: []string{"yes", "no", "no-install", "quiet", "silent", "ignore-existing", "workspaces", "include-workspace-root", "bun"}}},
	)
}

// npxWrap is the command a package runner runs: the words after its
// options, or the command line of -c (--call), which a shell runs.
func npxWrap(p *program, args []word) wrapResult {
	i, opts, bad := scanOpts(args, &p.opts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	if body, ok := findFlag(opts, "-c", "--call"); ok {
		return wrapResult{shellBody: &body}
	}
	if i < len(args) {
		return wrapResult{cmd: args[i:]}
	}
	return wrapResult{}
}

// goGuard refuses go's flags that name programs to run, go run of a
// package fetched at a version, go generate (which runs the commands its
// comments name) and go env -w (which sets GOFLAGS and more).
func goGuard(_ *program, _ string, args []word) string {
	i := 0
	for i < len(args) && args[i].hasPrefix("-") {
		if args[i].is("-C") {
			i++
		}
		i++
	}
	if i < len(args) {
		switch sub := args[i]; {
		case sub.is("run"):
			// The module's own code runs, as go test runs it; a
			// package@version is fetched from elsewhere first.
			if slices.ContainsFunc(args[i+1:], func(a word) bool { return strings.Contains(a.show(), "@") }) {
				return "go run of a package@version fetches and runs a program"
			}
		case sub.is("generate"):
			return "go generate runs the commands in //go:generate lines"
		case sub.is("env"):
			for _, a := range args[i+1:] {
				if a.isOneOf("-w", "-u") {
					return "go env " + a.show() + " changes go's settings"
				}
			}
		}
	}
	for _, w := range args {
		if !w.hasPrefix("-") {
			continue
		}
		a, _ := w.known() // known: it starts with "-"
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "exec", "toolexec", "vettool":
			return "go -" + name + " runs a program"
		}
	}
	return ""
}

// npmGuard refuses npm options that name programs to run or configuration
// files to load, and the subcommands that run packages or change npm's
// configuration.
func npmGuard(_ *program, _ string, args []word) string {
	if r := nodeConfigDanger("npm", args, true); r != "" {
		return r
	}
	g := skipGlobal(append([]word{lit("npm")}, args...))
	if g == nil {
		g = append([]word{lit("npm")}, args...)
	}
	if len(g) < 2 {
		return ""
	}
	sub, ok := g[1].known()
	if !ok {
		return "" // runtimeArgGuard stops a subcommand known only at run time
	}
	switch sub {
	case "exec", "x", "explore":
		return "npm " + sub + " runs a program"
	case "init", "create", "innit":
		for _, a := range g[2:] {
			if !a.hasPrefix("-") {
				return "npm " + sub + " " + a.show() + " runs a package from the registry"
			}
		}
	case "set":
		return "npm set changes npm's configuration"
	case "config", "c":
		if len(g) > 2 && g[2].isOneOf("set", "edit") {
			return "npm config " + g[2].show() + " changes npm's configuration"
		}
	}
	return ""
}

// nodeRunnerOpts are the configuration keys of npm (and of pnpm, which
// reads npm's) that name a program to run or a file of configuration or
// code to load; npm takes any key as --key=value and accepts unambiguous
// abbreviations of them (nopt), pnpm also as --config.key=value.
var nodeRunnerOpts = [...]string{"script-shell", "node-options", "call", "userconfig", "globalconfig", "onload-script",
	"git", "shell", "editor", "browser", "viewer", "init-module", "pnpmfile", "global-pnpmfile", "use-yarnrc",
	"yarn-path", "prefix-command", "node-gyp", "npm-path"}

// nodeConfigDanger finds those options in args: "--key", "--key=v",
// "--config.key=v" and, where the tool accepts them (abbrev), prefixes of
// at least three letters.
func nodeConfigDanger(prog string, args []word, abbrev bool) string {
	for _, w := range args {
		if w.is("--") {
			break
		}
		if !w.hasPrefix("--") {
			continue
		}
		a, _ := w.known() // known: it starts with "--"
		name, _, _ := strings.Cut(strings.TrimPrefix(a[2:], "config."), "=")
		name = strings.ReplaceAll(strings.ToLower(name), "_", "-")
		for _, d := range nodeRunnerOpts {
			if name == d || abbrev && len(name) >= 3 && strings.HasPrefix(d, name) {
				return prog + " --" + d + " names a program or a configuration file to load (" + a + ")"
			}
		}
	}
	return ""
}

// subcommandGuard judges pnpm, yarn and bun by the options that load
// configuration or code and by their first word that is not an option.
func subcommandGuard(_ *program, prog string, args []word) string {
	if r := nodeConfigDanger(prog, args, false); r != "" {
		return r
	}
	for _, a := range args {
		if a.hasPrefix("-") {
			continue
		}
		sub, ok := a.known()
		if !ok {
			return "" // runtimeArgGuard stops a subcommand known only at run time
		}
		return runnerSubDanger(prog, sub)
	}
	return ""
}

// runnerSubDanger says why a pnpm, yarn or bun subcommand runs a package
// or a program, or "".
func runnerSubDanger(prog, sub string) string {
	switch prog + " " + sub {
	case "pnpm dlx", "pnpm create", "yarn dlx", "yarn create", "bun x", "bun create":
		return prog + " " + sub + " runs a package from the registry"
	case "pnpm exec", "yarn exec":
		return prog + " " + sub + " runs a program"
	}
	return ""
}
