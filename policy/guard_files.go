package policy

import (
	"strings"
	"sync"
)

// The guards of file tools and formatters: options that write files
// (sort -o, tree -o, uniq's second operand), run helper programs (rg
// --pre, tar --to-command, man -P, zip -TT), set the clock (date -s) or
// rewrite the files they read (gofmt -w, prettier --write, ruff --fix).

// fileToolGuard is programGuard for the programs of this file: why the
// arguments make one write files or run programs, and whether name is one.
func fileToolGuard(name string, args []string) (string, bool) {
	switch name {
	case "rg":
		return flagGuard(args, rgSpec()), true
	case "sort":
		return flagGuard(args, sortSpec()), true
	case "uniq":
		return uniqGuard(args), true
	case "tree":
		return flagGuard(args, treeSpec()), true
	case "base64":
		return flagGuard(args, base64Spec()), true
	case "tar":
		return tarGuard(args), true
	case "zip":
		return zipGuard(args), true
	case "man":
		return flagGuard(args, manSpec()), true
	case "date":
		return flagGuard(args, dateSpec()), true
	case "yq", "gofmt", "goimports", "prettier", "eslint":
		return flagGuard(args, formatterSpecs()[name]), true
	case "ruff":
		return ruffGuard(args), true
	case "sha256sum", "sha1sum", "sha512sum", "sha224sum", "sha384sum", "md5sum", "b2sum", "cksum":
		return flagGuard(args, checksumSpec()), true
	}
	return "", false
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

// uniqGuard: uniq writes its second operand.
func uniqGuard(args []string) string {
	operands, _ := scanFlags(args, &flagSpec{shortVal: "fsw", longVal: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"}})
	if len(operands) >= 2 {
		return "uniq writes its second operand " + quoteArg(operands[1])
	}
	return ""
}

var treeSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{shortVal: "LPIoHT", danger: map[string]string{"-o": "tree -o writes a file"},
		longVal: []string{"filelimit", "timefmt", "sort", "charset"}}
})

var base64Spec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{shortVal: "bwio", longVal: []string{"wrap", "input", "output"}, abbrev: true,
		danger: map[string]string{"-o": "base64 -o writes a file", "--output": "base64 --output writes a file"}}
})

// tarGuard reads old-style "tar xzf" as "tar -xzf" (a first word known
// only at run time is left for runtimeArgGuard).
func tarGuard(args []string) string {
	if len(args) > 0 && oldStyleTar(args[0]) {
		// Old-style "tar xzf file": the first word is an option cluster.
		args = append([]string{"-" + args[0]}, args[1:]...)
	}
	_, r := scanFlags(args, tarSpec())
	return r
}

// oldStyleTar reports tar's first argument read as an option cluster
// without its dash ("xzf"); a word known only at run time is not one yet.
func oldStyleTar(a string) bool { return a != "" && a[0] != '-' && !isUnknown(a) }

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

// zipGuard: --unzip-command and -TT run a program to test the archive.
func zipGuard(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--unzip") { // --unzip-command and its abbreviations
			return "zip --unzip-command runs a program"
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "TT") {
			return "zip -TT runs a program"
		}
	}
	return ""
}

var manSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{shortVal: "CMPSLmpeRE", longVal: []string{"config-file", "manpath", "pager", "sections", "locale", "systems", "preprocessor", "extension", "encoding"},
		known: []string{"html", "help", "path", "where"}, abbrev: true,
		danger: map[string]string{"-P": "man -P runs a pager program", "--pager": "man --pager runs a pager program",
			"-C": "man -C reads a configuration that can name programs", "--config-file": "man --config-file reads a configuration that can name programs",
			"-H": "man -H runs a browser", "--html": "man --html runs a browser"}}
})

var dateSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{shortVal: "dfrs", longVal: []string{"date", "file", "reference", "set"}, abbrev: true,
		danger: map[string]string{"-s": "date -s sets the clock", "--set": "date --set sets the clock"}}
})

// formatterSpecs are the formatters' and linters' options that rewrite
// the files they read.
var formatterSpecs = sync.OnceValue(func() map[string]*flagSpec {
	return map[string]*flagSpec{
		"yq":        {danger: map[string]string{"-i": "yq -i edits files in place", "--inplace": "yq --inplace edits files in place"}},
		"gofmt":     {danger: map[string]string{"-w": "gofmt -w rewrites files"}},
		"goimports": {danger: map[string]string{"-w": "goimports -w rewrites files"}},
		"prettier": {longVal: []string{"config", "plugin"}, abbrev: true, danger: map[string]string{"-w": "prettier -w rewrites files", "--write": "prettier --write rewrites files",
			"--config": "prettier --config loads a configuration that can be code", "--plugin": "prettier --plugin loads code"}},
		"eslint": {shortVal: "c", longVal: []string{"config", "plugin", "rulesdir", "resolve-plugins-relative-to"}, abbrev: true,
			danger: map[string]string{"--fix": "eslint --fix rewrites files", "-c": "eslint -c loads a configuration that is code",
				"--config": "eslint --config loads a configuration that is code", "--plugin": "eslint --plugin loads code",
				"--rulesdir": "eslint --rulesdir loads code", "--resolve-plugins-relative-to": "eslint --resolve-plugins-relative-to chooses the code it loads"}},
	}
})

// ruffGuard: ruff format and ruff --fix rewrite files.
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

// checksumSpec: -c/--check reads every file its list names, paths nobody
// judged.
var checksumSpec = sync.OnceValue(func() *flagSpec {
	return &flagSpec{shortVal: "la", longVal: []string{"length", "algorithm"}, abbrev: true,
		known:  []string{"binary", "text", "tag", "zero", "quiet", "status", "strict", "warn", "ignore-missing", "untagged", "base64", "raw"},
		danger: map[string]string{"-c": "checksum -c reads the files its list names", "--check": "checksum --check reads the files its list names"}}
})
