package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// Judging one segment, in the order of docs/policy.md "Decisions": judge
// runs the steps top-down, each step a function below it. Deny (1) ends
// the judgement; ask rules (2) and structural asks (3) are collected
// before the allow rules (4) are looked at, so the decision can name both
// the rule that would allow and the reason it does not; paths (5) can
// still turn an allowed segment into ask.

// segFacts are what the chain-wide checks need from a segment.
type segFacts struct {
	cd, git, writes, redirects bool
	// dir is the directory the segment was judged in (resolved); planned
	// that the plan gave it (Segment.Dir), so that it is where the
	// segment runs.
	dir     string
	planned bool
	// suggest is set when a rule could allow the segment.
	suggest    bool
	suggestion string
	// editSuggestions are the Edit rules that would permit its writes.
	editSuggestions []string
	// hard is set when an ask rule or a sensitive path asks: no mode
	// lifts it.
	hard bool
	// runtime is set when the program is known only at run time: nothing,
	// not even the classifier, allows the segment.
	runtime bool
	// moved is set when the chain's Move made the segment ask: a
	// chain-wide check, which the classifier does not lift.
	moved bool
}

// segJudgement is what the steps have found out about one segment so far.
type segJudgement struct {
	seg   *chain.Segment
	a     *analysis
	sd    chain.SegmentDecision
	facts segFacts

	// asks are the reasons of steps 2 and 3: an ask rule and the
	// structural asks. Any of them makes the segment ask whatever allows
	// it, and they come first in the reasons.
	asks    []string
	askRule string
	// exactFull is an exact allow rule that spells out the segment's
	// assignments too (step 3 finds it, step 4 allows with it).
	exactFull *Rule
	// allowed and rule are step 4's finding; guardFired is the guard's
	// reason when it stopped an allow rule or the read-only table.
	allowed    bool
	rule       string
	guardFired string
	// runs is set when a rule covers the commands the program runs on the
	// files of trees judgePaths looks through (runs.go).
	runs *runsResult
	// pathAsks and pathOK are step 5's notes; writeAsks are the writes
	// that ask only for want of an Edit rule or acceptEdits; pathDeny a
	// Read or Edit deny (or a write in plan mode), with its rule.
	pathAsks, pathOK, writeAsks []string
	pathDeny, pathDenyRule      string
	// byRule is the allow rule step 4 allowed with; covering is the rule
	// naming the program whose own paths step 5 is judging (ownWrites).
	// inPlace says the rule allowed an in-place edit (sed -i), whose
	// files stay Edits: the rule does not cover them.
	byRule   *Rule
	covering *Rule
	inPlace  bool
	// reach is where the names an export sets go (exportReach).
	reach func(name string) string
}

// judge decides segment i, which starts in at (piped: in a pipeline of
// several stages, where a cd moves nothing) and reads in on standard
// input. It returns the decision, the facts for the chain-wide checks,
// and the directory later segments start in.
func (p *Policy) judge(s *chain.Segment, i int, at where, env *pathEnv, piped bool, in feed) (chain.SegmentDecision, segFacts, where) {
	if s.Compound != nil {
		s = s.CompoundFrame() // its own redirects; its parts are judged as chains (judgeCompound)
	}
	j := segJudgement{seg: s, sd: chain.SegmentDecision{Segment: i, Text: s.Text, Verdict: chain.Ask, Reasons: env.reasonRoom()}}
	if len(s.Args) == 0 {
		if len(s.Assigns) > 0 {
			p.judgeAssignments(&j)
		} else {
			j.reason("empty segment")
		}
		return j.sd, j.facts, at
	}
	j.a = env.analysis(s, in, at.real)
	j.reach = env.reach
	j.gatherFacts()
	if p.matchDeny(&j, env.deny) { // 1
		return j.sd, j.facts, at
	}
	p.matchAsk(&j, env.ask)       // 2
	p.structuralAsks(&j)          // 3
	p.findAllow(&j)               // 4
	next := j.judgePaths(env, at) // 5
	j.conclude()
	if piped {
		next = at
	}
	return j.sd, j.facts, next
}

// reason adds a reason to the decision, in the order the steps find them.
func (j *segJudgement) reason(r string) { j.sd.Reasons = append(j.sd.Reasons, r) }

// gatherFacts records what the chain-wide checks need whatever the
// verdict: whether the segment runs a program that obeys the repository's
// configuration (git) anywhere and whether it is a cd.
func (j *segJudgement) gatherFacts() {
	s, a := j.seg, j.a
	for _, l := range a.layers {
		if p := lookupWord(l[0]); p != nil && p.repoConfig {
			j.facts.git = true
		}
	}
	j.facts.cd = s.Builtin == chain.BuiltinCd || (s.Builtin == "" && len(a.layers) > 0 && a.layers[0][0].is("cd"))
}

// matchDeny is step 1: the first deny rule that matches any view of the
// segment (every layer, every shell-body segment) denies it.
//
// A deny rule that matches only if words known only at run time turn out
// to be what it names does not deny before the run: it asks (hard, so no
// mode lifts it), and the engine judges the segment again on its real
// words just before it starts, where the rule denies if it matches. So
// `$CMD x` with CMD unknown asks, and `rm $FLAGS /` with FLAGS=-rf is
// stopped when it runs.
func (p *Policy) matchDeny(j *segJudgement, deny []ruleForm) bool {
	var maybe *ruleForm
	for k := range deny {
		f := &deny[k]
		if !matchBroad(f, j.a, true) {
			continue
		}
		if hasUnknown(j.a.argv) && !matchBroad(f, j.a, false) {
			if maybe == nil {
				maybe = f
			}
			continue
		}
		j.sd.Verdict = chain.Deny
		j.sd.Rule = f.r.Text
		j.reason(j.a.ruleReason("deny", f))
		return true
	}
	if maybe != nil {
		j.askRule = maybe.r.Text
		j.asks = append(j.asks, j.a.ruleReason("deny", maybe)+"; it is judged again on its real value when it starts")
		j.facts.hard = true
	}
	return false
}

// matchAsk is step 2: the first ask rule that matches any view makes the
// segment ask, and is the rule the decision names.
func (p *Policy) matchAsk(j *segJudgement, ask []ruleForm) {
	if j.askRule != "" {
		return // a deny rule that may match asks already (matchDeny)
	}
	for k := range ask {
		f := &ask[k]
		if matchBroad(f, j.a, true) {
			j.askRule = f.r.Text
			j.asks = append(j.asks, j.a.ruleReason("ask", f))
			j.facts.hard = true
			return
		}
	}
}

// structuralAsks is step 3: what analyze found (shells, wrappers,
// look-alikes) and every variable put into the environment that is not on
// the safe-list (env.go). An exact rule that spells the segment's own
// assignments out is taken as written.
func (p *Policy) structuralAsks(j *segJudgement) {
	j.asks = append(j.asks, j.a.asks...)
	n := len(j.asks)
	j.asks = append(j.asks, exportAsks(j.seg, j.reach)...)
	j.asks = append(j.asks, p.builtinAsks(j.seg)...)
	j.asks = append(j.asks, p.givenAsks()...)
	if j.a.runtime != "" {
		j.facts.hard, j.facts.runtime = true, true
	}
	j.exactFull = p.exactFull(j.seg, j.a.argv)
	if j.exactFull == nil {
		j.asks = append(j.asks, p.envAsks(j.a)...)
	}
	if len(j.asks) > n {
		j.facts.hard = true // a variable not on the safe-list: no mode lifts it
	}
}

// findAllow is step 4: an exact rule spelling the whole segment; else the
// narrow view, when there is one, against the allow rules, the engine
// built-ins and the read-only table. A program known only at run time is
// not looked up at all: step 3 asked, and nothing may allow it.
func (p *Policy) findAllow(j *segJudgement) {
	switch {
	case j.a.runtime != "":
	case j.exactFull != nil:
		j.byRule = j.exactFull
		j.allow(j.exactFull.Text, "matches exact allow rule "+j.exactFull.String())
	case j.a.narrow == nil:
		j.reason(j.a.narrowWhy)
	default:
		p.allowNarrow(j)
	}
	if j.askRule != "" {
		j.rule = j.askRule
	}
}

// allow records that step 4 allows the segment, with rule ("" for the
// built-ins and the read-only table).
func (j *segJudgement) allow(rule, reason string) {
	j.allowed, j.rule = true, rule
	j.reason(reason)
}

// guardStops records that the guard kept an allow rule or the read-only
// table from allowing: the suggestion is then the exact command.
func (j *segJudgement) guardStops(why, reason string) {
	j.guardFired = why
	j.reason(reason)
}

// allowNarrow judges the allow view: an exact or catch-all rule is taken
// as written; a prefix or glob rule only when the dangerous-flag guard is
// quiet; then the built-ins and, when switched on, the read-only table.
func (p *Policy) allowNarrow(j *segJudgement) {
	narrow := j.a.narrow
	s := j.seg
	if r, exact := p.matchAllow(narrow); r != nil {
		j.allowByRule(p, r, exact)
	} else if s.Builtin != "" && s.Builtin != chain.BuiltinCd {
		j.allow("", "engine built-in "+string(s.Builtin))
	} else if j.facts.cd {
		j.allow("", "cd is an engine built-in; its target is judged below")
	} else if p.Mode == ModeAcceptEdits && acceptEditsCommand(narrow) {
		j.allow("", "acceptEdits mode allows "+canonWord(narrow[0]).show()+"; its paths are judged below")
	} else if p.ReadOnlyAutoAllow {
		if ok, why := readOnlyReason(narrow); ok {
			j.allow("", "read-only command "+canonWord(narrow[0]).show()+" (auto-allowed)")
		} else if runs := p.runsReaders(j, true); runs != "" {
			j.allow("", "read-only command "+canonWord(narrow[0]).show()+" (auto-allowed): "+runs)
		} else if why != "" {
			j.guardStops(why, "guard: "+why)
		}
	}
	if !j.allowed && j.guardFired == "" {
		j.reason("no allow rule matches `" + joinArgs(narrow) + "`")
	}
}

// allowByRule allows with r, unless r is a prefix or glob rule (not
// exact) and the guard finds a flag that makes the command write files or
// run programs: such a rule was written for reading. An in-place edit of
// the file operands (sed -i) is the exception: the path step judges those
// files as Edits, as it judges a redirect; and runsReaders lifts the guard
// of a program running only allowed readers (runs.go).
func (j *segJudgement) allowByRule(p *Policy, r *Rule, exact bool) {
	edits := ""
	if !exact {
		g := guard(j.a.narrow)
		if g != "" && !guardEditsOnly(j.a.narrow, g) {
			if why := p.runsReaders(j, false); why != "" {
				j.byRule = r
				j.allow(r.Text, "matches "+r.Match.String()+" allow rule "+r.String()+"; "+why)
				return
			}
			j.guardStops(g, "guard: "+g+"; rule "+r.String()+" does not cover it (an exact rule would)")
			return
		}
		if g != "" {
			edits = "; " + g + ": Edits of its files, judged below"
			j.inPlace = true
		}
	}
	j.byRule = r
	j.allow(r.Text, "matches "+r.Match.String()+" allow rule "+r.String()+edits)
}

// exactFull finds an exact allow rule that spells out the whole segment,
// assignments included (argv is the segment's, as judged).
func (p *Policy) exactFull(s *chain.Segment, argv []word) *Rule {
	if len(s.Assigns) == 0 {
		return nil
	}
	for k := range p.Allow {
		r := &p.Allow[k]
		if r.Match == Exact && tokensEqual(argv, r.Tokens) && slices.EqualFunc(r.Assigns, s.Assigns, sameAssign) {
			return r
		}
	}
	return nil
}

// sameAssign compares what an assignment sets, not where it was written:
// the rule's a with the segment's b, whose value may be known only at run
// time (then it is no rule's value).
func sameAssign(a, b chain.Assign) bool {
	return a.Name == b.Name && tokenEqual(assignValue(b), a.Value, false)
}

// matchAllow finds an allow rule for the narrow view: exact and catch-all
// rules first (they bypass the guard), then prefix and glob rules.
func (p *Policy) matchAllow(narrow []word) (*Rule, bool) {
	for k := range p.Allow {
		r := &p.Allow[k]
		if (r.Match == Exact && len(r.Assigns) == 0 || r.Match == Any) && !namesOther(r, narrow[0]) && r.matchArgs(narrow, false) {
			return r, true
		}
	}
	for k := range p.Allow {
		r := &p.Allow[k]
		if r.Match != Prefix && r.Match != Glob || namesOther(r, narrow[0]) {
			continue
		}
		if r.Match == Glob && len(r.Tokens) == 0 && !isBareName(narrow[0]) {
			// A wildcard in the program word never matches a path or a
			// non-ASCII name.
			continue
		}
		if r.matchArgs(narrow, false) {
			return r, false
		}
	}
	return nil, false
}

// namesOther reports an allow rule whose program word is not w, the
// program word of the allow view: every kind of rule compares that word
// first, and a word known only at run time equals none, so matchArgs would
// say no; the loops of matchAllow pass over such a rule without the call.
func namesOther(r *Rule, w word) bool {
	return len(r.Tokens) > 0 && !w.is(r.Tokens[0])
}

// isBareName reports a program word a wildcard may match: plain ASCII, no
// directory; a word known only at run time is none.
func isBareName(w word) bool {
	s, ok := w.known()
	return ok && s != "" && isASCII(s) && !strings.ContainsAny(s, `/\`)
}

// matchBroad matches a deny or ask rule against every view of a segment:
// each unwrapped layer (argv[0] canonical, global options skipped), the
// allow view and the segment as written. With flags in the rule, they
// match as a set. pessimistic reads words known only at run time as
// anything (what deny and ask rules do); without it they match nothing,
// which tells a certain match from a possible one.
func matchBroad(f *ruleForm, a *analysis, pessimistic bool) bool {
	r := f.r
	for _, l := range a.layers {
		if f.view(l, true, pessimistic) {
			return true
		}
	}
	if r.Match == Exact && len(r.Assigns) > 0 && r.matchView(a.argv, r.Tokens[0], false, pessimistic) {
		return true
	}
	// The argv as written and the allow view are often the very slice the
	// first layer is (argv[0] already canonical); a canonical match covers
	// them then.
	raw := a.argv
	rawCovered := len(a.layers) > 0 && sameSlice(a.layers[0], raw)
	narrowSame := a.narrow != nil && sameSlice(a.narrow, raw)
	if len(a.narrow) > 0 && !(narrowSame && rawCovered) && f.view(a.narrow, false, pessimistic) {
		return true
	}
	return !rawCovered && !narrowSame && r.matchView(raw, f.raw, false, pessimistic)
}

// ruleReason is the reason a matching deny or ask rule (kind) gives: it
// matches, or, when it matches only if words known only at run time turn
// out to be what it names, it may match, and the reason names them.
func (a *analysis) ruleReason(kind string, f *ruleForm) string {
	if words := runtimeWords(a.argv); words != "" && !matchBroad(f, a, false) {
		return "may match " + kind + " rule " + f.r.String() + ": " + words + " known only at run time"
	}
	return "matches " + kind + " rule " + f.r.String()
}

// sameSlice reports whether a and b are the same slice of the same array.
func sameSlice(a, b []word) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// judgePaths is step 5: redirects (the segment's and those inside a shell
// body), the files every command found reads and writes (access.go), the
// files wrapper options and sed scripts name, and a cd's target. It
// returns the directory the next segment starts in.
func (j *segJudgement) judgePaths(env *pathEnv, at where) where {
	cwd := at.real
	for _, r := range j.seg.Redirects {
		j.redirect(env, cwd, r)
	}
	for _, c := range j.a.cmds {
		for _, r := range c.redirects {
			j.redirect(env, cwd, r)
		}
		if len(c.args) > 0 && !c.args[0].is("cd") {
			p := lookupWord(c.args[0])
			dir := j.gitDir(env, cwd, p, c.args)
			j.covering = j.namingRule(c.args[0])
			for _, f := range p.paths(c.args) {
				if !c.found || !f.word.is("{}") {
					j.file(env, dir, f)
				}
			}
			j.covering = nil
			j.words(env, dir, p, c.args)
			j.treeReads(env, dir, p, c.args)
		}
	}
	for _, f := range builtinFiles(j.seg) {
		j.file(env, cwd, f)
	}
	for _, f := range j.a.files {
		j.file(env, cwd, f)
	}
	j.judgeRuns(env, cwd)
	if !j.facts.cd {
		return at
	}
	return j.judgeCd(env, at)
}

// gitDir is the directory a command's paths are relative to: cwd, or
// where git -C leads, which is judged as cd's target is and, as git after
// a cd, asks when git there obeys another repository's configuration
// than in the directory the chain started in.
func (j *segJudgement) gitDir(env *pathEnv, cwd string, p *program, args []word) string {
	if p == nil || !p.repoConfig {
		return cwd
	}
	dirs, unknown := gitDirs(args)
	if unknown {
		j.facts.hard = true
		j.pathAsks = append(j.pathAsks, "git -C goes to a directory known only at run time: its repository configuration can run programs")
		return cwd
	}
	dir := cwd
	for _, d := range dirs {
		j.file(env, dir, fileArg{word: lit(d), role: roleRead, what: "git -C"})
		dir = env.resolve(dir, d)
	}
	if len(dirs) > 0 {
		if why := otherRepo(env.resolveDir(env.startDir), dir); why != "" {
			j.pathAsks = append(j.pathAsks, "git -C "+dir+", where "+why+": "+cdGitRisk)
		}
	}
	return dir
}

// file judges one path and files the note: a deny first, asks before fine
// paths in the reasons.
func (j *segJudgement) file(env *pathEnv, cwd string, f fileArg) {
	switch f.role {
	case roleList:
		j.list(env, cwd, f)
		return
	case roleDiff:
		j.diff(env, cwd, f)
		return
	case roleSums:
		j.sums(env, cwd, f)
		return
	}
	j.note(f, j.ownWrite(env, cwd, f, env.judgeFile(cwd, f)))
	if f.below {
		j.sensitiveBelow(env, cwd, f)
	}
	if f.role == roleRemove && f.tree == treeNone {
		f.tree = treeBelow // removing a directory removes what is below it
	}
	if f.tree != treeNone {
		j.treeWrite(env, cwd, f)
	}
}

// namingRule is the allow rule that allowed the segment when it names
// prog, the program of a command in it, by name: an exact, prefix or glob
// rule whose first word is prog. A catch-all (Bash, Bash(*)), a wildcard
// in the program word, the read-only table and the modes name nothing; an
// in-place edit the guard let through as Edits (sed -i) is not covered.
func (j *segJudgement) namingRule(prog word) *Rule {
	r := j.byRule
	if r == nil || r.Match == Any || j.inPlace {
		return nil
	}
	name, ok := canonWord(prog).known()
	if w := r.programWord(true); !ok || w == "" || w != canonicalName(name) {
		return nil
	}
	return r
}

// ownWrite is n, the note on f, unless f is a write of the program an
// allow rule names (covering) and n asks only for want of an Edit rule or
// acceptEdits: that is a write inside the roots no deny, ask rule,
// sensitive path or dangerous removal stopped, and the rule naming the
// program covers it, as Claude Code's prefix rule and path check do.
// Redirects are never a program's own paths, and a write that reaches
// files the plan cannot name (a tree copied, extracted or checked out
// below a directory) is more than its operand: they keep needing Edit
// permission. A removal's tree plants nothing.
func (j *segJudgement) ownWrite(env *pathEnv, cwd string, f fileArg, n pathNote) pathNote {
	if n.kind != noteWrite || j.covering == nil {
		return n
	}
	path, _ := f.word.known()
	if f.tree != treeNone && f.role != roleRemove && (f.tree != treeBelow || isDir(env.resolve(cwd, path))) {
		return n
	}
	return pathNote{msg: f.what + " " + quoteArg(path) + " is inside the roots, a write of the program rule " + j.covering.String() + " names"}
}

// isDir reports an existing directory (a link to one included).
func isDir(abs string) bool {
	fi, err := os.Stat(abs)
	return err == nil && fi.IsDir()
}

// treeWrite judges a write that reaches every file below f.word when it
// is a directory (treeBelow), where it makes a tree (treeNew), or every
// name starting with it (treePrefix):
// an Edit deny or ask rule that may name one of them asks, naming the rule
// (it cannot be checked file by file before the run). A prefix starting
// with a dot or "id_" may become a start-up, credential or key file.
func (j *segJudgement) treeWrite(env *pathEnv, cwd string, f fileArg) {
	name, ok := f.word.known()
	if !ok {
		return
	}
	abs := env.resolve(cwd, name)
	if fi, err := os.Stat(abs); f.tree != treeNew && (err != nil || !fi.IsDir()) {
		if f.tree == treeBelow {
			return
		}
		if base := filepath.Base(abs); strings.HasPrefix(base, ".") || strings.HasPrefix(base, "id_") {
			j.facts.hard = true
			j.pathAsks = append(j.pathAsks, f.what+" "+quoteArg(name)+" names files starting with "+quoteArg(base)+
				", which may be start-up, credential or key files")
		}
		abs = filepath.Dir(abs)
	}
	key := pathKey(abs, env.keys.fold)
	for _, rules := range [][]PathRule{env.p.PathDeny, env.p.PathAsk} {
		for i := range rules {
			if r := &rules[i]; r.Tool == "Edit" && r.mayMatchUnder(key, &env.keys) {
				j.facts.hard = true
				j.pathAsks = append(j.pathAsks, f.what+" "+quoteArg(name)+" writes files below "+abs+", which may hold a path of rule "+r.String())
				return
			}
		}
	}
}

// note files the note n on the path f.
func (j *segJudgement) note(f fileArg, n pathNote) {
	if f.role.writes() {
		j.facts.writes = true
	}
	switch n.kind {
	case noteDeny:
		if j.pathDeny == "" {
			j.pathDeny, j.pathDenyRule = n.msg, n.rule
		}
	case noteHard:
		j.facts.hard = true
		j.pathAsks = append(j.pathAsks, n.msg)
		if n.rule != "" && j.askRule == "" {
			j.askRule = n.rule
		}
	case noteAsk:
		j.pathAsks = append(j.pathAsks, n.msg)
	case noteWrite:
		j.writeAsks = append(j.writeAsks, n.msg)
	default:
		j.pathOK = append(j.pathOK, n.msg)
	}
	if n.suggest != "" && (n.kind == noteWrite || n.kind == noteAsk) {
		j.facts.editSuggestions = append(j.facts.editSuggestions, n.suggest)
	}
}

// treeReads judges a command that reads whole directory trees: following
// symlinks while walking may leave the roots (ask), and a tree holding a
// path a Read deny or ask rule names asks, naming the rule (a rule cannot
// be checked file by file inside another program). A tree known only at
// run time may hold any path.
func (j *segJudgement) treeReads(env *pathEnv, cwd string, p *program, args []word) {
	dirs, follow := p.treeReads(args)
	if follow != "" {
		j.pathAsks = append(j.pathAsks, args[0].show()+" "+follow+" follows symbolic links while walking directories, which can lead outside the roots")
	}
	for _, d := range dirs {
		path, known := d.known()
		runtime, key := !known, ""
		if known {
			key = pathKey(env.resolve(cwd, path), env.keys.fold)
		}
		for _, rules := range [][]PathRule{env.p.PathDeny, env.p.PathAsk} {
			for i := range rules {
				if r := &rules[i]; r.Tool == "Read" && (runtime || r.mayMatchUnder(key, &env.keys)) {
					j.facts.hard = true
					j.pathAsks = append(j.pathAsks, args[0].show()+" reads the tree "+quoteWord(d)+" recursively, which may hold a path of rule "+r.String())
					return
				}
			}
		}
	}
}

// redirect judges one redirect; a write counts for the chain-wide cd check.
func (j *segJudgement) redirect(env *pathEnv, cwd string, r chain.Redirect) {
	f, ok := judgeRedirect(r)
	if !ok {
		return
	}
	j.file(env, cwd, f)
	j.facts.redirects = j.facts.redirects || f.role.writes()
}

// judgeCd judges the directory cd enters, computed by bash's one cd
// (spec.Cd, as the runner and the plan compute it): -L/-P options and
// "--" first; the target joined to the logical directory and cleaned
// lexically ("link/.." is where cd started, not the link's parent); -P
// resolves it. The plan's directory wins where the chain was planned
// (cdTarget). The resolved directory is judged; "cd -", a target known
// only at run time and one CDPATH may lead elsewhere (which may be
// anywhere, a sensitive directory included) cannot be known before the
// chain runs.
func (j *segJudgement) judgeCd(env *pathEnv, at where) where {
	args := j.a.argv[1:]
	if hasUnknown(args) {
		j.facts.hard = true
		j.pathAsks = append(j.pathAsks, "cd "+joinArgs(args)+" goes to a directory known only at run time")
		return at
	}
	w := env.cdTarget(j.seg, at)
	switch {
	case w.unknown != "":
		j.pathAsks = append(j.pathAsks, w.unknown)
		return at
	case w.fails != "":
		j.pathOK = append(j.pathOK, w.fails)
		return at
	case w.logical == "":
		return at
	}
	real := resolvePath(w.logical)
	if msg, hard := env.judgeDir("cd "+quoteArg(w.target), real); msg != "" {
		j.facts.hard = j.facts.hard || hard
		j.pathAsks = append(j.pathAsks, msg)
	} else {
		j.pathOK = append(j.pathOK, "cd "+quoteArg(w.target)+" stays inside the roots ("+real+")")
	}
	return where{logical: w.logical, real: real}
}

// judgeDir judges the directory real that a cd (or a Move) named what
// enters: outside the roots it asks, a sensitive directory asks in every
// mode (hard); "" when it stays inside the roots.
func (e *pathEnv) judgeDir(what, real string) (msg string, hard bool) {
	if !e.inRoots(real) {
		return what + " leaves the roots (" + real + ")", false
	}
	if why := e.sensitive(real); why != "" {
		return what + " enters a sensitive directory: " + why, true
	}
	return "", false
}

// conclude orders the reasons (asks, then what steps 4 and 5 found) and
// sets the verdict: allow only when something allowed the segment and no
// step asked. A segment that asks only for want of a rule gets a
// suggestion: the exact command when the guard stopped a rule (a prefix
// would be stopped again), else Suggest's rule.
func (j *segJudgement) conclude() {
	sd := &j.sd
	if j.pathDeny != "" {
		sd.Verdict, sd.Rule = chain.Deny, j.pathDenyRule
		sd.Reasons = append([]string{j.pathDeny}, sd.Reasons...)
		return
	}
	if len(j.asks) > 0 {
		sd.Reasons = append(j.asks, sd.Reasons...)
	}
	sd.Reasons = append(sd.Reasons, j.pathAsks...)
	sd.Reasons = append(sd.Reasons, j.writeAsks...)
	sd.Reasons = append(sd.Reasons, j.pathOK...)
	sd.Rule = j.rule
	asked := len(j.asks) > 0 || len(j.pathAsks) > 0
	if j.allowed && !asked && len(j.writeAsks) == 0 {
		sd.Verdict = chain.Allow
		return
	}
	sd.Verdict = chain.Ask
	if asked {
		return
	}
	j.facts.suggest = true
	if j.allowed {
		return // only the writes asked: the Edit suggestions say what to add
	}
	switch {
	case j.guardFired == "":
		j.facts.suggestion = Suggest(j.seg)
	case j.a.narrow != nil:
		j.facts.suggestion = exactSuggestion(j.a.narrow)
	}
}
