package policy

import (
	"os"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// A patch names the files it changes (patch, git apply). When its text is
// at hand before the run, a heredoc or here-string on standard input or
// a file it reads, those names are the files the program writes and are
// judged as writes; when it is not (a pipe, a file too large or not
// there), what the program writes is unknown, like a list's.

// maxPatchRead bounds the patch text read to find its names.
const maxPatchRead = 1 << 20

// diff judges the files the patch f names. f.strip is the leading
// components removed from each name (-pN), or -1 when not given (patch
// then may use the whole name or its last component: both are judged).
func (j *segJudgement) diff(env *pathEnv, cwd string, f fileArg) {
	text, ok := j.patchText(env, cwd, f.word)
	if !ok {
		j.list(env, cwd, fileArg{word: f.word, role: roleList, what: f.what})
		return
	}
	if !f.word.is("-") {
		j.file(env, cwd, fileArg{word: f.word, role: roleRead, what: f.what + " input"})
	}
	for _, n := range patchNames(text, f.strip) {
		j.file(env, cwd, fileArg{word: lit(n), role: roleWrite, what: f.what + " changes"})
	}
}

// patchText is the text of the patch source: the segment's standard
// input ("-": the last heredoc, here-string or < FILE on fd 0) or a file.
func (j *segJudgement) patchText(env *pathEnv, cwd string, src word) (string, bool) {
	if src.is("-") {
		var in *chain.Redirect // the last redirect of fd 0 wins
		for i, r := range j.seg.Redirects {
			if r.Fd == 0 {
				in = &j.seg.Redirects[i]
			}
		}
		switch {
		case in == nil:
			return "", false
		case in.Op.IsText():
			return in.Body, true
		case in.Op != chain.RedirIn:
			return "", false
		}
		src = redirectTarget(*in)
	}
	name, ok := src.known()
	if !ok {
		return "", false
	}
	fi, err := os.Stat(env.resolve(cwd, name))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxPatchRead {
		return "", false
	}
	b, err := os.ReadFile(env.resolve(cwd, name))
	return string(b), err == nil
}

// patchNames are the file names a unified or git diff names: its ---
// and +++ lines (less /dev/null and timestamps, strip components
// removed) and git's rename and copy targets.
func patchNames(text string, strip int) []string {
	var names []string
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		var name string
		switch {
		case strings.HasPrefix(line, "+++ ") || strings.HasPrefix(line, "--- "):
			name, _, _ = strings.Cut(line[4:], "\t")
			name = strings.TrimSpace(name)
		case strings.HasPrefix(line, "rename to ") || strings.HasPrefix(line, "copy to "):
			_, name, _ = strings.Cut(line, " to ")
			names = append(names, name)
			continue
		default:
			continue
		}
		if name == "" || name == "/dev/null" {
			continue
		}
		if strip < 0 {
			names = append(names, name)
			if i := strings.LastIndexByte(name, '/'); i >= 0 {
				names = append(names, name[i+1:])
			}
			continue
		}
		n := name
		for k := 0; k < strip && n != ""; k++ {
			_, n, _ = strings.Cut(n, "/")
		}
		if n != "" {
			names = append(names, n)
		}
	}
	return names
}
