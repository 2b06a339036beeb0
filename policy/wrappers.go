package policy

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Exec wrappers: programs that run the command in their arguments
// (timeout 5 rm x, sudo -u bob rm x, xargs rm). The broad view unwraps
// them so deny rules see the command; the narrow view strips only the
// harmless ones (narrowWrapperOpts). Each wrapper's own options are
// described once, by an optSpec, so the command after them is found where
// the wrapper itself would find it.

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
	shortVal string   // short options taking a value, attached or next
	shortOpt string   // short options taking an optional attached value
	longVal  []string // long options taking a value ("=v" or next word)
	operands int      // positional words before the command
}

// opt is one parsed wrapper option.
type opt struct {
	name string // "s" for -s, "signal" for --signal
	val  string
}

// scanOpts reads a wrapper's options (stopping at the first non-option or
// after "--"), then its operands. It returns the index of the command and
// the options seen.
func scanOpts(args []string, spec *optSpec) (int, []opt) {
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
			if !hasVal && slices.Contains(spec.longVal, name) && i+1 < len(args) {
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

// has returns the value of the first option named any of names.
func has(opts []opt, names ...string) (string, bool) {
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			return o.val, true
		}
	}
	return "", false
}

// The options of the wrappers the narrow view strips as well; the others
// are written where they are used.
var (
	timeoutOpts = optSpec{shortVal: "ks", longVal: []string{"kill-after", "signal"}, operands: 1}
	timeOpts    = optSpec{shortVal: "fo", longVal: []string{"format", "output"}}
	niceOpts    = optSpec{shortVal: "n", longVal: []string{"adjustment"}}
	stdbufOpts  = optSpec{shortVal: "ioe", longVal: []string{"input", "output", "error"}}
	noOpts      = optSpec{}
	envOpts     = optSpec{shortVal: "uCS", longVal: []string{"unset", "chdir", "split-string"}}
)

// narrowWrapperOpts returns the options of the only wrappers the allow
// view strips (timeout, time, nice, nohup, stdbuf), or nil.
func narrowWrapperOpts(name string) *optSpec {
	switch name {
	case "timeout":
		return &timeoutOpts
	case "time":
		return &timeOpts
	case "nice":
		return &niceOpts
	case "nohup":
		return &noOpts
	case "stdbuf":
		return &stdbufOpts
	}
	return nil
}

// plainWrapperOpts returns the options of the wrappers that run the rest
// of their words after their options (and operands), or nil.
func plainWrapperOpts(name string) *optSpec {
	if s := narrowWrapperOpts(name); s != nil {
		return s
	}
	switch name {
	case "setsid", "busybox", "valgrind", "firejail", "unbuffer", "nocache", "catchsegv", "entr":
		return &noOpts
	case "pkexec":
		return &optSpec{longVal: []string{"user"}}
	case "strace":
		return &optSpec{shortVal: "abeEIoOpPsSuUX", longVal: []string{"output", "trace", "signal", "status", "user", "attach", "string-limit"}}
	case "ltrace":
		return &optSpec{shortVal: "aAeEfFlnopsSuwD", longVal: []string{"output", "library", "align", "indent", "user"}}
	case "fakeroot":
		return &optSpec{shortVal: "lsi", longVal: []string{"lib", "faked"}}
	case "proxychains", "proxychains4":
		return &optSpec{shortVal: "f"}
	case "torsocks":
		return &optSpec{shortVal: "upaP", longVal: []string{"user", "pass", "address", "port"}}
	case "caffeinate":
		return &optSpec{shortVal: "tw"}
	case "chroot":
		return &optSpec{longVal: []string{"userspec", "groups"}, operands: 1}
	case "unshare":
		return &optSpec{shortVal: "SGRw", longVal: []string{"setuid", "setgid", "root", "wd", "map-user", "map-group"}}
	case "nsenter":
		return &optSpec{shortVal: "tSGrw", longVal: []string{"target", "setuid", "setgid"}}
	case "systemd-run":
		return &optSpec{shortVal: "pEu", longVal: []string{"unit", "property", "setenv", "uid", "gid", "working-directory", "description", "slice"}}
	}
	return nil
}

// unwrapOnce says what the exec wrapper name runs; ok is false when name
// is not a wrapper.
func unwrapOnce(name string, args []string) (res wrapResult, ok bool) {
	if spec := plainWrapperOpts(name); spec != nil {
		return afterOpts(args, spec), true
	}
	switch name {
	case "env":
		return envWrap(args), true
	case "sudo":
		return sudoWrap(args), true
	case "doas":
		return doasWrap(args), true
	case "ionice", "taskset", "chrt":
		return schedWrap(name, args), true
	case "xargs":
		return xargsWrap(args), true
	case "watch":
		return watchWrap(args), true
	case "flock":
		return flockWrap(args), true
	case "sg":
		return sgWrap(args), true
	case "script":
		return scriptWrap(args), true
	case "parallel":
		return parallelWrap(args), true
	case "start":
		return startWrap(args), true
	}
	return wrapResult{}, false
}

// afterOpts is the command after a wrapper's options and operands, if any.
func afterOpts(args []string, spec *optSpec) wrapResult {
	i, _ := scanOpts(args, spec)
	if i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
}

// schedWrap unwraps ionice, taskset and chrt, which act on another
// process instead when given -p (and chrt -m only prints).
func schedWrap(name string, args []string) wrapResult {
	var spec optSpec
	var other []string
	switch name {
	case "ionice":
		spec = optSpec{shortVal: "cnp", longVal: []string{"class", "classdata", "pid", "pgid", "uid"}}
		other = []string{"p", "pid", "P", "pgid", "u", "uid"}
	case "taskset":
		spec = optSpec{operands: 1}
		other = []string{"p", "pid"}
	case "chrt":
		spec = optSpec{shortVal: "TPD", longVal: []string{"sched-runtime", "sched-period", "sched-deadline"}, operands: 1}
		other = []string{"p", "pid", "m", "max"}
	}
	i, opts := scanOpts(args, &spec)
	if _, ok := has(opts, other...); ok || i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
}

// envWrap unwraps env: -S/--split-string text is split like a command
// line (or, when it cannot be, judged as a shell body), NAME=v words are
// assignments, a lone "-" is -i.
func envWrap(args []string) wrapResult {
	var r wrapResult
	i, opts := scanOpts(args, &envOpts)
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
}

// sudoWrap unwraps sudo; -e edits files and -s/-i start a shell.
func sudoWrap(args []string) wrapResult {
	var r wrapResult
	i, opts := scanOpts(args, &optSpec{shortVal: "CDgprRtTUu", longVal: []string{"user", "group", "close-from", "chdir", "prompt", "role", "type", "command-timeout", "other-user", "host", "chroot"}})
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
}

// doasWrap unwraps doas; -s starts a shell.
func doasWrap(args []string) wrapResult {
	i, opts := scanOpts(args, &optSpec{shortVal: "uC"})
	if _, ok := has(opts, "s"); ok {
		return wrapResult{shell: true}
	}
	if i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
}

// xargsWrap unwraps xargs, which runs echo when given no command.
func xargsWrap(args []string) wrapResult {
	i, _ := scanOpts(args, &optSpec{shortVal: "adEILnPs", shortOpt: "eil",
		longVal: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}})
	if i >= len(args) {
		return wrapResult{cmd: []string{"echo"}}
	}
	return wrapResult{cmd: args[i:]}
}

// watchWrap unwraps watch, which passes its words to sh -c unless -x.
func watchWrap(args []string) wrapResult {
	i, opts := scanOpts(args, &optSpec{shortVal: "nq", shortOpt: "d", longVal: []string{"interval", "equexit"}})
	if i >= len(args) {
		return wrapResult{}
	}
	if _, ok := has(opts, "x", "exec"); ok {
		return wrapResult{cmd: args[i:]}
	}
	body := strings.Join(args[i:], " ")
	return wrapResult{shellBody: &body}
}

// flockOpts are flock's options; the lock file is its operand.
var flockOpts = optSpec{shortVal: "wEc", longVal: []string{"timeout", "wait", "conflict-exit-code", "command"}, operands: 1}

// flockWrap unwraps flock FILE CMD; -c passes a command line to sh -c,
// before or after the lock file.
func flockWrap(args []string) wrapResult {
	i, opts := scanOpts(args, &flockOpts)
	if body, ok := has(opts, "c", "command"); ok {
		return wrapResult{shellBody: &body}
	}
	// Options may also follow the lock file: flock FILE -c CMD.
	if i < len(args) && strings.HasPrefix(args[i], "-") {
		after := flockOpts
		after.operands = 0
		j, more := scanOpts(append([]string{"flock"}, args[i:]...), &after)
		if body, ok := has(more, "c", "command"); ok {
			return wrapResult{shellBody: &body}
		}
		i += j - 1
	}
	if i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
}

// sgWrap unwraps sg GROUP [-c] COMMAND, run through a shell.
func sgWrap(args []string) wrapResult {
	if len(args) < 3 {
		return wrapResult{shell: true}
	}
	rest := args[2:]
	if rest[0] == "-c" && len(rest) > 1 {
		rest = rest[1:]
	}
	body := strings.Join(rest, " ")
	return wrapResult{shellBody: &body}
}

// scriptWrap unwraps script -c COMMAND; without -c it starts a shell.
func scriptWrap(args []string) wrapResult {
	_, opts := scanOpts(args, &optSpec{shortVal: "cEIOTBmt", longVal: []string{"command", "echo", "log-in", "log-out", "log-timing", "logging-format"}})
	if body, ok := has(opts, "c", "command"); ok {
		return wrapResult{shellBody: &body}
	}
	return wrapResult{shell: true}
}

// parallelWrap unwraps GNU parallel: the words before ":::" are a command
// line it runs through a shell.
func parallelWrap(args []string) wrapResult {
	i, _ := scanOpts(args, &optSpec{shortVal: "jSaIdEnNPL", longVal: []string{"jobs", "sshlogin", "arg-file", "delimiter", "max-args", "joblog", "results"}})
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
}

// startWrap unwraps Windows start and its /options.
func startWrap(args []string) wrapResult {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "/") {
		i++
	}
	if i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
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
