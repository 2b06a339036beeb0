package policy

// Formatters and linters: they read the files they name, and some options
// rewrite them (gofmt -w, prettier --write, ruff --fix) or load code
// (eslint --plugin).

func registerFormat() {
	registerAll(
		&program{names: []string{"gofmt"}, guard: specGuard, opts: optSpec{danger: map[string]string{"-w": "gofmt -w rewrites files"}}},
		&program{names: []string{"goimports"}, guard: specGuard, opts: optSpec{danger: map[string]string{"-w": "goimports -w rewrites files"}}},
		&program{names: []string{"prettier"}, guard: specGuard,
			opts: optSpec{longVal: []string{"config", "plugin"}, abbrev: true, danger: map[string]string{"-w": "prettier -w rewrites files",
				"--write": "prettier --write rewrites files", "--config": "prettier --config loads a configuration that can be code",
				"--plugin": "prettier --plugin loads code"}}},
		&program{names: []string{"eslint"}, guard: specGuard,
			opts: optSpec{shortVal: "c", longVal: []string{"config", "plugin", "rulesdir", "resolve-plugins-relative-to"}, abbrev: true,
				danger: map[string]string{"--fix": "eslint --fix rewrites files", "-c": "eslint -c loads a configuration that is code",
					"--config": "eslint --config loads a configuration that is code", "--plugin": "eslint --plugin loads code",
					"--rulesdir": "eslint --rulesdir loads code", "--resolve-plugins-relative-to": "eslint --resolve-plugins-relative-to chooses the code it loads"}}},
		&program{names: []string{"ruff"}, guard: ruffGuard},
	)
}

// ruffGuard: ruff format and ruff --fix rewrite files.
func ruffGuard(_ *program, _ string, args []word) string {
	for _, a := range args {
		if a.is("format") {
			return "ruff format rewrites files"
		}
		if a.is("--fix") || a.hasPrefix("--fix=") && !a.is("--fix=false") {
			return "ruff --fix rewrites files"
		}
	}
	return ""
}
