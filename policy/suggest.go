package policy

import (
	"strings"
	"sync"

	"github.com/chainrun/chainrun/chain"
)

// MaxSuggestions caps the rule suggestions made for one chain.
const MaxSuggestions = 5

// arity says how many words name a command's verb: "git tag v1" has the
// verb "git tag". Longer entries ("npm run") refine shorter ones.
var arity = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"git": 2, "npm": 2, "npm run": 3, "npm view": 3, "npm exec": 3, "pnpm": 2, "pnpm run": 3,
		"yarn": 2, "yarn run": 3, "bun": 2, "bun run": 3, "cargo": 2, "go": 2, "go mod": 3, "go tool": 3,
		"docker": 2, "docker compose": 3, "docker image": 3, "docker container": 3, "podman": 2,
		"kubectl": 2, "helm": 2, "aws": 3, "gh": 3, "gcloud": 3, "az": 3, "terraform": 2, "make": 2,
		"pip": 2, "pip3": 2, "uv": 2, "uv run": 3, "poetry": 2, "poetry run": 3, "dotnet": 2, "mvn": 2,
		"gradle": 2, "brew": 2, "apt": 2, "apt-get": 2, "systemctl": 2, "rustup": 2, "deno": 2,
		"conda": 2, "nix": 2, "composer": 2, "bundle": 2, "rake": 2, "mix": 2, "swift": 2, "dnf": 2, "yum": 2,
	}
})

// bareBanned are programs whose bare prefix would allow any code: shells,
// interpreters, wrappers and package runners. Only exact rules are
// suggested for them.
var bareBanned = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "fish": true, "csh": true, "tcsh": true, "ksh": true, "dash": true,
		"mksh": true, "ash": true, "cmd": true, "powershell": true, "pwsh": true, "env": true, "xargs": true,
		"nice": true, "stdbuf": true, "nohup": true, "timeout": true, "time": true, "sudo": true, "doas": true,
		"pkexec": true, "su": true, "runuser": true, "watch": true, "flock": true, "setsid": true, "ionice": true,
		"chrt": true, "taskset": true, "busybox": true, "eval": true, "exec": true, "command": true,
		"node": true, "nodejs": true, "deno": true, "bun": true, "perl": true, "ruby": true, "php": true,
		"lua": true, "rscript": true, "osascript": true, "awk": true, "gawk": true, "mawk": true, "nawk": true,
		"npx": true, "bunx": true, "pnpx": true, "ssh": true, "java": true, "py": true,
		"ipython": true, "pypy": true, "pypy3": true, "tclsh": true, "wish": true, "expect": true,
		"strace": true, "ltrace": true, "valgrind": true, "fakeroot": true, "firejail": true, "proxychains": true,
		"proxychains4": true, "torsocks": true, "unbuffer": true, "caffeinate": true, "nocache": true, "catchsegv": true,
		"entr": true, "chroot": true, "unshare": true, "nsenter": true, "systemd-run": true, "sg": true, "script": true,
		"parallel": true, "start": true,
	}
})

func isBanned(name string) bool {
	if bareBanned()[name] {
		return true
	}
	return strings.HasPrefix(name, "python")
}

// Suggest proposes a rule that would allow seg: "<verb chain>:*" with the
// verb chain from the arity table (or the command plus a lowercase
// subcommand), trailing call-specific values trimmed; or the exact command
// for shells, interpreters and wrappers. It returns "" when no rule can be
// proposed (an unsafe assignment, a wildcard in a word).
func Suggest(seg *chain.Segment) string {
	args, why := narrowView(seg)
	if why != "" || len(args) == 0 {
		return ""
	}
	for _, a := range args {
		if strings.ContainsAny(a, "*\n\r") {
			return ""
		}
	}
	if !isASCII(args[0]) {
		return ""
	}
	name := canonicalName(args[0])
	if isBanned(name) {
		return exactSuggestion(args)
	}
	verb := verbChain(args)
	if verb == nil {
		return exactSuggestion(args)
	}
	return strings.Join(verb, " ") + ":*"
}

func exactSuggestion(args []string) string { return joinArgs(args) }

// verbChain picks the verb words of args and trims trailing values. It
// returns nil when the command has an arity entry wanting a subcommand
// that is not there (so "git -C x status" gets an exact suggestion rather
// than "git:*").
func verbChain(args []string) []string {
	want := 0
	for n := 1; n <= 2 && n < len(args); n++ {
		if a, ok := arity()[strings.Join(args[:n], " ")]; ok {
			want = a
		}
	}
	var verb []string
	verb = append(verb, args[0])
	if want > 0 {
		for _, a := range args[1:] {
			if len(verb) >= want || !verbWord(a) {
				break
			}
			verb = append(verb, a)
			if a2, ok := arity()[strings.Join(verb, " ")]; ok && a2 > want {
				want = a2
			}
		}
		if len(verb) == 1 {
			return nil
		}
	} else if len(args) > 1 && plainSubcommand(args[1]) {
		verb = append(verb, args[1])
	}
	for len(verb) > 1 && isValueToken(verb[len(verb)-1]) {
		verb = verb[:len(verb)-1]
	}
	return verb
}

// verbWord accepts a word into a verb chain: no flag, path, URL or
// anything that needs quoting.
func verbWord(a string) bool {
	if a == "" || a[0] == '-' || strings.ContainsAny(a, `/\~`) || strings.Contains(a, "://") {
		return false
	}
	return quoteArg(a) == a
}

// plainSubcommand is Claude-style: a lowercase plain word.
func plainSubcommand(a string) bool {
	if a == "" || a[0] < 'a' || a[0] > 'z' {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isValueToken reports a call-specific value: an integer, a version
// (v0.4.2, 1.0.0-beta.3, 1.0+build), a hex SHA of 7-40 characters with a
// digit, pkg@version or image:tag with a digit. Words that merely hold a
// digit (e2e, k8s, s3, py311) are not values.
func isValueToken(t string) bool {
	if t == "" {
		return false
	}
	if isVersion(t) || isHexSHA(t) {
		return true
	}
	if i := strings.LastIndexByte(t, '@'); i > 0 && i < len(t)-1 && isVersion(t[i+1:]) {
		return true
	}
	if i := strings.LastIndexByte(t, ':'); i > 0 && i < len(t)-1 && strings.ContainsAny(t[i+1:], "0123456789") {
		tag := t[i+1:]
		for j := 0; j < len(tag); j++ {
			c := tag[j]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '_') {
				return false
			}
		}
		return true
	}
	return false
}

// isVersion matches v?\d+(\.\d+)*([-+].+)?
func isVersion(t string) bool {
	i := 0
	if t[0] == 'v' || t[0] == 'V' {
		i++
	}
	start := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == start {
		return false
	}
	for i < len(t) && t[i] == '.' {
		i++
		s := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == s {
			return false
		}
	}
	if i == len(t) {
		return true
	}
	return (t[i] == '-' || t[i] == '+') && i+1 < len(t)
}

func isHexSHA(t string) bool {
	if len(t) < 7 || len(t) > 40 {
		return false
	}
	digit := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
		default:
			return false
		}
	}
	return digit
}
