package policy

// Interpreters: programs that run the code they are given, so a prefix
// rule naming only them would allow anything. python's versioned names
// (python3.12, python3-dbg) are claimed by the prefix.

func registerInterp() {
	register(&program{names: []string{"node", "nodejs", "deno", "perl", "ruby", "php", "lua", "rscript", "osascript", "java",
		"py", "ipython", "pypy", "pypy3", "tclsh", "wish", "expect", "python", "python2", "python3"}, prefix: "python", runsCode: true})
}
