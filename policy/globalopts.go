package policy

import "strings"

// Global options: the options some tools take before their subcommand
// (git -C dir push, docker --context x run, cargo +nightly build). The
// broad view skips them so "git push:*" sees git -c x=y -C dir push; the
// git guard reads the same table to find git's subcommand.

// skipGlobal returns layer without the tool's leading global options, or
// nil when there were none.
func skipGlobal(layer []string) []string {
	globalOpt := globalOpts(layer[0])
	if globalOpt == nil {
		return nil
	}
	i := 1
	for i < len(layer) {
		x := layer[i]
		if layer[0] == "cargo" && strings.HasPrefix(x, "+") {
			i++
			continue
		}
		if !strings.HasPrefix(x, "-") || x == "-" {
			break
		}
		if x == "--" {
			i++
			break
		}
		name := x
		attached := false
		if j := strings.IndexByte(x, '='); j > 0 {
			name, attached = x[:j], true
		}
		takes, known := globalOpt(name)
		if !known {
			// -C/path or -cfoo forms of a known short option.
			if len(x) > 2 && x[1] != '-' {
				if takes, _ := globalOpt(x[:2]); takes {
					i++
					continue
				}
			}
			break
		}
		i++
		if takes && !attached {
			i++
		}
	}
	if i == 1 {
		return nil
	}
	if i > len(layer) {
		i = len(layer)
	}
	out := make([]string, 0, 1+len(layer)-i)
	out = append(out, layer[0])
	return append(out, layer[i:]...)
}

// globalOpts returns the function that knows tool's global options, or
// nil for a tool without them. Each says whether opt is known and whether
// it takes a separate value.
func globalOpts(tool string) func(opt string) (takesValue, known bool) {
	switch tool {
	case "git":
		return gitGlobalOpt
	case "docker":
		return dockerGlobalOpt
	case "kubectl":
		return kubectlGlobalOpt
	case "npm":
		return npmGlobalOpt
	case "cargo":
		return cargoGlobalOpt
	case "go":
		return goGlobalOpt
	}
	return nil
}

// gitGlobalOpt knows git's global options; the git guard uses it too, to
// step over their values.
func gitGlobalOpt(opt string) (takesValue, known bool) {
	switch opt {
	case "-c", "-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source",
		"--shallow-file", "--list-cmds":
		return true, true
	case "--exec-path", "-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects",
		"--literal-pathspecs", "--no-literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
		"--no-optional-locks", "--no-advice", "--no-lazy-fetch", "--html-path", "--man-path", "--info-path",
		"-v", "--version", "-h", "--help", "--no-replace-objects-here":
		return false, true
	}
	return false, false
}

func dockerGlobalOpt(opt string) (takesValue, known bool) {
	switch opt {
	case "-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey":
		return true, true
	case "-D", "--debug", "--tls", "--tlsverify":
		return false, true
	}
	return false, false
}

func kubectlGlobalOpt(opt string) (takesValue, known bool) {
	switch opt {
	case "-n", "--namespace", "--context", "--cluster", "--user", "--kubeconfig", "-s", "--server", "--token",
		"--as", "--as-group", "--request-timeout", "-v":
		return true, true
	case "--insecure-skip-tls-verify":
		return false, true
	}
	return false, false
}

func npmGlobalOpt(opt string) (takesValue, known bool) {
	switch opt {
	case "-C", "--prefix", "-w", "--workspace", "--loglevel", "--userconfig", "--registry":
		return true, true
	case "-g", "--global", "-s", "--silent", "-q", "--quiet", "-d", "--verbose", "-y", "--yes":
		return false, true
	}
	return false, false
}

func cargoGlobalOpt(opt string) (takesValue, known bool) {
	switch opt {
	case "-C", "-Z", "--config", "--color":
		return true, true
	case "-q", "-v", "-vv", "--quiet", "--verbose", "--offline", "--frozen", "--locked":
		return false, true
	}
	return false, false
}

func goGlobalOpt(opt string) (takesValue, known bool) {
	if opt == "-C" {
		return true, true
	}
	return false, false
}
