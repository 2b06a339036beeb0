package policy

// Interpreters: programs that run the code they are given, so a prefix
// rule naming only them would allow anything. (python and its versioned
// names are matched by prefix in suggest.go.)

func init() {
	register(&program{names: []string{"node", "nodejs", "deno", "perl", "ruby", "php", "lua", "rscript", "osascript", "java",
		"py", "ipython", "pypy", "pypy3", "tclsh", "wish", "expect"}, runsCode: true})
}
