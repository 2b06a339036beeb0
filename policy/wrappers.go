package policy

import (
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
	files     []fileArg
	// unreadable is the first option word the wrapper's spec could not
	// read: the command may start at any later word.
	unreadable string
}

// The options of the wrappers the narrow view strips as well; the others
// are written where they are used. The lists are the programs' own
// (coreutils, util-linux, findutils, GNU time, sudo), long options
// included, so abbreviations resolve as getopt_long resolves them.
var (
	timeoutOpts = optSpec{shortVal: "ks", shortFlag: "fpv", longVal: []string{"kill-after", "signal"},
		longFlag: []string{"foreground", "preserve-status", "verbose", "help", "version"}, operands: 1, abbrev: true}
	timeOpts = optSpec{shortVal: "fo", shortFlag: "apqvV", longVal: []string{"format", "output"},
		longFlag: []string{"append", "portability", "quiet", "verbose", "help", "version"}, abbrev: true,
		files: map[string]fileRole{"o": roleWrite, "output": roleWrite}}
	niceOpts   = optSpec{shortVal: "n", shortFlag: "0123456789", longVal: []string{"adjustment"}, longFlag: []string{"help", "version"}, abbrev: true}
	stdbufOpts = optSpec{shortVal: "ioe", longVal: []string{"input", "output", "error"}, longFlag: []string{"help", "version"}, abbrev: true}
	noOpts     = optSpec{longFlag: []string{"help", "version"}, abbrev: true}
	envOpts    = optSpec{shortVal: "uCS", shortFlag: "i0v", longVal: []string{"unset", "chdir", "split-string"},
		longOpt:  []string{"block-signal", "default-signal", "ignore-signal"},
		longFlag: []string{"ignore-environment", "null", "debug", "list-signal-handling", "help", "version"}, abbrev: true,
		files: map[string]fileRole{"C": roleChdir, "chdir": roleChdir}}
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

// exactOpts are the specs of wrappers that parse their options by hand
// (no abbreviations) or whose option lists are too long to hold whole: a
// long option not spelled out here makes them unreadable.
func exactOpts(name string) *optSpec {
	switch name {
	case "busybox", "nocache", "catchsegv":
		return &optSpec{}
	case "unbuffer":
		return &optSpec{shortFlag: "p"}
	case "valgrind":
		return &optSpec{anyOpt: true, files: map[string]fileRole{"log-file": roleWrite, "xml-file": roleWrite, "suppressions": roleRead}}
	case "firejail":
		return &optSpec{anyOpt: true, files: map[string]fileRole{"output": roleWrite, "output-stderr": roleWrite, "profile": roleRead}}
	case "pkexec":
		return &optSpec{shortVal: "u", longVal: []string{"user"}, longFlag: []string{"disable-internal-agent", "keep-cwd", "help", "version"}}
	case "strace":
		return &optSpec{shortVal: "abeEIoOpPsSuUX", shortFlag: "AcCdDfFhiknqrtTvVwxyYzZ",
			longVal:  []string{"output", "trace", "signal", "status", "user", "attach", "string-limit", "columns", "env", "trace-path"},
			longFlag: []string{"follow-forks", "summary-only", "summary", "quiet", "help", "version", "output-separately", "output-append-mode"},
			files:    map[string]fileRole{"o": roleWrite, "output": roleWrite}}
	case "ltrace":
		return &optSpec{shortVal: "aAeEfFlnopsSuwD", shortFlag: "bcChiLrStTV", longVal: []string{"output", "library", "align", "indent", "user", "config"},
			longFlag: []string{"demangle", "help", "version"}, files: map[string]fileRole{"o": roleWrite, "output": roleWrite, "F": roleRead, "config": roleRead}}
	case "fakeroot":
		return &optSpec{shortVal: "lsib", shortFlag: "uhv", longVal: []string{"lib", "faked", "fd-base"}, longFlag: []string{"unknown-is-real", "help", "version"},
			abbrev: true, files: map[string]fileRole{"s": roleWrite, "i": roleRead}}
	case "proxychains", "proxychains4":
		return &optSpec{shortVal: "f", shortFlag: "q", files: map[string]fileRole{"f": roleRead}}
	case "torsocks":
		return &optSpec{shortVal: "upaP", shortFlag: "i6dqh", longVal: []string{"user", "pass", "address", "port"}, longFlag: []string{"isolate", "version", "help"}}
	case "caffeinate":
		return &optSpec{shortVal: "tw", shortFlag: "dimsu"}
	case "chroot":
		return &optSpec{longVal: []string{"userspec", "groups"}, longFlag: []string{"skip-chdir", "help", "version"}, operands: 1, abbrev: true}
	case "setsid":
		return &optSpec{shortFlag: "cfwhV", longFlag: []string{"ctty", "fork", "wait", "help", "version"}, abbrev: true}
	case "unshare":
		return &optSpec{shortVal: "SGRw", shortFlag: "muinpUCTfrchV",
			longVal:  []string{"setuid", "setgid", "root", "wd", "map-user", "map-group", "map-users", "map-groups", "propagation", "setgroups"},
			longOpt:  []string{"mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "kill-child", "mount-proc"},
			longFlag: []string{"fork", "map-root-user", "map-current-user", "map-auto", "keep-caps", "help", "version"},
			files:    map[string]fileRole{"R": roleChdir, "root": roleChdir, "w": roleChdir, "wd": roleChdir}}
	case "nsenter":
		return &optSpec{shortVal: "tSG", shortOpt: "rwmuinpUCT", shortFlag: "FaZhV", longVal: []string{"target", "setuid", "setgid"},
			longOpt:  []string{"root", "wd", "mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time"},
			longFlag: []string{"all", "no-fork", "preserve-credentials", "help", "version"},
			files:    map[string]fileRole{"r": roleChdir, "root": roleChdir, "w": roleChdir, "wd": roleChdir}}
	case "systemd-run":
		return &optSpec{shortVal: "pEuMH", shortFlag: "tPqGdrSh", longVal: []string{"unit", "property", "setenv", "uid", "gid", "working-directory", "description", "slice", "machine", "host"},
			longFlag: []string{"pty", "pipe", "quiet", "wait", "collect", "user", "system", "scope", "same-dir", "no-block", "shell", "help", "version"},
			files:    map[string]fileRole{"working-directory": roleChdir, "same-dir": roleChdir}}
	}
	return nil
}

// plainWrapperOpts returns the options of the wrappers that run the rest
// of their words after their options (and operands), or nil.
func plainWrapperOpts(name string) *optSpec {
	if s := narrowWrapperOpts(name); s != nil {
		return s
	}
	return exactOpts(name)
}

// unwrapOnce says what the exec wrapper name runs; ok is false when name
// is not a wrapper.
func unwrapOnce(name string, args []string) (res wrapResult, ok bool) {
	if spec := plainWrapperOpts(name); spec != nil {
		res := afterOpts(args, spec)
		if name == "chroot" && len(args) > 1 {
			res.ask = "chroot runs the command under another root: its paths are not the ones judged"
		}
		if name == "systemd-run" {
			res.ask = "systemd-run runs the command as a service unit"
		}
		return res, true
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
	case "entr":
		return entrWrap(args), true
	case "start":
		return startWrap(args), true
	}
	return wrapResult{}, false
}

// optFiles turns the options of spec that name files into file arguments,
// and a directory change into a reason to ask.
func optFiles(name string, spec *optSpec, opts []opt, r *wrapResult) {
	for _, o := range opts {
		role, ok := spec.files[o.name]
		if !ok {
			continue
		}
		if role == roleChdir {
			r.ask = name + " changes the directory or root its command runs in (" + o.name + "): the command's paths cannot be judged"
			continue
		}
		if o.val != "" {
			if name == "strace" && (strings.HasPrefix(o.val, "|") || strings.HasPrefix(o.val, "!")) {
				r.ask = "strace -o |CMD runs a command"
				continue
			}
			r.files = append(r.files, fileArg{word: o.val, role: role, what: name + " " + optWord(o.name)})
		}
	}
}

// optWord spells an option name as it is written: "-o", "--output".
func optWord(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// afterOpts is the command after a wrapper's options and operands, if any.
func afterOpts(args []string, spec *optSpec) wrapResult {
	i, opts, bad := scanOpts(args, spec)
	var r wrapResult
	if bad != "" {
		r.unreadable = bad
		return r
	}
	optFiles(args[0], spec, opts, &r)
	if i < len(args) {
		r.cmd = args[i:]
	}
	return r
}

// schedWrap unwraps ionice, taskset and chrt, which act on another
// process instead when given -p (and chrt -m only prints).
func schedWrap(name string, args []string) wrapResult {
	var spec optSpec
	var other []string
	switch name {
	case "ionice":
		spec = optSpec{shortVal: "cnpPu", shortFlag: "thV", longVal: []string{"class", "classdata", "pid", "pgid", "uid"},
			longFlag: []string{"ignore", "help", "version"}, abbrev: true}
		other = []string{"p", "pid", "P", "pgid", "u", "uid"}
	case "taskset":
		spec = optSpec{shortFlag: "acphV", longFlag: []string{"all-tasks", "cpu-list", "pid", "help", "version"}, operands: 1, abbrev: true}
		other = []string{"p", "pid"}
	case "chrt":
		spec = optSpec{shortVal: "TPD", shortFlag: "abdefimoprRvhV", longVal: []string{"sched-runtime", "sched-period", "sched-deadline"},
			longFlag: []string{"all-tasks", "batch", "deadline", "ext", "fifo", "idle", "max", "other", "pid", "rr", "reset-on-fork", "verbose", "help", "version"},
			operands: 1, abbrev: true}
		other = []string{"p", "pid", "m", "max"}
	}
	i, opts, bad := scanOpts(args, &spec)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
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
	i, opts, bad := scanOpts(args, &envOpts)
	if bad != "" {
		r.unreadable = bad
		return r
	}
	optFiles("env", &envOpts, opts, &r)
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

// sudoOpts are sudo's options (getopt_long, so abbreviations resolve).
var sudoOpts = optSpec{shortVal: "aCcDgpRrTtUu", shortOpt: "h", shortFlag: "ABbEeHiKklNnPSsVv",
	longVal: []string{"user", "group", "close-from", "chdir", "prompt", "role", "type", "command-timeout", "other-user", "host",
		"chroot", "auth-type", "login-class"},
	longOpt: []string{"preserve-env"},
	longFlag: []string{"askpass", "background", "bell", "edit", "set-home", "help", "login", "remove-timestamp", "reset-timestamp",
		"list", "non-interactive", "preserve-groups", "stdin", "shell", "version", "validate"},
	abbrev: true,
	files:  map[string]fileRole{"D": roleChdir, "chdir": roleChdir, "R": roleChdir, "chroot": roleChdir}}

// sudoWrap unwraps sudo; -e edits files and -s/-i start a shell.
func sudoWrap(args []string) wrapResult {
	var r wrapResult
	i, opts, bad := scanOpts(args, &sudoOpts)
	if bad != "" {
		r.unreadable = bad
		return r
	}
	optFiles("sudo", &sudoOpts, opts, &r)
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
	i, opts, bad := scanOpts(args, &optSpec{shortVal: "aCu", shortFlag: "Lns"})
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	if _, ok := has(opts, "s"); ok {
		return wrapResult{shell: true}
	}
	if i >= len(args) {
		return wrapResult{}
	}
	return wrapResult{cmd: args[i:]}
}

// xargsOpts are xargs's options (findutils).
var xargsOpts = optSpec{shortVal: "adEILnPs", shortOpt: "eil", shortFlag: "0oprtx",
	longVal:  []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
	longOpt:  []string{"eof", "replace", "max-lines"},
	longFlag: []string{"null", "open-tty", "interactive", "no-run-if-empty", "show-limits", "verbose", "exit", "help", "version"},
	abbrev:   true, files: map[string]fileRole{"a": roleRead, "arg-file": roleRead}}

// xargsWrap unwraps xargs, which runs echo when given no command.
func xargsWrap(args []string) wrapResult {
	i, opts, bad := scanOpts(args, &xargsOpts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	var r wrapResult
	optFiles("xargs", &xargsOpts, opts, &r)
	r.cmd = []string{"echo"}
	if i < len(args) {
		r.cmd = args[i:]
	}
	return r
}

// watchWrap unwraps watch, which passes its words to sh -c unless -x.
func watchWrap(args []string) wrapResult {
	i, opts, bad := scanOpts(args, &optSpec{shortVal: "nqs", shortOpt: "d", shortFlag: "gebcCtwxprhv",
		longVal: []string{"interval", "equexit", "shotsdir"}, longOpt: []string{"differences"},
		longFlag: []string{"chgexit", "errexit", "beep", "color", "no-color", "no-title", "no-wrap", "exec", "precise", "no-rerun", "help", "version"},
		abbrev:   true})
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
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
var flockOpts = optSpec{shortVal: "wEc", shortFlag: "sxenouFhV",
	longVal:  []string{"timeout", "wait", "conflict-exit-code", "command"},
	longFlag: []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose", "help", "version"},
	operands: 1, abbrev: true}

// flockWrap unwraps flock FILE CMD; -c passes a command line to sh -c,
// before or after the lock file. The lock file is created.
func flockWrap(args []string) wrapResult {
	i, opts, bad := scanOpts(args, &flockOpts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	var lock []fileArg
	if k := i - 1; k >= 1 && k < len(args) {
		lock = []fileArg{{word: args[k], role: roleWrite, what: "flock lock file"}}
	}
	if body, ok := has(opts, "c", "command"); ok {
		return wrapResult{shellBody: &body, files: lock}
	}
	// Options may also follow the lock file: flock FILE -c CMD.
	if i < len(args) && strings.HasPrefix(args[i], "-") {
		after := flockOpts
		after.operands = 0
		j, more, bad := scanOpts(append([]string{"flock"}, args[i:]...), &after)
		if bad != "" {
			return wrapResult{unreadable: bad}
		}
		if body, ok := has(more, "c", "command"); ok {
			return wrapResult{shellBody: &body, files: lock}
		}
		i += j - 1
	}
	if i >= len(args) {
		return wrapResult{files: lock}
	}
	return wrapResult{cmd: args[i:], files: lock}
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

// scriptOpts are util-linux script's options; its operand and the log
// options name files it writes.
var scriptOpts = optSpec{shortVal: "cEBIOTmo", shortOpt: "t", shortFlag: "aefqhV",
	longVal:  []string{"command", "echo", "log-io", "log-in", "log-out", "log-timing", "logging-format", "output-limit"},
	longOpt:  []string{"timing"},
	longFlag: []string{"append", "return", "flush", "force", "quiet", "help", "version"},
	abbrev:   true,
	files: map[string]fileRole{"B": roleWrite, "log-io": roleWrite, "I": roleWrite, "log-in": roleWrite, "O": roleWrite,
		"log-out": roleWrite, "T": roleWrite, "log-timing": roleWrite, "t": roleWrite, "timing": roleWrite}}

// scriptWrap unwraps script -c COMMAND; without -c it starts a shell.
func scriptWrap(args []string) wrapResult {
	i, opts, bad := scanOpts(args, &scriptOpts)
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	var r wrapResult
	optFiles("script", &scriptOpts, opts, &r)
	if i < len(args) {
		r.files = append(r.files, fileArg{word: args[i], role: roleWrite, what: "script typescript"})
	} else {
		r.files = append(r.files, fileArg{word: "typescript", role: roleWrite, what: "script typescript"})
	}
	if body, ok := has(opts, "c", "command"); ok {
		r.shellBody = &body
		return r
	}
	r.shell = true
	return r
}

// parallelWrap unwraps GNU parallel: the words before ":::" are a command
// line it runs through a shell.
func parallelWrap(args []string) wrapResult {
	i, _, bad := scanOpts(args, &optSpec{shortVal: "jSaIdEnNPL", longVal: []string{"jobs", "sshlogin", "arg-file", "delimiter", "max-args", "joblog", "results"}})
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
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

// entrWrap unwraps entr, which runs its command through $SHELL with -s.
func entrWrap(args []string) wrapResult {
	i, opts, bad := scanOpts(args, &optSpec{shortFlag: "acdnprsz"})
	if bad != "" {
		return wrapResult{unreadable: bad}
	}
	if i >= len(args) {
		return wrapResult{}
	}
	if _, ok := has(opts, "s"); ok {
		body := strings.Join(args[i:], " ")
		return wrapResult{shellBody: &body}
	}
	return wrapResult{cmd: args[i:]}
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
// -okdir (up to ";" or "+"), so deny rules see them.
func (a *analysis) findExec(args []string, depth int) {
	a.execOptions(args, depth, func(w string) bool {
		return w == "-exec" || w == "-execdir" || w == "-ok" || w == "-okdir"
	}, func(w string) bool { return w == ";" || w == "+" })
}

// fdExec unwraps the command fd runs with -x/--exec or -X/--exec-batch:
// the rest of the words, or up to ";".
func (a *analysis) fdExec(args []string, depth int) {
	a.execOptions(args, depth, func(w string) bool {
		return w == "-x" || w == "--exec" || w == "-X" || w == "--exec-batch"
	}, func(w string) bool { return w == ";" })
}

// execOptions unwraps each command an option isExec introduces, up to a
// word isEnd accepts. A word known only at run time may be such an
// option: every word from it on may start a command.
func (a *analysis) execOptions(args []string, depth int, isExec, isEnd func(string) bool) {
	starts := false
	for i := 1; i < len(args); i++ {
		if isUnknown(args[i]) && !starts {
			a.possibleStarts(args[i:])
			starts = true
			continue
		}
		if !isExec(args[i]) {
			continue
		}
		j := i + 1
		for j < len(args) && !isEnd(args[j]) {
			j++
		}
		if j > i+1 {
			a.unwrap(args[i+1:j], depth+1, false)
		}
		i = j
	}
}
