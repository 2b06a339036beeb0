package policy

import "strings"

// A checksum list (sha256sum -c SUMS) names the files the program reads to
// check them. When its text is at hand before the run (a file, a heredoc
// or here-string on standard input), those names are judged as reads; when
// it is not (a pipe, a file too large or not there), what the program
// reads is unknown, like a list's.

// maxSumNames bounds the names taken from one list; a longer list is
// judged as unknown.
const maxSumNames = 10000

// sums judges the checksum list f and the files it names.
func (j *segJudgement) sums(env *pathEnv, cwd string, f fileArg) {
	text, ok := j.patchText(env, cwd, f.word)
	var names []string
	if ok {
		names, ok = sumNames(text)
	}
	if !ok {
		j.list(env, cwd, fileArg{word: f.word, role: roleList, what: f.what})
		return
	}
	if !f.word.is("-") {
		j.file(env, cwd, fileArg{word: f.word, role: roleRead, what: f.what + " list"})
	}
	for _, n := range names {
		j.file(env, cwd, fileArg{word: lit(n), role: roleRead, what: f.what + " reads"})
	}
}

// sumNames are the file names a checksum list may make the program read:
// "HASH  NAME", "HASH *NAME", "HASH NAME" and the tagged "ALGO (NAME) =
// HASH", a leading backslash marking escaped names. Where a line may be
// read two ways, both names are taken. false when there are too many.
func sumNames(text string) ([]string, bool) {
	var names []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(strings.TrimLeft(line, " \t"), "\r")
		escaped := strings.HasPrefix(line, `\`)
		if escaped {
			line = line[1:]
		}
		var cands []string
		if i, k := strings.Index(line, " ("), strings.LastIndex(line, ") = "); i > 0 && k > i+2 {
			cands = append(cands, line[i+2:k])
		}
		if i := strings.IndexAny(line, " \t"); i > 0 && i+1 < len(line) {
			rest := line[i+1:]
			cands = append(cands, rest)
			if (rest[0] == ' ' || rest[0] == '*') && len(rest) > 1 {
				cands = append(cands, rest[1:])
			}
		}
		for _, c := range cands {
			if escaped {
				c = strings.NewReplacer(`\\`, `\`, `\n`, "\n").Replace(c)
			}
			names = append(names, c)
		}
		if len(names) > maxSumNames {
			return nil, false
		}
	}
	return names, true
}
