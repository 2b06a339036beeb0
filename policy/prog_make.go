package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// make runs the recipes of a makefile. A rule allowing make allows the
// project's own makefile; the options that hand make other code are its
// guard: --eval and -E (makefile text), -f FILE (another makefile, "-"
// standard input), and assignments on its command line to the variables
// that decide how every recipe runs (SHELL, .SHELLFLAGS, MAKEFLAGS…) or
// that call $(shell …). Deny rules see that code: the recipes and $(shell
// …) calls of the text are judged like a shell body's commands; a recipe
// using make's variables or functions, or text that is not there before
// the run (a pipe), is known only at run time.

func registerMake() {
	register(&program{names: []string{"make", "gmake"}, guard: makeGuard, execs: makeCode, verb: 2,
		opts: optSpec{shortVal: "CfIoWE", shortOpt: "jlO",
			longVal: []string{"directory", "file", "makefile", "include-dir", "old-file", "assume-old", "what-if", "new-file",
				"assume-new", "eval"},
			longOpt: []string{"jobs", "load-average", "debug", "output-sync", "shuffle", "jobserver-style"},
			longFlag: []string{"always-make", "environment-overrides", "ignore-errors", "keep-going", "just-print", "dry-run", "recon",
				"question", "no-builtin-rules", "no-builtin-variables", "silent", "quiet", "stop", "touch", "trace", "version",
				"print-directory", "no-print-directory", "warn-undefined-variables", "check-symlink-times", "print-data-base", "help"},
			abbrev: true,
			danger: map[string]string{"--eval": "make --eval runs the makefile text it is given",
				"-E": "make -E runs the makefile text it is given"},
			roles: map[string]fileRole{"-C": roleChdir, "--directory": roleChdir, "-f": roleRead, "--file": roleRead,
				"--makefile": roleRead, "-I": roleRead, "--include-dir": roleRead}}})
}

// makeVars are the variables that decide how make runs every recipe or
// which makefiles it reads: set on the command line, they change what the
// project's makefile runs.
var makeVars = []string{"SHELL", ".SHELLFLAGS", "MAKESHELL", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKEFILES", ".RECIPEPREFIX"}

// makeGuard: the options and assignments that hand make code of its own.
func makeGuard(p *program, _ string, args []word) string {
	operands, opts := walkFlags(args, &p.opts)
	if r := p.opts.dangerIn(opts); r != "" {
		return r
	}
	if f, ok := findFlag(opts, "-f", "--file", "--makefile"); ok {
		if f.is("-") || stdinName(knownOr(f, "")) {
			return "make -f - reads its makefile from standard input"
		}
		return "make -f runs the recipes of " + quoteWord(f) + ", not the project's makefile"
	}
	for _, w := range operands {
		o, known := w.known()
		name, val, ok := strings.Cut(o, "=")
		if !known {
			continue // judged when it starts
		}
		if !ok || !isAssignWord(o) && !strings.HasPrefix(o, ".") {
			continue
		}
		name = strings.TrimRight(name, ":+?!")
		for _, v := range makeVars {
			if name == v {
				return "make " + name + "= changes how make runs every recipe"
			}
		}
		if len(shellCalls(val)) > 0 {
			return "make " + name + "= holds $(shell …), which runs a command"
		}
	}
	return ""
}

// makeCode judges the code make is handed (makeGuard's options): the
// recipes and $(shell …) calls of --eval and -E text, of a makefile named
// by -f (read before the run; "-" is standard input; one not there yet,
// written by an earlier segment, is known only at run time), and the
// $(shell …) calls of command-line assignments.
func makeCode(a *analysis, args []word, depth int) {
	p := lookup("make")
	operands, opts := walkFlags(args[1:], &p.opts)
	for _, o := range opts {
		switch o.flag {
		case "--eval", "-E":
			a.makeText("make "+o.flag, o.val, depth)
		case "-f", "--file", "--makefile":
			name, known := o.val.known()
			text, readable := "", false
			if known {
				text, readable = smallFile(a.dir, name)
			}
			if o.val.is("-") || known && stdinName(name) {
				if !a.stdinKnown {
					a.runtimeAt("make -f - reads its makefile from standard input, known only at run time", nil)
					continue
				}
				a.ask("make -f - reads its makefile from standard input: " + shownBody(a.stdinText))
				a.makeText("make -f -", lit(a.stdinText), depth)
			} else if readable {
				a.makeText("make -f "+name, lit(text), depth)
			} else {
				a.runtimeAt("make -f "+o.val.show()+": the makefile cannot be read before the run, so its recipes are known only at run time", nil)
			}
		}
	}
	for _, w := range operands {
		if o, ok := w.known(); ok && strings.Contains(o, "=") {
			for _, c := range shellCalls(o) {
				a.parseBody("make", lit(c), depth)
			}
		}
	}
}

// smallFile is the text of a regular file of at most a megabyte, named
// relative to dir.
func smallFile(dir, name string) (string, bool) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return "", false
	}
	b, err := os.ReadFile(name)
	return string(b), err == nil
}

// makeText judges makefile text: each recipe and $(shell …) call is a
// shell body. Text that sets the recipe prefix or the shell, and recipes
// using make's variables or functions, are known only at run time.
func (a *analysis) makeText(what string, w word, depth int) {
	text, ok := w.known()
	if !ok {
		a.runtimeAt(what+" text ("+w.show()+") is known only at run time", nil)
		return
	}
	text = strings.ReplaceAll(text, "\\\n", " ")
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		for _, c := range shellCalls(line) {
			a.parseBody("make", lit(c), depth)
		}
		if setsMakeVar(line) {
			a.runtimeAt(what+" sets a variable that decides how recipes run: "+quoteArg(line), nil)
			continue
		}
		recipe, ok := recipeOf(line)
		if !ok {
			continue
		}
		if strings.Contains(strings.ReplaceAll(recipe, "$$", ""), "$") {
			a.runtimeAt(what+" recipe "+quoteArg(recipe)+" uses make variables or functions, known only at run time", nil)
			continue
		}
		a.parseBody("make", lit(strings.ReplaceAll(recipe, "$$", "$")), depth)
	}
}

// recipeOf is the command of a makefile line: a line starting with a tab,
// or what follows ";" on a rule line ("all: ; cmd"), without make's @, -
// and + prefixes.
func recipeOf(line string) (string, bool) {
	var r string
	switch {
	case strings.HasPrefix(line, "\t"):
		r = line[1:]
	default:
		i := strings.IndexByte(line, ':')
		if i < 0 {
			return "", false
		}
		k := strings.IndexByte(line[i:], ';')
		if k < 0 {
			return "", false
		}
		r = line[i+k+1:]
	}
	r = strings.TrimLeft(r, " \t@-+")
	return r, r != ""
}

// setsMakeVar reports a line assigning one of makeVars.
func setsMakeVar(line string) bool {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "override "))
	for _, v := range makeVars {
		if rest, ok := strings.CutPrefix(line, v); ok {
			rest = strings.TrimLeft(rest, " \t")
			if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":=") || strings.HasPrefix(rest, "::=") ||
				strings.HasPrefix(rest, "+=") || strings.HasPrefix(rest, "?=") || strings.HasPrefix(rest, "!=") {
				return true
			}
		}
	}
	return false
}

// shellCalls are the commands of the $(shell …) and ${shell …} calls in
// s, parentheses balanced.
func shellCalls(s string) []string {
	var calls []string
	for _, open := range []string{"$(shell ", "${shell "} {
		rest := s
		for {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			body := rest[i+len(open):]
			end := closing(body, open[1])
			calls = append(calls, body[:end])
			rest = body[end:]
		}
	}
	return calls
}

// closing is the index in s of the bracket closing an open one ("(" or
// "{"), or len(s).
func closing(s string, open byte) int {
	close := byte(')')
	if open == '{' {
		close = '}'
	}
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}
