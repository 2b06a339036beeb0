package policy

import (
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Search tools: grep and its relatives, ripgrep, find and fd. They read
// the files and trees they name; find and fd also run commands on what
// they find (-exec, -x), which deny rules see unwrapped and the guard
// stops, and find can delete or write files.

// grepOpts are grep's value-taking options, made by the registration (a value with maps,
// which a package variable would build at every start).
func grepOpts() optSpec {
	return optSpec{shortVal: "efmABCdD", longVal: []string{"regexp", "file", "max-count", "after-context", "before-context",
		"context", "label", "include", "exclude", "exclude-dir", "exclude-from", "binary-files", "devices", "color", "colour"},
		abbrev: true, roles: map[string]fileRole{"-e": roleInert, "--regexp": roleInert, "-f": roleRead, "--file": roleRead, "--exclude-from": roleRead}}
}

// grepScript are the options that give grep's and rg's pattern.
var grepScript = []string{"-e", "--regexp", "-f", "--file"}

func registerSearch() {
	registerAll(
		// grep -r:* also covers -R, which follows links besides.
		&program{names: []string{"grep", "egrep", "fgrep"}, opts: grepOpts(), operands: roleRead, first: roleInert, firstGiven: grepScript, readOnly: true, tree: grepTree,
			aliases: map[string][]string{
				"-r": {"-r", "--recursive", "-R", "--dereference-recursive"}, "--recursive": {"-r", "--recursive", "-R", "--dereference-recursive"},
				"-R": {"-R", "--dereference-recursive"}, "--dereference-recursive": {"-R", "--dereference-recursive"}}},
		&program{names: []string{"zgrep"}, opts: grepOpts(), operands: roleRead, first: roleInert, firstGiven: grepScript},
		&program{names: []string{"rg"}, operands: roleRead, first: roleInert, firstGiven: grepScript, readOnly: true, guard: specGuard, tree: rgTree,
			opts: optSpec{
				shortVal: "ABCEMTdefgjmrt",
				longVal: []string{"after-context", "before-context", "context", "encoding", "max-columns", "type-not",
					"max-depth", "regexp", "file", "glob", "iglob", "threads", "max-count", "replace", "type", "type-add",
					"type-clear", "pre-glob", "path-separator", "colors", "color", "sort", "sortr", "max-filesize",
					"context-separator", "field-context-separator", "field-match-separator", "ignore-file", "dfa-size-limit",
					"regex-size-limit", "engine", "generate", "hyperlink-format"},
				longFlag: []string{"pretty", "json", "hidden", "no-ignore", "files", "count", "vimgrep", "line-number",
					"ignore-case", "smart-case", "fixed-strings", "word-regexp", "invert-match", "multiline", "stats",
					"heading", "no-heading", "null", "only-matching", "passthru", "quiet", "trim", "unrestricted", "text",
					"search-zip", "pcre2", "follow", "no-config"},
				danger: map[string]string{
					"--pre":          "rg --pre runs a preprocessor program",
					"--hostname-bin": "rg --hostname-bin runs a program",
					"-z":             "rg -z runs decompression programs",
					"--search-zip":   "rg --search-zip runs decompression programs",
				},
				roles: map[string]fileRole{"-e": roleInert, "--regexp": roleInert, "-f": roleRead, "--file": roleRead, "--ignore-file": roleRead}}},
		&program{names: []string{"find"}, readOnly: true, guard: findGuard, readOnlyUnless: findDeletes, files: findFiles,
			execs: findExec, runs: findRuns, tree: findTree},
		&program{names: []string{"fd", "fdfind"}, guard: fdGuard, execs: fdExec},
	)
}

// grepTree: grep -r reads whole trees, -R following links.
func grepTree(args []word) (dirs []word, follow string) {
	follow = treeOpt(args, "R", "--dereference-recursive")
	if follow != "" || treeOpt(args, "r", "--recursive") != "" {
		dirs = patternDirs(args, treeOpt(args, "ef", "--regexp") != "" || treeOpt(args, "", "--file") != "")
	}
	return dirs, follow
}

// rgTree: rg always reads whole trees, -L following links.
func rgTree(args []word) (dirs []word, follow string) {
	follow = treeOpt(args, "L", "--follow")
	return patternDirs(args, treeOpt(args, "ef", "--regexp") != "" || treeOpt(args, "", "--file") != ""), follow
}

// findTree: find -L and -follow follow links.
func findTree(args []word) (dirs []word, follow string) {
	for _, a := range args[1:] {
		if a.isOneOf("-L", "-follow") {
			follow = a.show()
		}
	}
	return nil, follow
}

// findExec unwraps the commands find runs with -exec, -execdir, -ok and
// -okdir (up to ";" or "+"), so deny rules see them.
func findExec(a *analysis, args []word, depth int) {
	a.execOptions(args, depth, isFindExec, isFindEnd)
}

// fdExec unwraps the command fd runs with -x/--exec or -X/--exec-batch:
// the rest of the words, or up to ";".
func fdExec(a *analysis, args []word, depth int) {
	a.execOptions(args, depth, func(w word) bool {
		return w.isOneOf("-x", "--exec", "-X", "--exec-batch")
	}, func(w word) bool { return w.is(";") })
}

// isFindExec and isFindEnd tell where a command find runs starts and ends.
func isFindExec(w word) bool { return w.isOneOf("-exec", "-execdir", "-ok", "-okdir") }
func isFindEnd(w word) bool  { return w.isOneOf(";", "+") }

// findRuns returns the commands find runs (-exec … ; and its kin) on the
// files below its starting points; none when the rest of its words run,
// write or follow anything else: a word known only at run time, -fprint,
// -L, an unterminated command.
func findRuns(_ *program, args []word, _ *chain.Segment) runsResult {
	var cmds [][]word
	rest := []word{args[0]}
	for i := 1; i < len(args); i++ {
		if args[i].isUnknown() || args[i].isOneOf("-L", "-H", "-follow") {
			return runsResult{}
		}
		if !isFindExec(args[i]) {
			rest = append(rest, args[i])
			continue
		}
		j := i + 1
		for j < len(args) && !isFindEnd(args[j]) {
			j++
		}
		if j == len(args) || j == i+1 {
			return runsResult{}
		}
		cmds = append(cmds, args[i+1:j])
		i = j
	}
	if findGuard(nil, "find", rest[1:]) != "" {
		return runsResult{}
	}
	return runsResult{cmds: cmds, trees: findTrees(args)}
}

// findDeletes keeps find -delete out of the read-only table: it removes
// what it matches (findFiles makes its starting points removals), as
// -exec rm {} does (findRm).
func findDeletes(rest []word) string {
	for i, w := range rest {
		if w.is("-delete") {
			return "find -delete removes files"
		}
		if _, ok := findRm(rest, i); ok {
			return "find -exec rm removes files"
		}
	}
	return ""
}

// findRm reports that args[i] starts -exec rm [-rRfvd] {} ; (or +, or
// -execdir): a removal of each file found, what -delete does but that rm
// -r takes a directory's contents with it, which are below the starting
// points too. It returns the index of the terminator.
func findRm(args []word, i int) (int, bool) {
	if !args[i].isOneOf("-exec", "-execdir") || i+3 >= len(args) {
		return 0, false
	}
	if prog, ok := args[i+1].known(); !ok || canonicalName(prog) != "rm" {
		return 0, false
	}
	j := i + 2
	for j < len(args) && args[j].hasPrefix("-") && isRmFindFlag(args[j]) {
		j++
	}
	if j+1 < len(args) && args[j].is("{}") && isFindEnd(args[j+1]) {
		return j + 1, true
	}
	return 0, false
}

// isRmFindFlag reports an rm option that changes nothing but how much of
// a found file goes and what is printed.
func isRmFindFlag(w word) bool {
	a, _ := w.known()
	switch a {
	case "--recursive", "--force", "--verbose", "--dir":
		return true
	}
	return len(a) > 1 && a[1] != '-' && strings.Trim(a[1:], "rRfvd") == ""
}

// findGuard refuses the find actions that run commands or write files;
// -delete and -exec rm {} are a removal of the starting points' trees,
// judged as rm's operands are.
func findGuard(_ *program, _ string, args []word) string {
	for i := 0; i < len(args); i++ {
		a, ok := args[i].known()
		if !ok {
			continue
		}
		if end, ok := findRm(args, i); ok {
			i = end // a removal of what it finds, judged as -delete
			continue
		}
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir":
			return "find " + a + " runs a command"
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			return "find " + a + " writes a file"
		}
	}
	return ""
}

// fdGuard refuses fd running a command on its results.
func fdGuard(_ *program, _ string, args []word) string {
	for a := range wordsBeforeEnd(args) {
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

// findFiles: find's starting points (the words before its expression) are
// read, as are the files its tests compare with.
func findFiles(_ *program, args []word) []fileArg {
	var files []fileArg
	starts, i := findStarts(args)
	deletes := findRemoval(findDeletes(args[i:]))
	names := findNames(args[i:])
	for _, a := range starts {
		f := findStart(a, deletes)
		f.names = names
		files = append(files, f)
	}
	for ; i < len(args)-1; i++ {
		a, ok := args[i].known()
		if !ok {
			continue
		}
		switch {
		case a == "-newer" || a == "-anewer" || a == "-cnewer" || a == "-samefile" ||
			strings.HasPrefix(a, "-newer") && len(a) == 8:
			files = append(files, fileArg{word: args[i+1], role: roleRead, what: "find " + a})
		case a == "-files0-from":
			files = append(files, fileArg{word: args[i+1], role: roleList, what: "find " + a})
		case a == "-fprint" || a == "-fprint0" || a == "-fprintf" || a == "-fls":
			files = append(files, fileArg{word: args[i+1], role: roleWrite, what: "find " + a})
		}
	}
	if len(starts) == 0 {
		f := findStart(lit("."), deletes)
		f.names = names
		files = append(files, f)
	}
	return files
}

// findStarts are find's starting points (none given: none) and the index
// of the word its expression starts at.
func findStarts(args []word) (starts []word, expr int) {
	i := 1
	for i < len(args) && (args[i].isOneOf("-H", "-L", "-P", "-D") || args[i].hasPrefix("-O")) {
		if args[i].is("-D") {
			i++
		}
		i++
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a.hasPrefix("-") || a.isOneOf("(", "!", ")", ",") {
			break
		}
		starts = append(starts, a)
	}
	return starts, i
}

// findNames are the -name patterns every file find's expression matches
// has a name matching: the expression is a plain conjunction of tests
// with at least one -name; nil (any name) for any other.
func findNames(expr []word) []string {
	var names []string
	for i := 0; i < len(expr); i++ {
		w, ok := expr[i].known()
		switch {
		case !ok || w == "-o" || w == "-or" || w == "!" || w == "-not" || w == "(" || w == ")" || w == ",":
			return nil
		case (w == "-name" || w == "-iname") && i+1 < len(expr):
			p, ok := expr[i+1].known()
			if !ok {
				return nil
			}
			if w == "-iname" {
				p = strings.ToLower(p)
			}
			names = append(names, p)
			i++
		}
	}
	return names
}

// findTrees are the trees whose files find hands on: its starting points,
// "." when none is given.
func findTrees(args []word) []word {
	if starts, _ := findStarts(args); len(starts) > 0 {
		return starts
	}
	return []word{lit(".")}
}

// findRemoval names what removes find's files from findDeletes's reason
// ("find -delete", "find -exec rm"), "" for none.
func findRemoval(why string) string {
	what, _, _ := strings.Cut(why, " removes")
	return what
}

// findStart is a starting point of find: read, or, when deletes names
// what removes the files found, removed with every file below it, but
// for "." and "..", which find never removes: what is below them is.
func findStart(w word, deletes string) fileArg {
	switch {
	case deletes == "":
		return fileArg{word: w, role: roleRead, what: "path"}
	case w.isOneOf(".", "./", "..", "../"):
		return fileArg{word: w, role: roleRemove, tree: treeBelow, below: true, what: deletes + " below"}
	}
	return fileArg{word: w, role: roleRemove, what: deletes}
}
