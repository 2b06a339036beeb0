package policy

import (
	"slices"
	"strings"
)

// Formatters and linters: they read the files they name, and some rewrite
// them in place (gofmt -w, prettier --write, ruff --fix, black by default)
// or load code (eslint --plugin). Rewriting is an Edit of every file below
// each operand (editsInPlace): a directory is formatted whole, so the path
// step judges it as a write of its tree.

func registerFormat() {
	registerAll(
		&program{names: []string{"gofmt"}, guard: specGuard, operands: roleRead, operandFiles: flagEdits, tree: formatTree,
			editsInPlace: "gofmt -w rewrites files", opts: optSpec{shortVal: "r", danger: map[string]string{"-w": "gofmt -w rewrites files"}}},
		&program{names: []string{"goimports"}, guard: specGuard, operands: roleRead, operandFiles: flagEdits, tree: formatTree,
			editsInPlace: "goimports -w rewrites files",
			opts:         optSpec{longVal: []string{"local", "srcdir"}, danger: map[string]string{"-w": "goimports -w rewrites files"}}},
		&program{names: []string{"prettier"}, guard: specGuard, operands: roleRead, operandFiles: flagEdits, tree: formatTree,
			editsInPlace: "prettier --write rewrites files",
			opts: optSpec{longVal: []string{"config", "plugin", "ignore-path", "parser", "log-level", "cache-location", "stdin-filepath"}, abbrev: true,
				danger: map[string]string{"-w": "prettier --write rewrites files",
					"--write": "prettier --write rewrites files", "--config": "prettier --config loads a configuration that can be code",
					"--plugin": "prettier --plugin loads code"}}},
		&program{names: []string{"eslint"}, guard: specGuard, operands: roleRead, operandFiles: flagEdits, tree: formatTree,
			editsInPlace: "eslint --fix rewrites files",
			opts: optSpec{shortVal: "fco", longVal: []string{"config", "plugin", "rulesdir", "resolve-plugins-relative-to", "ext", "format",
				"output-file", "ignore-path", "max-warnings", "parser", "rule", "env", "global", "fix-type", "cache-location"}, abbrev: true,
				danger: map[string]string{"--fix": "eslint --fix rewrites files", "-c": "eslint -c loads a configuration that is code",
					"--config": "eslint --config loads a configuration that is code", "--plugin": "eslint --plugin loads code",
					"--rulesdir": "eslint --rulesdir loads code", "--resolve-plugins-relative-to": "eslint --resolve-plugins-relative-to chooses the code it loads",
					"-o": "eslint -o writes a file", "--output-file": "eslint --output-file writes a file"},
				roles: map[string]fileRole{"-o": roleWrite, "--output-file": roleWrite}}},
		&program{names: []string{"clang-format"}, guard: specGuard, operands: roleRead, operandFiles: flagEdits,
			editsInPlace: "clang-format -i rewrites files",
			opts: optSpec{longVal: []string{"style", "assume-filename", "lines", "offset", "length", "fallback-style"},
				danger: map[string]string{"-i": "clang-format -i rewrites files"}}},
		defaultRewriter("black", optSpec{shortVal: "ltcW", longVal: []string{"line-length", "target-version", "include", "exclude",
			"extend-exclude", "force-exclude", "config", "stdin-filename", "code", "workers", "required-version", "python-cell-magics"},
			roles: map[string]fileRole{"--config": roleRead}}, "--check", "--diff"),
		defaultRewriter("rustfmt", optSpec{longVal: []string{"edition", "config-path", "config", "emit", "color", "style-edition"},
			roles: map[string]fileRole{"--config-path": roleRead}}, "--check", "--emit"),
		&program{names: []string{"ruff"}, guard: ruffGuard, operands: roleRead, operandFiles: ruffOperands, tree: formatTree,
			editsInPlace: "ruff rewrites files",
			opts: optSpec{shortVal: "o", longVal: []string{"config", "select", "ignore", "extend-select", "extend-ignore", "fixable",
				"unfixable", "line-length", "target-version", "exclude", "extend-exclude", "output-format", "output-file", "cache-dir",
				"stdin-filename", "per-file-ignores", "extend-per-file-ignores"},
				roles: map[string]fileRole{"-o": roleWrite, "--output-file": roleWrite, "--config": roleRead}}},
	)
}

// flagEdits are the operands of a formatter that rewrites them when one of
// its options whose danger is its edit (editsInPlace) is given.
func flagEdits(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	given := slices.ContainsFunc(opts, func(o flagUse) bool { return p.opts.danger[o.flag] == p.editsInPlace })
	return formatOperands(files, operands, given)
}

// defaultRewriter is the record of a formatter that rewrites its operands
// unless one of the options unless is given (black --check, rustfmt
// --emit stdout).
func defaultRewriter(name string, opts optSpec, unless ...string) *program {
	edit := name + " rewrites files"
	return &program{names: []string{name}, operands: roleRead, opts: opts, tree: formatTree, editsInPlace: edit,
		guard: func(p *program, _ string, rest []word) string {
			if r := specGuard(p, name, rest); r != "" {
				return r
			}
			if _, opts := walkFlags(rest, &p.opts); !givenAny(opts, unless) {
				return edit + " (without " + strings.Join(unless, ", ") + ")"
			}
			return ""
		},
		operandFiles: func(_ *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
			return formatOperands(files, operands, !givenAny(opts, unless))
		}}
}

// givenAny reports an option of opts that is one of flags, as a prefix of
// its long form too (--emit=stdout).
func givenAny(opts []flagUse, flags []string) bool {
	return slices.ContainsFunc(opts, func(o flagUse) bool { return slices.Contains(flags, o.flag) })
}

// formatOperands appends a formatter's operands to files: read, or, when
// it rewrites them, written with every file below them (a directory is
// formatted whole). A pattern the program expands itself (prettier
// "src/**/*.ts") stands for the tree of its literal directory.
func formatOperands(files []fileArg, operands []word, rewrites bool) []fileArg {
	for _, o := range operands {
		f := fileArg{word: patternRoot(o), role: roleRead, what: "path"}
		if rewrites {
			f.role, f.what, f.tree = roleWrite, "file rewritten in place", treeBelow
		}
		files = append(files, f)
	}
	return files
}

// patternRoot is w, or, when w is a pattern a program expands itself, the
// directory its literal part names ("." for none).
func patternRoot(w word) word {
	s, ok := w.known()
	i := strings.IndexAny(s, "*?[{")
	if !ok || i < 0 {
		return w
	}
	j := strings.LastIndexAny(s[:i], `/\`)
	switch {
	case j < 0:
		return lit(".")
	case j == 0:
		return lit(s[:1])
	}
	return lit(s[:j])
}

// formatTree is the tree a formatter reads: every directory operand
// (gofmt dir, ruff check src) is walked.
func formatTree(args []word) ([]word, string) {
	p := lookupWord(canonWord(args[0]))
	var dirs []word
	for _, f := range p.paths(args) {
		if f.role == roleRead || f.role == roleWrite && f.tree == treeBelow {
			dirs = append(dirs, f.word)
		}
	}
	return dirs, ""
}

// ruffSubcommands are ruff's subcommands, which are no paths.
var ruffSubcommands = []string{"check", "format", "rule", "config", "linter", "clean", "version", "analyze", "server", "help"}

// ruffGuard: ruff format and ruff --fix rewrite files, which are edits of
// the operands; its other options are specGuard's.
func ruffGuard(p *program, name string, args []word) string {
	if r := specGuard(p, name, args); r != "" {
		return r
	}
	operands, opts := walkFlags(args, &p.opts)
	if how := ruffRewrites(operands, opts); how != "" {
		return p.editsInPlace + " (" + how + ")"
	}
	return ""
}

// ruffRewrites says what makes ruff rewrite files, format (without
// --check or --diff) or --fix, or "".
func ruffRewrites(operands []word, opts []flagUse) string {
	if len(operands) > 0 && operands[0].is("format") && !givenAny(opts, []string{"--check", "--diff"}) {
		return "format"
	}
	if slices.ContainsFunc(opts, func(o flagUse) bool { return o.flag == "--fix" && !(o.hasVal && o.val.is("false")) }) {
		return "--fix"
	}
	return ""
}

// ruffOperands: the first operand is a subcommand when it names one; the
// others are the files and trees ruff checks or rewrites.
func ruffOperands(_ *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	rewrites := ruffRewrites(operands, opts) != ""
	if len(operands) > 0 && operands[0].isOneOf(ruffSubcommands...) {
		operands = operands[1:]
	}
	return formatOperands(files, operands, rewrites)
}
