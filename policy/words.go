package policy

import (
	"os"
	"strings"
)

// Every word of every program. A program whose record does not say which
// of its words are paths, or that the registry does not know, may take any
// word as one: openssl … -out .git/hooks/pre-commit writes the hook
// although nothing in the word looks like a path. Its path-like words
// (absolute, home-relative, climbing) are paths it touches (pathLikeFiles);
// every other word, and the value of an option written --opt=value or
// -oVALUE, is judged as a path it touches too when its name may be
// sensitive, or when Read or Edit deny or ask rules exist that may name
// it. A word found fine adds no reason: most are no path at all. A word
// naming a list of files (@file, @-, --files-from=-) makes what the
// program touches unknown: it asks.

// wordsUnmodelled reports a record whose words may be paths the record
// does not name: no record, or one that models no operands (or only some,
// looseWords), and is neither a shell (its body is judged), a wrapper
// (its command is) nor a printer of text.
func (p *program) wordsUnmodelled() bool {
	return p == nil || p.body == nil && p.wrap == nil && !p.text && p.operands == 0 && (p.files == nil || p.looseWords)
}

// words judges the words of one command whose record does not model them.
func (j *segJudgement) words(env *pathEnv, cwd string, p *program, args []word) {
	if !p.wordsUnmodelled() {
		return
	}
	rules := len(env.p.PathDeny)+len(env.p.PathAsk) > 0
	for i := 1; i < len(args); i++ {
		w, known := args[i].known()
		if name, val, ok := listOption(args, i); ok {
			j.file(env, cwd, fileArg{word: val, role: roleList, what: args[0].show() + " " + name})
			if !strings.Contains(w, "=") {
				i++
			}
			continue
		}
		w = wordValue(w)
		if !known || w == "" {
			continue // a word known only at run time is judged when it starts
		}
		if w[0] == '@' {
			// @FILE: a response file, or a file whose content is sent
			// (curl -d @.env).
			if p == nil && j.responseFile(env, cwd, args[0].show(), w) {
				continue
			}
			w = w[1:]
		}
		if k := valueAt(w); k > 0 && !isPathLike(w) {
			// KEY=FILE (dd-style operands, make's variables), REV:PATH
			// (git show HEAD:.env), HOST:PATH: the value is judged by
			// its name.
			j.looseWord(env, cwd, p, w[k+1:], false)
		}
		j.looseWord(env, cwd, p, w, rules)
	}
}

// looseWord judges one word of a program whose record does not model it:
// by its name, or as a path when Read or Edit rules exist (rules).
// Path-like words are pathLikeFiles'.
func (j *segJudgement) looseWord(env *pathEnv, cwd string, p *program, w string, rules bool) {
	if w == "" || isPathLike(w) || !rules && !nameMaySensitive(w) {
		return
	}
	if strings.ContainsRune(w, '~') {
		// HEAD~1 is a revision: only a name that exists is judged (a
		// Windows 8.3 short name stands for a longer one).
		if _, err := os.Lstat(env.resolve(cwd, w)); err != nil {
			return
		}
	}
	j.word(env, cwd, w, p.wordRole())
}

// wordRole is the role of the words of p judged as paths: read or written,
// it cannot be told, but for a record that models its writes (looseWords:
// git's checkout, restore, rm) and reads the rest.
func (p *program) wordRole() fileRole {
	if p != nil && p.looseWords {
		return roleRead
	}
	return roleTouch
}

// word judges one word as a path the program touches; found fine, it adds
// no reason.
func (j *segJudgement) word(env *pathEnv, cwd, w string, role fileRole) {
	f := fileArg{word: lit(w), role: role, what: "word"}
	if n := env.judgeFile(cwd, f); n.kind != noteOK {
		j.note(f, n)
	}
}

// wordValue is the part of an argument that may name a file: an option's
// value when it is attached (--out=F, -oF), the word itself when it is no
// option; "" for an option without an attached value.
func wordValue(w string) string {
	if len(w) < 2 || w[0] != '-' {
		return w
	}
	if _, v, ok := strings.Cut(w, "="); ok {
		return v
	}
	if w[1] != '-' {
		return w[2:]
	}
	return ""
}

// listOptions are long options that, in most programs taking them, name
// a file (or "-") listing the files the program works on.
var listOptions = [...]string{"--files-from", "--files0-from", "--pathspec-from-file", "--file-list", "--filelist"}

// listOption reads args[i] as an option naming a list of files, with its
// value attached or in the next word.
func listOption(args []word, i int) (name string, val word, ok bool) {
	w, known := args[i].known()
	if !known || !strings.HasPrefix(w, "--") {
		return "", word{}, false
	}
	name, v, attached := strings.Cut(w, "=")
	for _, l := range listOptions {
		if name != l {
			continue
		}
		if attached {
			return name, lit(v), v != ""
		}
		if i+1 < len(args) {
			return name, args[i+1], true
		}
	}
	return "", word{}, false
}

// responseFile judges @FILE (or @-), which compilers, linkers and archivers
// read as more arguments or as a list of files: what the program touches
// is then unknown. It reports whether w was one: "@-" always, @FILE when
// FILE exists.
func (j *segJudgement) responseFile(env *pathEnv, cwd, name, w string) bool {
	rest := w[1:]
	if rest == "" {
		return false
	}
	if rest != "-" {
		if fi, err := os.Stat(env.resolve(cwd, rest)); err != nil || fi.IsDir() {
			return false
		}
	}
	j.file(env, cwd, fileArg{word: lit(rest), role: roleList, what: name + " @"})
	return true
}

// nameMaySensitive reports a word whose name alone may make it a
// sensitive path (paths.go): a component starting with a dot (.git,
// .env, .ssh), a repository directory (*.git), a name with "~" (a home
// directory or a Windows short name), a key or certificate file name.
func nameMaySensitive(w string) bool {
	if !mayName(w) {
		return false
	}
	base := ""
	for rest := w; rest != ""; {
		c := rest
		if i := strings.IndexAny(rest, `/\`); i >= 0 {
			c, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		switch {
		case c == "" || c == "." || c == ".." || c == "...":
			continue
		case c[0] == '.' || strings.ContainsRune(c, '~') || isGitDir(lowerASCII(c)):
			return true
		}
		base = c
	}
	base = lowerASCII(base)
	return strings.HasPrefix(base, "id_") || strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".p12") ||
		strings.HasSuffix(base, ".pfx")
}

// list judges a file naming the files a program touches: they cannot be
// judged before it runs (hard: no mode lifts it); the list itself is read.
func (j *segJudgement) list(env *pathEnv, cwd string, f fileArg) {
	src := "standard input"
	if !f.word.is("-") {
		src = quoteWord(f.word)
		j.file(env, cwd, fileArg{word: f.word, role: roleRead, what: f.what})
	}
	j.facts.hard = true
	j.pathAsks = append(j.pathAsks, f.what+" reads the names of the files it touches from "+src+", so they cannot be judged before it runs")
}

// mayName is nameMaySensitive's first look, one pass over the word: a
// sensitive name holds ".", "~" or "id_".
func mayName(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '.', '~':
			return true
		case 'i':
			if strings.HasPrefix(w[i:], "id_") {
				return true
			}
		}
	}
	return false
}

// valueAt is the index of the first "=" or ":" in w, or -1.
func valueAt(w string) int {
	for i := 0; i < len(w); i++ {
		if w[i] == '=' || w[i] == ':' {
			return i
		}
	}
	return -1
}
