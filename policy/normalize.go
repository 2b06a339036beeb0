package policy

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chainrun/chainrun/chain"
	"golang.org/x/text/unicode/norm"
)

// maxWrapDepth bounds wrapper unwrapping; deeper nesting is asked about.
const maxWrapDepth = 16

// canonicalName reduces a program name to the form deny and ask rules are
// compared in: the last path element, with .exe/.cmd/.bat/.com and
// trailing dots or spaces removed (Windows ignores them), NFKC-normalised
// and case-folded. "/bin/./RM.EXE" and fullwidth "ｒｍ" both become "rm".
func canonicalName(s string) string {
	if isPlainName(s) {
		return s
	}
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	if !isASCII(s) {
		s = norm.NFKC.String(s)
	}
	s = strings.ToLower(s)
	s = strings.TrimRight(s, ". ")
	for _, ext := range [...]string{".exe", ".cmd", ".bat", ".com"} {
		if strings.HasSuffix(s, ext) && len(s) > len(ext) {
			s = s[:len(s)-len(ext)]
			break
		}
	}
	return strings.TrimRight(s, ". ")
}

// isPlainName reports a name that canonicalName leaves as it is.
func isPlainName(s string) bool {
	if s == "" || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '+' || c == '.') {
			return false
		}
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		switch s[i:] {
		case ".exe", ".cmd", ".bat", ".com":
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lookAlike reports a program name that NFKC normalisation changes: a
// fullwidth or compatibility form of another name.
func lookAlike(name string) bool {
	return !isASCII(name) && !norm.NFKC.IsNormalString(name)
}

// isAssignWord reports a NAME=value word.
func isAssignWord(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// command is one effective command found in a segment: the segment itself,
// or what a wrapper or a shell body runs.
type command struct {
	// args has argv[0] canonicalised.
	args []string
	// redirects are those of a shell body's segment; the outer segment's
	// own redirects are judged separately.
	redirects []chain.Redirect
}

// analysis is everything the policy reads off one segment before rules
// are matched.
type analysis struct {
	seg *chain.Segment
	// layers are every argv met while unwrapping (argv[0] canonical), plus
	// forms with global options skipped; deny and ask rules match any.
	layers [][]string
	// cmds are the innermost commands, after all wrappers.
	cmds []command
	// narrow is the allow view; nil when an assignment disqualifies it.
	narrow    []string
	narrowWhy string
	// envs are the names assigned anywhere: the segment, env/sudo
	// arguments, a shell body.
	envs []string
	// shell is set when a shell or a shell-running wrapper is involved.
	shell bool
	// asks are structural reasons that make the segment ask whatever the
	// allow rules say.
	asks []string

	// Room for the common case, saving allocations.
	layersBuf [2][]string
	cmdsBuf   [1]command
}

func analyze(seg *chain.Segment) *analysis {
	a := &analysis{seg: seg}
	a.layers = a.layersBuf[:0]
	a.cmds = a.cmdsBuf[:0]
	for _, as := range seg.Assigns {
		a.envs = append(a.envs, as.Name)
	}
	a.unwrap(seg.Args, 0, false)
	a.narrow, a.narrowWhy = narrowView(seg)
	if len(seg.Args) > 0 && batchFile(seg.Args[0]) {
		for _, x := range seg.Args[1:] {
			if strings.ContainsAny(x, "\"&|<>^%!()\r\n") {
				a.ask("batch file argument " + quoteArg(x) + " holds a cmd.exe metacharacter; Windows refuses it at run time")
				break
			}
		}
	}
	return a
}

// batchFile reports a program name cmd.exe would run: *.bat or *.cmd.
func batchFile(name string) bool {
	l := strings.ToLower(strings.TrimRight(name, ". "))
	return strings.HasSuffix(l, ".bat") || strings.HasSuffix(l, ".cmd")
}

func (a *analysis) ask(reason string) {
	for _, r := range a.asks {
		if r == reason {
			return
		}
	}
	a.asks = append(a.asks, reason)
}

// unwrap walks wrappers to a fixpoint, recording each layer.
func (a *analysis) unwrap(args []string, depth int, afterWrapper bool) {
	for {
		if len(args) == 0 {
			return
		}
		if depth > maxWrapDepth {
			a.ask("wrappers nested more than 16 deep")
			return
		}
		if afterWrapper && isAssignWord(args[0]) {
			// bash would run a program named "NAME=v"; deny rules still see
			// the command behind it.
			a.ask("after a wrapper, " + args[0] + " is read as the program name, not an assignment")
			i := 0
			for i < len(args) && isAssignWord(args[i]) {
				a.envs = append(a.envs, args[i][:strings.IndexByte(args[i], '=')])
				i++
			}
			a.layers = append(a.layers, canonLayer(args))
			args = args[i:]
			continue
		}
		if lookAlike(args[0]) {
			a.ask("program name " + quoteArg(args[0]) + " is a compatibility look-alike of " + quoteArg(canonicalName(args[0])))
		}
		layer := canonLayer(args)
		a.layers = append(a.layers, layer)
		if g := skipGlobal(layer); g != nil {
			a.layers = append(a.layers, g)
		}
		name := layer[0]
		if shells()[name] || name == "cmd" || name == "powershell" || name == "pwsh" || name == "su" || name == "runuser" {
			a.shellBody(name, args, depth)
			return
		}
		switch name {
		case "find":
			a.findExec(args, depth)
		case "fd", "fdfind":
			a.fdExec(args, depth)
		}
		w, ok := wrappers()[name]
		if !ok {
			a.cmds = append(a.cmds, command{args: layer})
			return
		}
		res := w(args)
		a.envs = append(a.envs, res.envs...)
		if res.shellBody != nil {
			a.shell = true
			a.ask(name + " runs its command through a shell")
			a.parseBody(name, *res.shellBody, depth)
			return
		}
		if res.shell {
			a.shell = true
			a.ask(name + " starts a shell")
			a.cmds = append(a.cmds, command{args: layer})
			return
		}
		if res.ask != "" {
			a.ask(res.ask)
		}
		if res.cmd == nil {
			a.cmds = append(a.cmds, command{args: layer})
			return
		}
		args = res.cmd
		depth++
		afterWrapper = true
	}
}

// canonLayer returns args with argv[0] canonical; args itself when it
// already is (layers are never modified).
func canonLayer(args []string) []string {
	c := canonicalName(args[0])
	if c == args[0] {
		return args
	}
	l := make([]string, len(args))
	copy(l, args)
	l[0] = c
	return l
}

var shells = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true,
		"fish": true, "csh": true, "tcsh": true, "yash": true, "posh": true, "rbash": true,
	}
})

// shellBody handles sh -c BODY (and -lc, -ec clusters), cmd /c, powershell
// -Command and su -c: the body is parsed and every segment of it judged.
func (a *analysis) shellBody(name string, args []string, depth int) {
	a.shell = true
	a.cmds = append(a.cmds, command{args: canonLayer(args)})
	var body string
	found := false
	switch name {
	case "cmd":
		for i, x := range args[1:] {
			if lx := strings.ToLower(x); lx == "/c" || lx == "/k" || lx == "/r" {
				body, found = strings.Join(args[i+2:], " "), true
				break
			}
		}
	case "powershell", "pwsh":
		for i, x := range args[1:] {
			lx := strings.ToLower(x)
			if lx == "-c" || lx == "-command" || lx == "/c" || lx == "/command" {
				body, found = strings.Join(args[i+2:], " "), true
				break
			}
			if strings.HasPrefix(lx, "-e") || strings.HasPrefix(lx, "-f") {
				break
			}
		}
	case "su", "runuser":
		for i := 1; i < len(args); i++ {
			x := args[i]
			if x == "-c" || x == "--command" || x == "--session-command" {
				if i+1 < len(args) {
					body, found = args[i+1], true
				}
				break
			}
			if v, ok := strings.CutPrefix(x, "--command="); ok {
				body, found = v, true
				break
			}
		}
	default:
		cflag := false
		i := 1
	opts:
		for ; i < len(args); i++ {
			x := args[i]
			switch {
			case x == "--" || x == "-":
				i++
				break opts
			case strings.HasPrefix(x, "--"):
				if x == "--rcfile" || x == "--init-file" {
					i++
				}
			case len(x) > 1 && (x[0] == '-' || x[0] == '+'):
				for j := 1; j < len(x); j++ {
					switch x[j] {
					case 'c':
						cflag = true
					case 'o', 'O':
						if j == len(x)-1 {
							i++
						}
					}
				}
			default:
				break opts
			}
		}
		if cflag && i < len(args) {
			body, found = args[i], true
		}
	}
	if !found && (name == "su" || name == "runuser") {
		for k, x := range args {
			if x == "--" && k+1 < len(args) {
				a.ask(name + " runs a command as another user")
				a.unwrap(args[k+1:], depth+1, false)
				return
			}
		}
	}
	if !found {
		a.ask(name + " runs a script or an interactive shell")
		return
	}
	a.ask(name + " is a shell wrapper, never allowed by a rule")
	a.parseBody(name, body, depth)
}

// bodyDialect is the dialect a shell body is read in: POSIX for the sh
// family, Windows (backslashes kept) for cmd and PowerShell.
func bodyDialect(name string) chain.Dialect {
	if name == "cmd" || name == "powershell" || name == "pwsh" {
		return chain.Windows
	}
	return chain.POSIX
}

// parseBody parses a shell body with the engine's parser and unwraps each
// of its segments. An unreadable body asks.
func (a *analysis) parseBody(name, body string, depth int) {
	c, err := chain.ParseDialect(body, bodyDialect(name))
	if err != nil {
		a.ask("cannot read the " + name + " body: " + err.Error())
		return
	}
	for _, s := range c.Segments() {
		for _, as := range s.Assigns {
			a.envs = append(a.envs, as.Name)
		}
		before := len(a.cmds)
		a.unwrap(s.Args, depth+1, false)
		for i := before; i < len(a.cmds); i++ {
			a.cmds[i].redirects = s.Redirects
		}
		if len(s.Redirects) > 0 && len(a.cmds) == before {
			a.cmds = append(a.cmds, command{args: canonLayer(s.Args), redirects: s.Redirects})
		}
	}
}

// findExec unwraps the commands find runs with -exec, -execdir, -ok and
// -okdir, so deny rules see them.
func (a *analysis) findExec(args []string, depth int) {
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			if j > i+1 {
				a.unwrap(args[i+1:j], depth+1, false)
			}
			i = j
		}
	}
}

// fdExec unwraps the command fd runs with -x/--exec or -X/--exec-batch:
// the rest of the words, or up to ";".
func (a *analysis) fdExec(args []string, depth int) {
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-x", "--exec", "-X", "--exec-batch":
			j := i + 1
			for j < len(args) && args[j] != ";" {
				j++
			}
			if j > i+1 {
				a.unwrap(args[i+1:j], depth+1, false)
			}
			i = j
		}
	}
}

// wrapResult is what a wrapper runs.
type wrapResult struct {
	cmd       []string // the wrapped command; nil when there is none
	envs      []string // names the wrapper assigns (env NAME=v, sudo NAME=v)
	shell     bool     // the wrapper starts a shell itself (sudo -s, doas -s)
	shellBody *string  // the wrapper passes this text to sh -c (watch, flock -c)
	ask       string   // a reason to ask, if the wrapper is unusual
}

// optSpec describes a wrapper's own options, so the wrapped command can be
// found after them.
type optSpec struct {
	shortVal string          // short options taking a value, attached or next
	shortOpt string          // short options taking an optional attached value
	longVal  map[string]bool // long options taking a value ("=v" or next word)
	operands int             // positional words before the command
}

// opt is one parsed wrapper option.
type opt struct {
	name string // "s" for -s, "signal" for --signal
	val  string
}

// scanOpts reads a wrapper's options (stopping at the first non-option or
// after "--"), then its operands. It returns the index of the command and
// the options seen.
func scanOpts(args []string, spec optSpec) (int, []opt) {
	var opts []opt
	i := 1
	for i < len(args) {
		x := args[i]
		if x == "--" {
			i++
			break
		}
		if strings.HasPrefix(x, "--") {
			name, val, hasVal := strings.Cut(x[2:], "=")
			if !hasVal && spec.longVal[name] && i+1 < len(args) {
				val = args[i+1]
				i++
			}
			opts = append(opts, opt{name, val})
			i++
			continue
		}
		if len(x) < 2 || x[0] != '-' {
			break
		}
		for j := 1; j < len(x); j++ {
			c := x[j]
			if strings.IndexByte(spec.shortOpt, c) >= 0 {
				opts = append(opts, opt{string(c), x[j+1:]})
				break
			}
			if strings.IndexByte(spec.shortVal, c) >= 0 {
				v := x[j+1:]
				if v == "" && i+1 < len(args) {
					v = args[i+1]
					i++
				}
				opts = append(opts, opt{string(c), v})
				break
			}
			opts = append(opts, opt{string(c), ""})
		}
		i++
	}
	i += spec.operands
	return i, opts
}

func has(opts []opt, names ...string) (string, bool) {
	for _, o := range opts {
		for _, n := range names {
			if o.name == n {
				return o.val, true
			}
		}
	}
	return "", false
}

func simpleWrapper(spec optSpec) func([]string) wrapResult {
	return func(args []string) wrapResult {
		i, _ := scanOpts(args, spec)
		if i >= len(args) {
			return wrapResult{}
		}
		return wrapResult{cmd: args[i:]}
	}
}

func longs(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// wrappers are the exec wrappers unwrapped for the broad view.
var wrappers = sync.OnceValue(func() map[string]func([]string) wrapResult {
	return map[string]func([]string) wrapResult{
		"timeout": simpleWrapper(optSpec{shortVal: "ks", longVal: longs("kill-after", "signal"), operands: 1}),
		"time":    simpleWrapper(optSpec{shortVal: "fo", longVal: longs("format", "output")}),
		"nice":    simpleWrapper(optSpec{shortVal: "n", longVal: longs("adjustment")}),
		"nohup":   simpleWrapper(optSpec{}),
		"stdbuf":  simpleWrapper(optSpec{shortVal: "ioe", longVal: longs("input", "output", "error")}),
		"setsid":  simpleWrapper(optSpec{}),
		"pkexec":  simpleWrapper(optSpec{longVal: longs("user")}),
		"busybox": simpleWrapper(optSpec{}),
		"ionice": func(args []string) wrapResult {
			i, opts := scanOpts(args, optSpec{shortVal: "cnp", longVal: longs("class", "classdata", "pid", "pgid", "uid")})
			if _, ok := has(opts, "p", "pid", "P", "pgid", "u", "uid"); ok || i >= len(args) {
				return wrapResult{}
			}
			return wrapResult{cmd: args[i:]}
		},
		"env": func(args []string) wrapResult {
			var r wrapResult
			i, opts := scanOpts(args, optSpec{shortVal: "uCS", longVal: longs("unset", "chdir", "split-string")})
			var split []string
			for _, o := range opts {
				if o.name == "S" || o.name == "split-string" {
					c, err := chain.ParseDialect(o.val, chain.POSIX)
					if err != nil || len(c.Segments()) != 1 || len(c.Segments()[0].Redirects) > 0 {
						s := o.val
						r.shellBody = &s
						return r
					}
					seg := c.Segments()[0]
					for _, as := range seg.Assigns {
						r.envs = append(r.envs, as.Name)
					}
					split = append(split, seg.Args...)
				}
			}
			rest := append(split, args[i:]...)
			j := 0
			for j < len(rest) && rest[j] == "-" {
				j++ // a lone "-" is -i
			}
			for j < len(rest) && isAssignWord(rest[j]) {
				r.envs = append(r.envs, rest[j][:strings.IndexByte(rest[j], '=')])
				j++
			}
			if j < len(rest) {
				r.cmd = rest[j:]
			}
			return r
		},
		"sudo": func(args []string) wrapResult {
			var r wrapResult
			i, opts := scanOpts(args, optSpec{shortVal: "CDgprRtTUu", longVal: longs("user", "group", "close-from", "chdir", "prompt", "role", "type", "command-timeout", "other-user", "host", "chroot")})
			if _, ok := has(opts, "e", "edit"); ok {
				r.ask = "sudo -e edits files as another user"
				return r
			}
			for i < len(args) && isAssignWord(args[i]) {
				r.envs = append(r.envs, args[i][:strings.IndexByte(args[i], '=')])
				i++
			}
			if _, ok := has(opts, "s", "i", "shell", "login"); ok {
				r.shell = true
				return r
			}
			if i < len(args) {
				r.cmd = args[i:]
			}
			return r
		},
		"doas": func(args []string) wrapResult {
			i, opts := scanOpts(args, optSpec{shortVal: "uC"})
			if _, ok := has(opts, "s"); ok {
				return wrapResult{shell: true}
			}
			if i >= len(args) {
				return wrapResult{}
			}
			return wrapResult{cmd: args[i:]}
		},
		"xargs": func(args []string) wrapResult {
			i, _ := scanOpts(args, optSpec{shortVal: "adEILnPs", shortOpt: "eil",
				longVal: longs("arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var")})
			if i >= len(args) {
				return wrapResult{cmd: []string{"echo"}}
			}
			return wrapResult{cmd: args[i:]}
		},
		"watch": func(args []string) wrapResult {
			i, opts := scanOpts(args, optSpec{shortVal: "nq", shortOpt: "d", longVal: longs("interval", "equexit")})
			if i >= len(args) {
				return wrapResult{}
			}
			if _, ok := has(opts, "x", "exec"); ok {
				return wrapResult{cmd: args[i:]}
			}
			body := strings.Join(args[i:], " ")
			return wrapResult{shellBody: &body}
		},
		"flock": func(args []string) wrapResult {
			i, opts := scanOpts(args, optSpec{shortVal: "wEc", longVal: longs("timeout", "wait", "conflict-exit-code", "command"), operands: 1})
			if body, ok := has(opts, "c", "command"); ok {
				return wrapResult{shellBody: &body}
			}
			// Options may also follow the lock file: flock FILE -c CMD.
			if i < len(args) && strings.HasPrefix(args[i], "-") {
				j, more := scanOpts(append([]string{"flock"}, args[i:]...), optSpec{shortVal: "wEc", longVal: longs("timeout", "wait", "conflict-exit-code", "command")})
				if body, ok := has(more, "c", "command"); ok {
					return wrapResult{shellBody: &body}
				}
				i += j - 1
			}
			if i >= len(args) {
				return wrapResult{}
			}
			return wrapResult{cmd: args[i:]}
		},
		"taskset": func(args []string) wrapResult {
			i, opts := scanOpts(args, optSpec{operands: 1})
			if _, ok := has(opts, "p", "pid"); ok || i >= len(args) {
				return wrapResult{}
			}
			return wrapResult{cmd: args[i:]}
		},
		"strace":       simpleWrapper(optSpec{shortVal: "abeEIoOpPsSuUX", longVal: longs("output", "trace", "signal", "status", "user", "attach", "string-limit")}),
		"ltrace":       simpleWrapper(optSpec{shortVal: "aAeEfFlnopsSuwD", longVal: longs("output", "library", "align", "indent", "user")}),
		"valgrind":     simpleWrapper(optSpec{}),
		"fakeroot":     simpleWrapper(optSpec{shortVal: "lsi", longVal: longs("lib", "faked")}),
		"firejail":     simpleWrapper(optSpec{}),
		"proxychains":  simpleWrapper(optSpec{shortVal: "f"}),
		"proxychains4": simpleWrapper(optSpec{shortVal: "f"}),
		"torsocks":     simpleWrapper(optSpec{shortVal: "upaP", longVal: longs("user", "pass", "address", "port")}),
		"unbuffer":     simpleWrapper(optSpec{}),
		"caffeinate":   simpleWrapper(optSpec{shortVal: "tw"}),
		"nocache":      simpleWrapper(optSpec{}),
		"catchsegv":    simpleWrapper(optSpec{}),
		"entr":         simpleWrapper(optSpec{}),
		"chroot":       simpleWrapper(optSpec{longVal: longs("userspec", "groups"), operands: 1}),
		"unshare":      simpleWrapper(optSpec{shortVal: "SGRw", longVal: longs("setuid", "setgid", "root", "wd", "map-user", "map-group")}),
		"nsenter":      simpleWrapper(optSpec{shortVal: "tSGrw", longVal: longs("target", "setuid", "setgid")}),
		"systemd-run":  simpleWrapper(optSpec{shortVal: "pEu", longVal: longs("unit", "property", "setenv", "uid", "gid", "working-directory", "description", "slice")}),
		"sg": func(args []string) wrapResult {
			if len(args) < 3 {
				return wrapResult{shell: true}
			}
			rest := args[2:]
			if rest[0] == "-c" && len(rest) > 1 {
				rest = rest[1:]
			}
			body := strings.Join(rest, " ")
			return wrapResult{shellBody: &body}
		},
		"script": func(args []string) wrapResult {
			_, opts := scanOpts(args, optSpec{shortVal: "cEIOTBmt", longVal: longs("command", "echo", "log-in", "log-out", "log-timing", "logging-format")})
			if body, ok := has(opts, "c", "command"); ok {
				return wrapResult{shellBody: &body}
			}
			return wrapResult{shell: true}
		},
		"parallel": func(args []string) wrapResult {
			i, _ := scanOpts(args, optSpec{shortVal: "jSaIdEnNPL", longVal: longs("jobs", "sshlogin", "arg-file", "delimiter", "max-args", "joblog", "results")})
			end := len(args)
			for k := i; k < len(args); k++ {
				if strings.HasPrefix(args[k], ":::") || args[k] == "::::" {
					end = k
					break
				}
			}
			if i >= end {
				return wrapResult{shell: true}
			}
			body := strings.Join(args[i:end], " ")
			return wrapResult{shellBody: &body}
		},
		"start": func(args []string) wrapResult {
			i := 1
			for i < len(args) && strings.HasPrefix(args[i], "/") {
				i++
			}
			if i >= len(args) {
				return wrapResult{}
			}
			return wrapResult{cmd: args[i:]}
		},
		"chrt": func(args []string) wrapResult {
			i, opts := scanOpts(args, optSpec{shortVal: "TPD", longVal: longs("sched-runtime", "sched-period", "sched-deadline"), operands: 1})
			if _, ok := has(opts, "p", "pid", "m", "max"); ok || i >= len(args) {
				return wrapResult{}
			}
			return wrapResult{cmd: args[i:]}
		},
	}
})

// narrowWrappers are the only wrappers stripped for the allow view.
var narrowWrappers = sync.OnceValue(func() map[string]optSpec {
	return map[string]optSpec{
		"timeout": {shortVal: "ks", longVal: longs("kill-after", "signal"), operands: 1},
		"time":    {shortVal: "fo", longVal: longs("format", "output")},
		"nice":    {shortVal: "n", longVal: longs("adjustment")},
		"nohup":   {},
		"stdbuf":  {shortVal: "ioe", longVal: longs("input", "output", "error")},
	}
})

// narrowView is the allow view: safe assignments stripped (any other one
// disqualifies it), then only timeout, time, nice, nohup and stdbuf with
// their own options. A NAME=v word after a wrapper is the program.
func narrowView(seg *chain.Segment) ([]string, string) {
	for _, as := range seg.Assigns {
		if !safeEnv()[as.Name] {
			return nil, "assignment " + as.Name + "= is not a safe variable, so only an exact rule spelling it out can allow this"
		}
	}
	args := seg.Args
	for n := 0; n < maxWrapDepth && len(args) > 0; n++ {
		spec, ok := narrowWrappers()[args[0]]
		if !ok {
			break
		}
		i, _ := scanOpts(args, spec)
		if i >= len(args) {
			break
		}
		args = args[i:]
	}
	return args, ""
}

// globalOpts lists, per tool, the global options that come before its
// subcommand: true when the option takes a separate value.
var globalOpts = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"git": {"-c": true, "-C": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
			"--super-prefix": true, "--config-env": true, "--attr-source": true, "--exec-path": false,
			"-p": false, "--paginate": false, "-P": false, "--no-pager": false, "--bare": false,
			"--no-replace-objects": false, "--literal-pathspecs": false, "--glob-pathspecs": false,
			"--noglob-pathspecs": false, "--icase-pathspecs": false, "--no-optional-locks": false,
			"--no-advice": false, "--no-lazy-fetch": false},
		"docker": {"-H": true, "--host": true, "-c": true, "--context": true, "--config": true,
			"-l": true, "--log-level": true, "--tlscacert": true, "--tlscert": true, "--tlskey": true,
			"-D": false, "--debug": false, "--tls": false, "--tlsverify": false},
		"kubectl": {"-n": true, "--namespace": true, "--context": true, "--cluster": true, "--user": true,
			"--kubeconfig": true, "-s": true, "--server": true, "--token": true, "--as": true,
			"--as-group": true, "--request-timeout": true, "-v": true, "--insecure-skip-tls-verify": false},
		"npm": {"-C": true, "--prefix": true, "-w": true, "--workspace": true, "--loglevel": true,
			"--userconfig": true, "--registry": true, "-g": false, "--global": false, "-s": false,
			"--silent": false, "-q": false, "--quiet": false, "-d": false, "--verbose": false,
			"-y": false, "--yes": false},
		"cargo": {"-C": true, "-Z": true, "--config": true, "--color": true, "-q": false, "-v": false,
			"-vv": false, "--quiet": false, "--verbose": false, "--offline": false, "--frozen": false,
			"--locked": false},
		"go": {"-C": true},
	}
})

// skipGlobal returns layer without the tool's leading global options, or
// nil when there were none.
func skipGlobal(layer []string) []string {
	spec, ok := globalOpts()[layer[0]]
	if !ok {
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
		takes, known := spec[name]
		if !known {
			// -C/path or -cfoo forms of a known short option.
			if len(x) > 2 && x[1] != '-' && spec[x[:2]] {
				i++
				continue
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

// quoteArg renders a word for messages and exact-rule suggestions, quoting
// it the way the parser reads back when it holds anything but plain
// characters.
func quoteArg(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:,+=@%^", c) >= 0) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func joinArgs(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteArg(a))
	}
	return b.String()
}
