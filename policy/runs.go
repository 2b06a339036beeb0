package policy

import (
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Programs that run other commands with the files they find (xargs wc -l
// fed by find, find -exec grep -l x {} +): a prefix rule naming the
// program is written for what it reads, and the guard stops it from
// covering the commands it runs. When each of them is a read-only program
// (the read-only table, its arguments included) that an allow rule covers
// itself, and the files they get come from trees the plan names (find's
// starting points; xargs's input only when it is a plain find's output),
// the segment is judged like that program: the rule covers it, or the
// read-only table does when the program itself is xargs or a read-only
// program (find) and the commands are read-only. Deny and
// ask rules have seen every command already (each is a layer of the
// segment), and the starting points are judged as reads. What cannot be
// judged before the run asks as before: Read or Edit deny or ask rules
// (the files are found at run time); below a starting point, a symbolic
// link leading outside the roots or to a sensitive file (the command opens
// it), and for xargs a name it would split (a blank, a quote, a
// backslash); a tree too large to look through.

// runsResult is what a record's runs finds: the commands the program runs,
// the trees whose files they get, and whether names are split (xargs).
type runsResult struct {
	cmds   [][]word
	trees  []word
	splits bool
}

// maxTreeWalk bounds the entries looked at below the trees of one segment.
const maxTreeWalk = 20000

// runsReaders reports why the prefix or glob rule whose guard fired
// covers the segment: every command its program runs is a read-only
// program allowed by a rule of its own, or, judged by the read-only table
// (table), by the table; "" when it does not. It records the trees
// judgePaths looks through.
func (p *Policy) runsReaders(j *segJudgement, table bool) string {
	narrow := j.a.narrow
	prog := lookupWord(narrow[0])
	if prog == nil || prog.runs == nil || len(p.PathDeny)+len(p.PathAsk) > 0 {
		return ""
	}
	res := prog.runs(prog, narrow, j.a.stdinFrom)
	if len(res.cmds) == 0 || len(res.trees) == 0 {
		return ""
	}
	var why []string
	for _, c := range res.cmds {
		c = canonLayer(c)
		if ro, _ := readOnlyReason(c); !ro {
			return ""
		}
		if table {
			why = append(why, c[0].show()+" (read-only)")
			continue
		}
		r, _ := p.matchAllow(c)
		if r == nil {
			return ""
		}
		why = append(why, c[0].show()+" (read-only, allowed by "+r.String()+")")
	}
	j.runs = &res
	return "runs only " + strings.Join(why, ", ") + " on the files below " + joinArgs(res.trees)
}

// plainFind returns the trees a find prints the paths below, when the
// segment s is a find that prints them plainly: no format of its own, no
// link followed, nothing run, written or removed, every word known.
func plainFind(s *chain.Segment) ([]word, bool) {
	if s == nil || len(s.Args) == 0 || canonicalName(s.Args[0]) != "find" || hasUnknown(segArgv(s)) {
		return nil, false
	}
	for _, r := range s.Redirects {
		if r.Fd == 1 {
			return nil, false
		}
	}
	args := segArgv(s)
	for _, w := range args[1:] {
		if w.isOneOf("-L", "-H", "-follow", "-printf", "-ls", "-delete", "-files0-from") || isFindExec(w) {
			return nil, false
		}
	}
	if findGuard(nil, "find", args[1:]) != "" {
		return nil, false
	}
	return findTrees(args), true
}

// treeLinks looks through the tree t (as the program's cwd sees it) before
// the run: a symbolic link whose target is not fine to read, a name the
// command would split (splits), or more entries than it may look at make
// the segment ask. budget is what is left of maxTreeWalk.
func (j *segJudgement) treeLinks(env *pathEnv, cwd string, t word, splits bool, budget *int) {
	name, ok := t.known()
	if !ok {
		return
	}
	root := env.resolve(cwd, name)
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: the command cannot read it either
		}
		if *budget--; *budget < 0 {
			j.pathAsks = append(j.pathAsks, "more than "+strconv.Itoa(maxTreeWalk)+" files below "+quoteArg(name)+" to look through before the run")
			return filepath.SkipAll
		}
		if splits && strings.ContainsAny(d.Name(), " \t\n'\"\\") {
			j.pathAsks = append(j.pathAsks, "the name "+quoteArg(path)+" would be split by xargs")
			return filepath.SkipAll
		}
		if isLink(d.Type()) {
			f := fileArg{word: lit(path), role: roleRead, what: "link found below " + quoteArg(name)}
			if n := env.judgeFile(cwd, f); n.kind != noteOK {
				j.note(f, n)
			}
		}
		return nil
	})
}

// judgeRuns looks through the trees whose files the commands run get.
func (j *segJudgement) judgeRuns(env *pathEnv, cwd string) {
	if j.runs == nil {
		return
	}
	budget := maxTreeWalk
	for _, t := range j.runs.trees {
		j.treeLinks(env, cwd, t, j.runs.splits, &budget)
	}
}

// sensitiveBelow judges a removal below a directory (find -delete): every
// sensitive file below it whose name may match the expression is removed
// (a repository's .git, a .env), which asks in every mode; more entries
// than maxTreeWalk ask too.
func (j *segJudgement) sensitiveBelow(env *pathEnv, cwd string, f fileArg) {
	name, ok := f.word.known()
	if !ok {
		return
	}
	budget := maxTreeWalk
	_ = filepath.WalkDir(env.resolve(cwd, name), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if budget--; budget < 0 {
			j.facts.hard = true
			j.pathAsks = append(j.pathAsks, "more than "+strconv.Itoa(maxTreeWalk)+" files below "+quoteArg(name)+" to look through before the run")
			return filepath.SkipAll
		}
		if why := env.sensitive(path); why != "" && namesMatch(f.names, d.Name()) {
			j.facts.hard = true
			j.pathAsks = append(j.pathAsks, f.what+" "+quoteArg(name)+" may remove "+path+", which is sensitive: "+why)
			return filepath.SkipAll
		}
		return nil
	})
}

// namesMatch reports a name every pattern may match (no patterns: any).
func namesMatch(patterns []string, name string) bool {
	for _, p := range patterns {
		ok, err := filepath.Match(p, name)
		lok, _ := filepath.Match(p, strings.ToLower(name))
		if err == nil && !ok && !lok {
			return false
		}
	}
	return true
}
