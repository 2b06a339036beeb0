package policy

// Programs that print what they are told or what they find out about the
// system (echo, date, id, man). They name no files; date -s sets the clock
// and man's pager options run programs.

func registerInfo() {
	registerAll(
		&program{names: []string{"echo", "printf", "true", "false", "seq", "pwd", "which", "basename", "dirname", "whoami", "id",
			"uname"}, readOnly: true, text: true},
		&program{names: []string{"df"}, readOnly: true, operands: roleStat},
		&program{names: []string{"date"}, readOnly: true, guard: specGuard,
			opts: optSpec{shortVal: "dfrs", longVal: []string{"date", "file", "reference", "set"}, abbrev: true,
				danger: map[string]string{"-s": "date -s sets the clock", "--set": "date --set sets the clock"}}},
		&program{names: []string{"man"}, guard: specGuard,
			opts: optSpec{shortVal: "CMPSLmpeRE", longVal: []string{"config-file", "manpath", "pager", "sections", "locale", "systems",
				"preprocessor", "extension", "encoding"},
				longFlag: []string{"html", "help", "path", "where"}, abbrev: true,
				danger: map[string]string{"-P": "man -P runs a pager program", "--pager": "man --pager runs a pager program",
					"-C": "man -C reads a configuration that can name programs", "--config-file": "man --config-file reads a configuration that can name programs",
					"-H": "man -H runs a browser", "--html": "man --html runs a browser"}}},
	)
}
