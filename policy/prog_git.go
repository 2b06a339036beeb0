package policy

import (
	"strconv"
	"strings"
)

// git: its global options come before the subcommand (git -C dir push);
// the repository's own configuration can make it run programs
// (core.fsmonitor, core.pager, diff drivers), so it is not read-only and a
// cd before it asks.

func registerGit() {
	register(&program{names: []string{"git"}, guard: gitGuard, files: gitFiles, repoConfig: true, looseWords: true, verb: 2,
		aliases: sameFlags([]string{"-f", "--force"}),
		global: &optSpec{shortVal: "cC", shortFlag: "pPvh",
			longVal: []string{"git-dir", "work-tree", "namespace", "super-prefix", "config-env", "attr-source", "shallow-file", "list-cmds"},
			longFlag: []string{"exec-path", "paginate", "no-pager", "bare", "no-replace-objects", "literal-pathspecs", "no-literal-pathspecs",
				"glob-pathspecs", "noglob-pathspecs", "icase-pathspecs", "no-optional-locks", "no-advice", "no-lazy-fetch", "html-path",
				"man-path", "info-path", "version", "help", "no-replace-objects-here"}}})
}

// gitGuard refuses git's global options that load other configuration or
// run a pager, the ext:: transport, and the subcommands and subcommand
// options that run programs.
func gitGuard(p *program, _ string, args []word) string {
	i, r := gitGlobalDanger(p.global, args)
	if r != "" {
		return r
	}
	for _, a := range args {
		// A word known only at run time written with ext:: holds it too.
		if strings.Contains(strings.ToLower(a.show()), "ext::") {
			return "git ext:: transport runs a command"
		}
	}
	if i >= len(args) {
		return ""
	}
	sub, ok := args[i].known()
	if !ok {
		return "" // a subcommand known only at run time: runtimeArgGuard stops it
	}
	return gitSubcommandDanger(sub, args[i+1:])
}

// gitGlobalDanger reads the options before git's subcommand. It returns
// the index of the subcommand, or why an option is refused.
func gitGlobalDanger(global *optSpec, args []word) (int, string) {
	i := 0
	for i < len(args) && args[i].hasPrefix("-") {
		x, _ := args[i].known() // known: it starts with "-"
		name, _, hasVal := strings.Cut(x, "=")
		switch {
		case strings.HasPrefix(x, "-c") || name == "--config-env":
			return i, "git -c sets configuration that can run programs (core.pager, core.fsmonitor…)"
		case name == "-p" || name == "--paginate":
			return i, "git " + name + " runs the pager"
		case strings.HasPrefix(x, "-C") && gitDirKnown(args, i):
			// git's directory, judged where it leads (gitDirs)
		case strings.HasPrefix(x, "-C") || name == "--git-dir" || name == "--work-tree":
			return i, "git " + name + " reads another repository's configuration"
		case name == "--exec-path" && hasVal:
			return i, "git --exec-path= chooses the programs git runs"
		}
		takesValue, known := global.exact(name)
		if !known && !(len(x) > 2 && x[1] != '-') {
			return i, "git option " + x + " is not one chainrun knows, so git's subcommand cannot be found"
		}
		if takesValue && !hasVal {
			i++ // --namespace NS and the like: skip the value
		}
		i++
	}
	return i, ""
}

// gitDirKnown reports that the -C at args[i] has a value known now
// (-C DIR or -CDIR): the path step judges where it leads.
func gitDirKnown(args []word, i int) bool {
	if x, _ := args[i].known(); len(x) > 2 {
		return true
	}
	return i+1 < len(args) && !args[i+1].isUnknown()
}

// gitDirs are the directories git -C moves to, in order, each relative to
// the one before (git -C a -C b runs in a/b); unknown is set when one is
// known only at run time.
func gitDirs(args []word) (dirs []string, unknown bool) {
	for i := 1; i < len(args) && args[i].hasPrefix("-"); i++ {
		x, _ := args[i].known()
		if x == "--" {
			break
		}
		if !strings.HasPrefix(x, "-C") {
			if takes, _ := lookupWord(args[0]).global.exact(strings.SplitN(x, "=", 2)[0]); takes && !strings.Contains(x, "=") {
				i++
			}
			continue
		}
		v := strings.TrimPrefix(x, "-C")
		if v == "" {
			if i+1 >= len(args) || args[i+1].isUnknown() {
				return dirs, true
			}
			i++
			v, _ = args[i].known()
		}
		if v != "" {
			dirs = append(dirs, v)
		}
	}
	return dirs, false
}

// gitSubcommandDanger judges a git subcommand and its arguments.
func gitSubcommandDanger(sub string, rest []word) string {
	if r := gitDangerSub(sub); r != "" {
		return r
	}
	switch sub {
	case "config":
		if !gitConfigRead(rest) {
			return "git config can set options that run programs (core.fsmonitor, alias.*)"
		}
	case "submodule":
		if hasWord(rest, "foreach") {
			return "git submodule foreach runs a command"
		}
	case "bisect":
		if len(rest) > 0 && rest[0].is("run") {
			return "git bisect run runs a command"
		}
	}
	for a := range wordsBeforeEnd(rest) {
		if strings.HasPrefix(a, "--") {
			if r := gitLongDanger(sub, a[2:]); r != "" {
				return r
			}
			continue
		}
		if len(a) >= 2 && a[0] == '-' {
			if r := gitShortDanger(sub, a); r != "" {
				return r
			}
		}
	}
	return ""
}

// gitDangerSub says why a subcommand runs programs, serves repositories or
// sends mail whatever its arguments, or "".
func gitDangerSub(sub string) string {
	switch sub {
	case "filter-branch":
		return "git filter-branch runs commands"
	case "difftool":
		return "git difftool runs a diff program"
	case "mergetool":
		return "git mergetool runs a merge program"
	case "daemon":
		return "git daemon serves repositories"
	case "instaweb":
		return "git instaweb runs a web server"
	case "web--browse":
		return "git web--browse runs a browser"
	case "credential":
		return "git credential runs credential helpers"
	case "shell":
		return "git shell runs commands"
	case "upload-pack":
		return "git upload-pack is a server program"
	case "receive-pack":
		return "git receive-pack is a server program"
	case "cvsimport":
		return "git cvsimport runs cvs"
	case "archimport":
		return "git archimport runs arch"
	case "svn":
		return "git svn runs svn"
	case "send-email":
		return "git send-email sends mail"
	}
	return ""
}

// gitDangerLong are git options, after the subcommand, that run programs
// or write files; git accepts unambiguous abbreviations of them. The
// order decides which reason an ambiguous abbreviation gets.
var gitDangerLong = [...]struct{ name, why string }{
	{"upload-pack", "--upload-pack runs a program"},
	{"receive-pack", "--receive-pack runs a program"},
	{"exec", "--exec runs a program"},
	{"ext-diff", "--ext-diff runs the external diff program"},
	{"textconv", "--textconv runs text conversion filters"},
	{"output", "--output writes a file"},
	{"open-files-in-pager", "--open-files-in-pager runs a pager"},
	{"template", "--template installs hooks"},
	{"config", "--config sets configuration that can run programs"},
	{"web", "--web runs a browser"},
	{"interactive", "--interactive runs an editor"},
	{"output-directory", "--output-directory writes files"},
	{"filters", "--filters runs the repository's clean and smudge filters"},
}

// gitLongDanger judges the long option --opt (opt without its dashes) of
// subcommand sub. --text is a real option that abbreviates --textconv.
func gitLongDanger(sub, opt string) string {
	name, _, _ := strings.Cut(opt, "=")
	if name == "text" || name == "" {
		return ""
	}
	for _, d := range gitDangerLong {
		if (d.name == "template" || d.name == "config") && sub != "clone" && sub != "init" && sub != "submodule" {
			continue
		}
		if strings.HasPrefix(d.name, name) && (d.name == name || len(name) >= 3) {
			return "git " + sub + " " + d.why
		}
	}
	return ""
}

// gitShortDanger judges the short option cluster a of subcommand sub.
func gitShortDanger(sub, a string) string {
	switch {
	case sub == "grep" && strings.ContainsRune(a[1:], 'O'):
		return "git grep -O runs a pager"
	case sub == "rebase" && strings.ContainsAny(a[1:], "xi"):
		return "git rebase " + a + " runs commands or an editor"
	case sub == "clone" && strings.ContainsAny(a[1:], "uc"):
		return "git clone " + a + " runs a program or sets configuration"
	case (sub == "format-patch" || sub == "diff") && a == "-o":
		return "git " + sub + " -o writes files"
	case sub == "help" && (a == "-w" || a == "-i" || a == "-m"):
		return "git help " + a + " runs a viewer"
	}
	return ""
}

// gitConfigRead reports a git config call that only reads.
func gitConfigRead(rest []word) bool {
	read, operands := false, 0
	for i := 0; i < len(rest); i++ {
		a, ok := rest[i].known()
		if !ok {
			return false // an operand known only at run time may be a value set
		}
		if !strings.HasPrefix(a, "-") {
			operands++
		}
		switch a {
		case "-f", "--file", "--blob", "--type", "--default", "--comment":
			i++ // the option's value
		case "--":
			return read
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "get", "list", "--get-color", "--get-colorbool":
			read = true
		case "--add", "--replace-all", "--unset", "--unset-all", "set", "unset", "--rename-section",
			"--remove-section", "-e", "--edit", "edit", "rename-section", "remove-section":
			return false
		}
	}
	// git config NAME (one operand, no value) gets NAME.
	return read || operands == 1
}

// gitFiles: git diff --no-index reads its operands; checkout, restore, rm,
// mv and apply change the working tree (gitWorktree); --shallow-file and
// other path-like words are touched.
func gitFiles(p *program, args []word) []fileArg {
	files := append(pathLikeFiles(args), gitWorktree(p, args)...)
	noIndex := false
	for _, a := range args {
		if a.is("--no-index") {
			noIndex = true
		}
	}
	for i, a := range args {
		if a.is("--shallow-file") && i+1 < len(args) {
			files = append(files, fileArg{word: args[i+1], role: roleRead, what: "git --shallow-file"})
		}
	}
	if !noIndex {
		return files
	}
	seenDiff := false
	for _, a := range args[1:] {
		if a.is("diff") {
			seenDiff = true
			continue
		}
		if seenDiff && !a.hasPrefix("-") {
			files = append(files, fileArg{word: a, role: roleRead, what: "git diff --no-index"})
		}
	}
	return files
}

// gitPathspecs are the options of the subcommands that change the working
// tree, as far as their operands need: which take a value.
// A list the linker lays out, not a map built at start.
var gitPathspecs = [...]struct {
	sub  string
	opts optSpec
}{
	{"checkout", optSpec{shortVal: "bB", longVal: []string{"orphan", "conflict", "pathspec-from-file"}}},
	{"restore", optSpec{shortVal: "s", longVal: []string{"source", "conflict", "pathspec-from-file"}}},
	{"rm", optSpec{longVal: []string{"pathspec-from-file"}}},
	{"mv", optSpec{}},
	{"apply", optSpec{shortVal: "pC", longVal: []string{"directory", "exclude", "include", "whitespace", "build-fake-ancestor"}}},
}

// gitPathspec is the option spec of git subcommand sub, when it changes
// the working tree.
func gitPathspec(sub string) *optSpec {
	for i := range gitPathspecs {
		if gitPathspecs[i].sub == sub {
			return &gitPathspecs[i].opts
		}
	}
	return nil
}

// gitWorktree are the files a git subcommand writes in the working tree:
// the paths git checkout (after "--", or after its first operand) and
// git restore put back, which git rm removes and git mv moves; a pathspec
// naming a directory reaches every file below it. git apply changes the
// files its patch names: a list.
func gitWorktree(p *program, args []word) []fileArg {
	layer := p.skipGlobal(args)
	if layer == nil {
		layer = args
	}
	if len(layer) < 2 {
		return nil
	}
	sub, ok := layer[1].known()
	spec := gitPathspec(sub)
	if !ok || spec == nil {
		return nil
	}
	operands, opts := walkFlags(layer[2:], spec)
	has := func(flags ...string) bool { _, ok := findFlag(opts, flags...); return ok }
	role, what := roleWrite, "git "+sub+" path"
	switch sub {
	case "checkout":
		operands = checkoutPaths(layer[2:], operands)
	case "restore":
		if has("-S", "--staged") && !has("-W", "--worktree") {
			return nil // the index only
		}
	case "rm":
		if has("--cached") {
			return nil
		}
		role = roleRemove
	case "apply":
		if has("--cached") || (has("--check", "--stat", "--numstat", "--summary") && !has("--apply")) {
			return nil
		}
		if len(operands) == 0 {
			operands = []word{lit("-")}
		}
		role, strip := roleDiff, 1
		if v, ok := findFlag(opts, "-p"); ok {
			if n, err := strconv.Atoi(knownOr(v, "")); err == nil && n >= 0 {
				strip = n
			}
		}
		if has("--directory", "--unsafe-paths") {
			role = roleList
		}
		files := make([]fileArg, 0, len(operands))
		for _, o := range operands {
			files = append(files, fileArg{word: o, role: role, what: "git apply", strip: strip})
		}
		return files
	}
	files := make([]fileArg, 0, len(operands))
	for _, o := range operands {
		files = append(files, fileArg{word: o, role: role, what: what, tree: treeBelow})
	}
	return files
}

// checkoutPaths are the pathspecs of git checkout: the operands after
// "--", or every operand after the first (git checkout REV PATH…). A lone
// operand is read as the branch it usually is.
func checkoutPaths(rest, operands []word) []word {
	for i, a := range rest {
		if a.is("--") {
			return rest[i+1:]
		}
	}
	if len(operands) > 1 {
		return operands[1:]
	}
	return nil
}
