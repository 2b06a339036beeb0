package policy

import (
	"strings"
	"sync"
)

// The guards of build tools and package managers: go, cargo, npm, pnpm,
// yarn and bun (npx, bunx and pnpx always ask; see guard).

// goGuard refuses go's flags that name programs to run, go run and go
// generate (which run code), and go env -w (which sets GOFLAGS and more).
func goGuard(args []string) string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if args[i] == "-C" {
			i++
		}
		i++
	}
	if i < len(args) {
		switch args[i] {
		case "run":
			return "go run builds and runs a program"
		case "generate":
			return "go generate runs the commands in //go:generate lines"
		case "env":
			for _, a := range args[i+1:] {
				if a == "-w" || a == "-u" {
					return "go env " + a + " changes go's settings"
				}
			}
		}
	}
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "exec", "toolexec", "vettool":
			return "go -" + name + " runs a program"
		}
	}
	return ""
}

// cargoSpec: --config can set a runner program.
var cargoSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{shortVal: "CZ", longVal: []string{"config", "color", "manifest-path"},
		danger: map[string]string{"--config": "cargo --config can set a runner program"}}
})

// npmGuard refuses npm options that name programs to run and the
// subcommands that run packages or change npm's configuration.
func npmGuard(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(a, "=")
		for _, d := range []string{"--script-shell", "--node-options", "--call"} {
			if name == d || len(name) >= 6 && strings.HasPrefix(d, name) {
				return "npm " + d + " runs a program"
			}
		}
	}
	g := skipGlobal(append([]string{"npm"}, args...))
	if g == nil {
		g = append([]string{"npm"}, args...)
	}
	if len(g) < 2 {
		return ""
	}
	sub := g[1]
	switch sub {
	case "exec", "x", "explore":
		return "npm " + sub + " runs a program"
	case "init", "create", "innit":
		for _, a := range g[2:] {
			if !strings.HasPrefix(a, "-") {
				return "npm " + sub + " " + a + " runs a package from the registry"
			}
		}
	case "set":
		return "npm set changes npm's configuration"
	case "config", "c":
		if len(g) > 2 && (g[2] == "set" || g[2] == "edit") {
			return "npm config " + g[2] + " changes npm's configuration"
		}
	}
	return ""
}

// subcommandGuard judges pnpm, yarn and bun by their first word that is
// not an option.
func subcommandGuard(prog string, args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		return runnerSubDanger(prog, a)
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
