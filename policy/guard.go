package policy

import (
	"strings"
	"sync"
)

// The dangerous-flag guard: a prefix or glob allow rule such as "sed:*" or
// "git log:*" covers reading, not the flags that make a reader write files
// or run programs. guard returns why such a flag is present, or "".
func guard(args []string) string {
	if len(args) == 0 {
		return ""
	}
	g := guards()[canonicalName(args[0])]
	if g == nil {
		return ""
	}
	return g(args[1:])
}

// flagSpec describes a program's options well enough to walk them.
type flagSpec struct {
	shortVal string   // short options that take a value (attached or next word)
	longVal  []string // long options that take a value ("--x=v" or "--x v")
	known    []string // other long options, so abbreviations resolve
	// danger maps "-x" and "--name" to the reason they are refused.
	danger map[string]string
	// abbrev is set for programs that accept unambiguous abbreviations of
	// long options (GNU getopt, git); a word that abbreviates a dangerous
	// option is then treated as that option.
	abbrev bool
	// check inspects an option and its value ("-o" "ProxyCommand=x").
	check func(flag, val string) string
}

// scanFlags walks args GNU-style (options may follow operands) and stops
// reading options at "--". It returns the operands and the first reason a
// dangerous option gave.
func scanFlags(args []string, spec *flagSpec) (operands []string, reason string) {
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(x, "--") {
			name, val, hasVal := strings.Cut(x[2:], "=")
			full := spec.resolveLong(name)
			if r, ok := spec.danger["--"+full]; ok && reason == "" {
				reason = r + " (" + x + ")"
			}
			if !hasVal && contains(spec.longVal, full) && i+1 < len(args) {
				i++
				val = args[i]
			}
			if spec.check != nil && reason == "" {
				reason = spec.check("--"+full, val)
			}
			continue
		}
		if len(x) < 2 || x[0] != '-' {
			operands = append(operands, x)
			continue
		}
		for j := 1; j < len(x); j++ {
			f := "-" + string(x[j])
			if r, ok := spec.danger[f]; ok && reason == "" {
				reason = r + " (" + x + ")"
			}
			if strings.IndexByte(spec.shortVal, x[j]) >= 0 {
				val := x[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				if spec.check != nil && reason == "" {
					reason = spec.check(f, val)
				}
				break
			}
		}
	}
	return operands, reason
}

// resolveLong expands an abbreviated long option. An exact known name wins;
// a word that abbreviates a dangerous option becomes that option.
func (s *flagSpec) resolveLong(name string) string {
	if _, ok := s.danger["--"+name]; ok || contains(s.longVal, name) || contains(s.known, name) {
		return name
	}
	if !s.abbrev || name == "" {
		return name
	}
	for d := range s.danger {
		if strings.HasPrefix(d, "--") && strings.HasPrefix(d[2:], name) {
			return d[2:]
		}
	}
	match := ""
	for _, l := range [][]string{s.longVal, s.known} {
		for _, k := range l {
			if strings.HasPrefix(k, name) {
				if match != "" {
					return name
				}
				match = k
			}
		}
	}
	if match != "" {
		return match
	}
	return name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func flagGuard(spec *flagSpec) func([]string) string {
	return func(args []string) string {
		_, r := scanFlags(args, spec)
		return r
	}
}

func always(reason string) func([]string) string {
	return func([]string) string { return reason }
}

// guards maps a command to its dangerous-flag guard. It is built on first
// use, through a function rather than a variable's initialiser because
// the guards reach back into the normalisation that calls guards.
var (
	guardsOnce sync.Once
	guardTable map[string]func([]string) string
)

func guards() map[string]func([]string) string {
	guardsOnce.Do(buildGuards)
	return guardTable
}

func buildGuards() {
	guardTable = map[string]func([]string) string{
		"find": findGuard,
		"sed":  sedGuard,
		"gsed": sedGuard,
		"rg":   flagGuard(rgSpec()),
		"awk":  awkGuard,
		"gawk": awkGuard,
		"mawk": awkGuard,
		"nawk": awkGuard,
		"git":  gitGuard,
		"sort": flagGuard(sortSpec()),
		"tar":  tarGuard,
		"base64": flagGuard(&flagSpec{shortVal: "bwio", longVal: []string{"wrap", "input", "output"}, abbrev: true,
			danger: map[string]string{"-o": "base64 -o writes a file", "--output": "base64 --output writes a file"}}),
		"man": flagGuard(&flagSpec{shortVal: "CMPSLmpeRE", longVal: []string{"config-file", "manpath", "pager", "sections", "locale", "systems", "preprocessor", "extension", "encoding"},
			known: []string{"html", "help", "path", "where"}, abbrev: true,
			danger: map[string]string{"-P": "man -P runs a pager program", "--pager": "man --pager runs a pager program",
				"-H": "man -H runs a browser", "--html": "man --html runs a browser"}}),
		"ssh":    flagGuard(sshSpec("ssh")),
		"scp":    flagGuard(sshSpec("scp")),
		"sftp":   flagGuard(sshSpec("sftp")),
		"rsync":  flagGuard(rsyncSpec()),
		"zip":    zipGuard,
		"go":     goGuard,
		"npm":    npmGuard,
		"npx":    always("npx runs a package from the registry"),
		"bunx":   always("bunx runs a package from the registry"),
		"pnpx":   always("pnpx runs a package from the registry"),
		"pnpm":   subGuard(map[string]string{"dlx": "pnpm dlx runs a package from the registry", "create": "pnpm create runs a package from the registry", "exec": "pnpm exec runs a program"}),
		"yarn":   subGuard(map[string]string{"dlx": "yarn dlx runs a package from the registry", "create": "yarn create runs a package from the registry", "exec": "yarn exec runs a program"}),
		"bun":    subGuard(map[string]string{"x": "bun x runs a package from the registry", "create": "bun create runs a package from the registry"}),
		"xargs":  always("xargs runs a command built from its input"),
		"fd":     fdGuard,
		"fdfind": fdGuard,
		"env":    envGuard,
		"tree": flagGuard(&flagSpec{shortVal: "LPIoHT", danger: map[string]string{"-o": "tree -o writes a file"},
			longVal: []string{"filelimit", "timefmt", "sort", "charset"}}),
		"uniq": uniqGuard,
		"date": flagGuard(&flagSpec{shortVal: "dfrs", longVal: []string{"date", "file", "reference", "set"}, abbrev: true,
			danger: map[string]string{"-s": "date -s sets the clock", "--set": "date --set sets the clock"}}),
		"curl":      flagGuard(curlSpec()),
		"wget":      flagGuard(wgetSpec()),
		"yq":        flagGuard(&flagSpec{danger: map[string]string{"-i": "yq -i edits files in place", "--inplace": "yq --inplace edits files in place"}}),
		"gofmt":     flagGuard(&flagSpec{danger: map[string]string{"-w": "gofmt -w rewrites files"}}),
		"goimports": flagGuard(&flagSpec{danger: map[string]string{"-w": "goimports -w rewrites files"}}),
		"prettier":  flagGuard(&flagSpec{danger: map[string]string{"-w": "prettier -w rewrites files", "--write": "prettier --write rewrites files"}}),
		"eslint":    flagGuard(&flagSpec{danger: map[string]string{"--fix": "eslint --fix rewrites files"}}),
		"ruff":      ruffGuard,
		"cargo": flagGuard(&flagSpec{shortVal: "CZ", longVal: []string{"config", "color", "manifest-path"},
			danger: map[string]string{"--config": "cargo --config can set a runner program"}}),
	}
}

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

func sedGuard(args []string) string {
	spec := &flagSpec{shortVal: "efl", longVal: []string{"expression", "file", "line-length"},
		known:  []string{"quiet", "silent", "debug", "posix", "regexp-extended", "separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "follow-symlinks", "help", "version"},
		abbrev: true,
		danger: map[string]string{"-i": "sed -i edits files in place", "--in-place": "sed --in-place edits files in place",
			"-f": "sed -f reads a script that cannot be checked", "--file": "sed --file reads a script that cannot be checked"}}
	var scripts []string
	spec.check = func(flag, val string) string {
		if flag == "-e" || flag == "--expression" {
			scripts = append(scripts, val)
		}
		return ""
	}
	operands, r := scanFlags(args, spec)
	if r != "" {
		return r
	}
	if len(scripts) == 0 && len(operands) > 0 {
		scripts = operands[:1]
	}
	for _, s := range scripts {
		if r := sedScriptDanger(s); r != "" {
			return r
		}
	}
	return ""
}

// sedScriptDanger reads a sed script far enough to find the commands and
// s/// flags that run programs (e) or write files (w, W). What it cannot
// read is reported too.
func sedScriptDanger(s string) string {
	i := 0
	n := len(s)
	skipTo := func(stop string) {
		for i < n && strings.IndexByte(stop, s[i]) < 0 {
			i++
		}
	}
	// delimited reads up to the next unescaped delimiter d.
	delimited := func(d byte) bool {
		for i < n {
			c := s[i]
			if c == '\\' {
				i += 2
				continue
			}
			if c == '\n' && d != '\n' {
				return false
			}
			i++
			if c == d {
				return true
			}
		}
		return false
	}
	addr := func() bool {
		if i >= n {
			return true
		}
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case c == '$':
			i++
		case c == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case c == '\\':
			if i+1 >= n {
				return false
			}
			d := s[i+1]
			i += 2
			if !delimited(d) {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	const unreadable = "sed script cannot be checked"
	for i < n {
		for i < n && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= n {
			break
		}
		if !addr() {
			return unreadable
		}
		if i < n && s[i] == ',' {
			i++
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
			}
			if !addr() {
				return unreadable
			}
		}
		for i < n && (s[i] == ' ' || s[i] == '!') {
			i++
		}
		if i >= n {
			return unreadable
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', '=', 'F':
		case '#', ':', 'a', 'i', 'c', 'r', 'R':
			skipTo("\n")
		case 'b', 't', 'T', 'v':
			skipTo(";\n}")
		case 'q', 'Q', 'l', 'L':
			for i < n && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case 'e':
			return "sed e command runs a program"
		case 'w', 'W':
			return "sed " + string(c) + " command writes a file"
		case 's', 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return unreadable
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return unreadable
			}
			if c == 'y' {
				continue
			}
			for i < n && strings.IndexByte(";\n}", s[i]) < 0 {
				f := s[i]
				switch {
				case f == 'e':
					return "sed s///e runs the pattern space as a command"
				case f == 'w':
					return "sed s///w writes a file"
				case f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f == ' ' || f >= '0' && f <= '9':
					i++
				default:
					return unreadable
				}
			}
		default:
			return unreadable
		}
	}
	return ""
}

var rgSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{
		shortVal: "ABCEMTdefgjmrt",
		longVal: []string{"after-context", "before-context", "context", "encoding", "max-columns", "type-not",
			"max-depth", "regexp", "file", "glob", "iglob", "threads", "max-count", "replace", "type", "type-add",
			"type-clear", "pre-glob", "path-separator", "colors", "color", "sort", "sortr", "max-filesize",
			"context-separator", "field-context-separator", "field-match-separator", "ignore-file", "dfa-size-limit",
			"regex-size-limit", "engine", "generate", "hyperlink-format"},
		known: []string{"pretty", "json", "hidden", "no-ignore", "files", "count", "vimgrep", "line-number",
			"ignore-case", "smart-case", "fixed-strings", "word-regexp", "invert-match", "multiline", "stats",
			"heading", "no-heading", "null", "only-matching", "passthru", "quiet", "trim", "unrestricted", "text",
			"search-zip", "pcre2", "follow", "no-config"},
		danger: map[string]string{
			"--pre":          "rg --pre runs a preprocessor program",
			"--hostname-bin": "rg --hostname-bin runs a program",
			"-z":             "rg -z runs decompression programs",
			"--search-zip":   "rg --search-zip runs decompression programs",
		},
	}
})

func awkGuard(args []string) string {
	spec := &flagSpec{shortVal: "FfveilW", longVal: []string{"field-separator", "assign", "source", "file", "include", "load", "exec"},
		abbrev: true,
		danger: map[string]string{
			"-f": "awk -f reads a program that cannot be checked", "--file": "awk --file reads a program that cannot be checked",
			"-i": "awk -i includes a library", "--include": "awk --include includes a library",
			"-l": "awk -l loads an extension", "--load": "awk --load loads an extension",
			"-E": "awk -E reads a program that cannot be checked", "--exec": "awk --exec reads a program that cannot be checked",
			"-W": "awk -W options can read a program from a file (mawk -W exec)",
		}}
	var progs []string
	spec.check = func(flag, val string) string {
		if flag == "-e" || flag == "--source" {
			progs = append(progs, val)
		}
		return ""
	}
	operands, r := scanFlags(args, spec)
	if r != "" {
		return r
	}
	if len(progs) == 0 && len(operands) > 0 {
		progs = operands[:1]
	}
	for _, p := range progs {
		if r := awkProgramDanger(p); r != "" {
			return r
		}
	}
	return ""
}

// awkProgramDanger finds system(), pipes to or from commands, and print or
// printf output redirected to a file, outside string literals.
func awkProgramDanger(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '"' {
			b.WriteString(`""`)
			for i++; i < len(p) && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
			continue
		}
		b.WriteByte(c)
	}
	code := b.String()
	if idx := strings.Index(code, "system"); idx >= 0 {
		rest := strings.TrimLeft(code[idx+len("system"):], " \t")
		if strings.HasPrefix(rest, "(") {
			return "awk system() runs a command"
		}
	}
	if strings.Contains(code, "@load") || strings.Contains(code, "@include") {
		return "awk @load/@include brings in outside code"
	}
	if strings.Contains(strings.ReplaceAll(code, "||", ""), "|") {
		return "awk pipes to or from a command"
	}
	for _, kw := range []string{"printf", "print"} {
		for off := 0; ; {
			j := strings.Index(code[off:], kw)
			if j < 0 {
				break
			}
			j += off
			off = j + len(kw)
			if j > 0 && isWordByte(code[j-1]) || off < len(code) && isWordByte(code[off]) {
				continue
			}
			depth := 0
			for k := off; k < len(code); k++ {
				c := code[k]
				if c == '(' {
					depth++
				} else if c == ')' {
					depth--
				} else if depth <= 0 && (c == ';' || c == '}' || c == '\n') {
					break
				} else if depth <= 0 && c == '>' {
					return "awk print > file writes a file"
				}
			}
		}
	}
	return ""
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// gitDangerLong are git options, after the subcommand, that run programs
// or write files; git accepts unambiguous abbreviations of them.
var gitDangerLong = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"upload-pack":         "--upload-pack runs a program",
		"receive-pack":        "--receive-pack runs a program",
		"exec":                "--exec runs a program",
		"ext-diff":            "--ext-diff runs the external diff program",
		"textconv":            "--textconv runs text conversion filters",
		"output":              "--output writes a file",
		"open-files-in-pager": "--open-files-in-pager runs a pager",
		"template":            "--template installs hooks",
		"config":              "--config sets configuration that can run programs",
		"web":                 "--web runs a browser",
		"interactive":         "--interactive runs an editor",
		"output-directory":    "--output-directory writes files",
		"filters":             "--filters runs the repository's clean and smudge filters",
	}
})

// gitSafeLong are real git options that abbreviate a dangerous one.
var gitSafeLong = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"text": true}
})

var gitDangerSub = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"filter-branch": "git filter-branch runs commands", "difftool": "git difftool runs a diff program",
		"mergetool": "git mergetool runs a merge program", "daemon": "git daemon serves repositories",
		"instaweb": "git instaweb runs a web server", "web--browse": "git web--browse runs a browser",
		"credential": "git credential runs credential helpers", "shell": "git shell runs commands",
		"upload-pack": "git upload-pack is a server program", "receive-pack": "git receive-pack is a server program",
		"cvsimport": "git cvsimport runs cvs", "archimport": "git archimport runs arch", "svn": "git svn runs svn",
		"send-email": "git send-email sends mail",
	}
})

// gitGuard refuses git's global options that load other configuration or
// run a pager, and the subcommand options that run programs.
func gitGuard(args []string) string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		x := args[i]
		name, _, hasVal := strings.Cut(x, "=")
		switch {
		case strings.HasPrefix(x, "-c") || name == "--config-env":
			return "git -c sets configuration that can run programs (core.pager, core.fsmonitor…)"
		case name == "-p" || name == "--paginate":
			return "git " + name + " runs the pager"
		case strings.HasPrefix(x, "-C") || name == "--git-dir" || name == "--work-tree":
			return "git " + name + " reads another repository's configuration"
		case name == "--exec-path" && hasVal:
			return "git --exec-path= chooses the programs git runs"
		case (name == "--namespace" || name == "--super-prefix" || name == "--attr-source") && !hasVal:
			i++
		}
		i++
	}
	for _, a := range args {
		if strings.Contains(strings.ToLower(a), "ext::") {
			return "git ext:: transport runs a command"
		}
	}
	if i >= len(args) {
		return ""
	}
	sub, rest := args[i], args[i+1:]
	if r, ok := gitDangerSub()[sub]; ok {
		return r
	}
	switch sub {
	case "config":
		if !gitConfigRead(rest) {
			return "git config can set options that run programs (core.fsmonitor, alias.*)"
		}
	case "submodule":
		if contains(rest, "foreach") {
			return "git submodule foreach runs a command"
		}
	case "bisect":
		if len(rest) > 0 && rest[0] == "run" {
			return "git bisect run runs a command"
		}
	}
	for _, a := range rest {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a[2:], "=")
			if gitSafeLong()[name] || name == "" {
				continue
			}
			for d, r := range gitDangerLong() {
				if (d == "template" || d == "config") && sub != "clone" && sub != "init" && sub != "submodule" {
					continue
				}
				if strings.HasPrefix(d, name) && (d == name || len(name) >= 3) {
					return "git " + sub + " " + r
				}
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		switch {
		case sub == "grep" && strings.ContainsRune(a[1:], 'O'):
			return "git grep -O runs a pager"
		case sub == "rebase" && (strings.ContainsRune(a[1:], 'x') || strings.ContainsRune(a[1:], 'i')):
			return "git rebase " + a + " runs commands or an editor"
		case sub == "clone" && (strings.ContainsRune(a[1:], 'u') || strings.ContainsRune(a[1:], 'c')):
			return "git clone " + a + " runs a program or sets configuration"
		case (sub == "format-patch" || sub == "diff") && a == "-o":
			return "git " + sub + " -o writes files"
		case sub == "help" && (a == "-w" || a == "-i" || a == "-m"):
			return "git help " + a + " runs a viewer"
		}
	}
	return ""
}

// gitConfigRead reports a git config call that only reads.
func gitConfigRead(rest []string) bool {
	read := false
	for _, a := range rest {
		switch a {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "get", "list", "--get-color", "--get-colorbool":
			read = true
		case "--add", "--replace-all", "--unset", "--unset-all", "set", "unset", "--rename-section",
			"--remove-section", "-e", "--edit", "edit", "rename-section", "remove-section":
			return false
		}
	}
	return read
}

var sortSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{
		shortVal: "kotST",
		longVal:  []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "compress-program", "batch-size", "files0-from", "random-source", "sort", "parallel"},
		known:    []string{"reverse", "numeric-sort", "unique", "check", "merge", "stable", "version-sort", "human-numeric-sort", "ignore-case", "zero-terminated", "general-numeric-sort", "month-sort", "random-sort", "debug", "dictionary-order", "ignore-leading-blanks", "ignore-nonprinting"},
		abbrev:   true,
		danger: map[string]string{"-o": "sort -o writes a file", "--output": "sort --output writes a file",
			"--compress-program": "sort --compress-program runs a program"},
	}
})

func tarGuard(args []string) string {
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		// Old-style "tar xzf file": the first word is an option cluster.
		args = append([]string{"-" + args[0]}, args[1:]...)
	}
	_, r := scanFlags(args, tarSpec())
	return r
}

var tarSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{
		shortVal: "fCTXbgKLNVIFH",
		longVal: []string{"file", "directory", "files-from", "exclude-from", "blocking-factor", "listed-incremental",
			"starting-file", "tape-length", "newer", "label", "use-compress-program", "info-script",
			"new-volume-script", "format", "to-command", "checkpoint-action", "rmt-command", "rsh-command", "exclude", "transform"},
		known: []string{"extract", "list", "create", "append", "update", "gzip", "bzip2", "xz", "zstd", "verbose",
			"checkpoint", "to-stdout", "totals", "numeric-owner", "overwrite", "keep-old-files", "strip-components"},
		abbrev: true,
		danger: map[string]string{
			"--to-command":           "tar --to-command runs a program",
			"--checkpoint-action":    "tar --checkpoint-action can run a program",
			"--use-compress-program": "tar --use-compress-program runs a program",
			"-I":                     "tar -I runs a compression program",
			"-F":                     "tar -F runs a volume script",
			"--info-script":          "tar --info-script runs a program",
			"--new-volume-script":    "tar --new-volume-script runs a program",
			"--rmt-command":          "tar --rmt-command runs a program",
			"--rsh-command":          "tar --rsh-command runs a program",
		},
	}
})

func sshSpec(prog string) *flagSpec {
	s := &flagSpec{shortVal: "BbcDEeFIiJLlmOoPpQRSWw",
		danger: map[string]string{"-F": prog + " -F reads a config file that can run commands"},
		check: func(flag, val string) string {
			if flag != "-o" {
				return ""
			}
			key := strings.ToLower(strings.TrimSpace(val))
			if i := strings.IndexAny(key, "= \t"); i >= 0 {
				key = key[:i]
			}
			switch key {
			case "proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "remotecommand", "include", "proxyusefdpass", "securitykeyprovider", "pkcs11provider":
				return prog + " -o " + key + " runs a local program"
			}
			return ""
		}}
	if prog == "scp" || prog == "sftp" {
		s.shortVal = "BcDFiJlloPSsXP"
		s.danger["-S"] = prog + " -S runs a program as ssh"
	}
	return s
}

var rsyncSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{
		shortVal: "efBMT",
		longVal:  []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "temp-dir", "log-file", "password-file", "chmod", "backup-dir", "suffix"},
		known:    []string{"archive", "verbose", "recursive", "delete", "dry-run", "progress", "compress", "checksum", "stats"},
		abbrev:   true,
		danger: map[string]string{"-e": "rsync -e runs a remote shell program", "--rsh": "rsync --rsh runs a remote shell program",
			"--rsync-path": "rsync --rsync-path runs a program"},
	}
})

func zipGuard(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--unzip") || strings.HasPrefix(a, "--unzip-command") {
			return "zip --unzip-command runs a program"
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "TT") {
			return "zip -TT runs a program"
		}
	}
	return ""
}

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

func subGuard(subs map[string]string) func([]string) string {
	return func(args []string) string {
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			return subs[a]
		}
		return ""
	}
}

func envGuard(args []string) string {
	i, opts := scanOpts(append([]string{"env"}, args...), optSpec{shortVal: "uCS", longVal: longs("unset", "chdir", "split-string")})
	if _, ok := has(opts, "S", "split-string"); ok {
		return "env -S runs a command"
	}
	all := append([]string{"env"}, args...)
	for ; i < len(all); i++ {
		if !isAssignWord(all[i]) {
			return "env runs another command"
		}
	}
	return ""
}

func uniqGuard(args []string) string {
	operands, _ := scanFlags(args, &flagSpec{shortVal: "fsw", longVal: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"}})
	if len(operands) >= 2 {
		return "uniq writes its second operand " + quoteArg(operands[1])
	}
	return ""
}

var curlSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{
		shortVal: "AbCcDdEFHKmoPQrTtUuwXxYyze",
		longVal: []string{"output", "config", "dump-header", "cookie-jar", "trace", "trace-ascii", "libcurl",
			"upload-file", "data", "data-binary", "data-raw", "header", "request", "user", "user-agent", "url", "form", "cookie", "referer", "proxy", "max-time", "connect-timeout", "retry"},
		known: []string{"remote-name", "remote-name-all", "silent", "show-error", "fail", "location", "include", "head", "verbose", "insecure", "compressed"},
		danger: map[string]string{
			"-o": "curl -o writes a file", "--output": "curl --output writes a file",
			"-O": "curl -O writes a file", "--remote-name": "curl --remote-name writes a file", "--remote-name-all": "curl --remote-name-all writes files",
			"-K": "curl -K reads options from a file", "--config": "curl --config reads options from a file",
			"-D": "curl -D writes a file", "--dump-header": "curl --dump-header writes a file",
			"-c": "curl -c writes a cookie file", "--cookie-jar": "curl --cookie-jar writes a file",
			"--trace": "curl --trace writes a file", "--trace-ascii": "curl --trace-ascii writes a file",
			"--libcurl": "curl --libcurl writes a file",
			"-T":        "curl -T uploads a local file", "--upload-file": "curl --upload-file uploads a local file",
		},
	}
})

var wgetSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{
		shortVal: "OoPaeiDUTtwQ",
		longVal:  []string{"output-document", "output-file", "directory-prefix", "append-output", "execute", "input-file", "user-agent", "tries", "timeout", "wait", "quota", "post-file", "body-file"},
		danger: map[string]string{
			"-O": "wget -O writes a file", "--output-document": "wget --output-document writes a file",
			"-o": "wget -o writes a file", "--output-file": "wget --output-file writes a file",
			"-e": "wget -e runs wgetrc commands", "--execute": "wget --execute runs wgetrc commands",
			"--post-file": "wget --post-file uploads a local file", "--body-file": "wget --body-file uploads a local file",
		},
	}
})

func ruffGuard(args []string) string {
	for _, a := range args {
		if a == "format" {
			return "ruff format rewrites files"
		}
		if a == "--fix" || strings.HasPrefix(a, "--fix=") && a != "--fix=false" {
			return "ruff --fix rewrites files"
		}
	}
	return ""
}

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
