package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/sandbox"
)

// MaxSegments is the chain length beyond which a chain is asked about as a
// whole. The deny scan still covers every segment.
const MaxSegments = 50

// MaxSource is the command-line length beyond which a chain is asked about.
const MaxSource = 10000

// Policy is a set of permission rules and the settings they are judged
// with. The zero value asks about everything. A Policy is safe for
// concurrent use once built.
type Policy struct {
	// Allow, Ask and Deny hold the rules; deny beats ask beats allow,
	// whatever their order or specificity.
	Allow, Ask, Deny []Rule
	// PathAllow, PathAsk and PathDeny hold the Read and Edit rules, which
	// judge the paths a segment reads and writes; deny beats ask beats
	// allow here too, and a path denied denies its segment.
	PathAllow, PathAsk, PathDeny []PathRule
	// Mode is the permission mode; "" is ModeDefault.
	Mode Mode
	// Roots are the directories a chain may touch (writes, cd, paths);
	// empty means the directory the chain starts in.
	Roots []string
	// AdditionalDirectories are working directories added to the roots
	// (or to the start directory when there are no roots): Claude Code's
	// permissions.additionalDirectories and --add-dir.
	AdditionalDirectories []string
	// Protect names files the judgement depends on (the settings files
	// read, the audit log): always sensitive, so no chain can rewrite the
	// rules it is judged by or truncate the record of what ran.
	Protect []string
	// ReadOnlyAutoAllow allows a built-in table of read-only commands
	// without rules, under the same guard and path checks, as Claude Code
	// does. Settings files (Load, Parse) switch it on unless they set
	// "readOnlyAutoAllow": false; a Policy built in code sets it itself.
	ReadOnlyAutoAllow bool
	// Classifier, if set, is consulted for segments judged ask.
	Classifier Classifier
	// Home is the home directory for ~ and sensitive paths; "" means
	// os.UserHomeDir.
	Home string

	// Sandbox is the "sandbox" block of the settings files read, merged as
	// Claude Code merges it. The policy only reads it; SandboxBoundary
	// turns it, the roots and the Read and Edit rules into the boundary a
	// caller confines chains to.
	Sandbox sandbox.Config
	// Sandboxed is the boundary the chains judged will run inside, set
	// by the caller that confines them (engine.Options.Sandbox); nil when
	// they run unconfined. With it and autoAllowBashIfSandboxed, a
	// segment that asks only for want of a rule is allowed (sandbox.go).
	Sandboxed *sandbox.Boundary

	// sandbox is one file's block and where its paths resolve from, for
	// LoadFiles to merge in order.
	sandbox struct {
		s  *sandbox.Settings
		at sandbox.Places
	}

	// environ and given are ForEnv's: the environment chains start with
	// (nil: this process's) and the names in it set from outside the
	// command line.
	environ []string
	given   []givenVar
	// move is After's: how the chains' start directory was reached.
	move *Move

	readOnlySet bool // Parse saw readOnlyAutoAllow, so Load lets it override
	noBypass    bool // managed settings disable bypassPermissions (SetMode)
}

// Classifier lets a caller judge ask verdicts itself, for example with a
// model reading the user's natural-language descriptions. It is consulted
// only for segments judged ask; an answer of Allow or Deny replaces the
// ask, any other answer (or an error) leaves it. It never sees denied
// segments, so it cannot override a deny.
type Classifier interface {
	Classify(ctx context.Context, seg *chain.Segment, d *chain.SegmentDecision) (chain.Verdict, error)
}

// ClassifierFunc adapts a function to Classifier.
type ClassifierFunc func(ctx context.Context, seg *chain.Segment, d *chain.SegmentDecision) (chain.Verdict, error)

// Classify calls f.
func (f ClassifierFunc) Classify(ctx context.Context, seg *chain.Segment, d *chain.SegmentDecision) (chain.Verdict, error) {
	return f(ctx, seg, d)
}

var _ chain.Authorizer = (*Policy)(nil)

// Authorize judges every segment of c, starting in dir, and the chain as a
// whole. It implements chain.Authorizer. It returns an error, and no
// decision, for a rule whose fields contradict each other (see Rule): a
// policy that does not say what its author meant must not judge.
func (p *Policy) Authorize(ctx context.Context, c *chain.Chain, dir string) (*chain.Decision, error) {
	if c == nil {
		return nil, errors.New("policy: nil chain")
	}
	if err := p.checkRules(); err != nil {
		return nil, err
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("policy: %w", err)
		}
		dir = wd
	}
	dir, _ = filepath.Abs(dir)
	segs := c.Segments()
	d := &chain.Decision{
		Verdict:     chain.Allow,
		Segments:    make([]chain.SegmentDecision, len(segs)),
		Suggestions: []string{},
	}
	if _, err := ParseMode(string(p.Mode)); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	ws := workspaces.Get().(*workspace)
	defer ws.release()
	env := &pathEnv{p: p, startDir: dir, planned: plannedDirs(c), cdpathAt: firstCdPathSet(segs), segs: len(segs), scratch: &ws.a}
	ws.forms, env.deny, env.ask = ruleForms(ws.forms, p)
	at := where{logical: cleanAbs(dir), real: env.resolveDir(dir)}
	facts := make([]segFacts, len(segs))
	quiet := quietFor(ctx, segs)
	reach := exportReach(c)
	i := 0
	for _, pl := range c.Pipelines {
		for k, s := range pl.Segments {
			env.quiet = quiet[i] && s.Dir != "" // a segment the plan placed
			env.reach = reach[i]
			if s.Dir != "" && s.Dir != at.logical {
				at = where{logical: s.Dir, real: env.resolveDir(s.Dir)} // the plan's directory
			}
			here := at
			d.Segments[i], facts[i], at = p.judge(s, i, at, env, len(pl.Segments) > 1, stdinFeed(pl.Segments, k))
			facts[i].dir, facts[i].planned = here.real, s.Dir != ""
			i++
		}
	}
	p.chainChecks(c, segs, d, facts, env.resolveDir(dir))
	p.judgeMove(env, d, facts)
	if err := p.classify(ctx, segs, d, facts); err != nil {
		return nil, err
	}
	p.applyMode(d, facts)
	p.autoAllowSandboxed(segs, d, facts)
	if err := p.judgeSubsts(ctx, segs, dir, d); err != nil {
		return nil, err
	}
	for i := range d.Segments {
		d.Verdict = chain.Stricter(d.Verdict, d.Segments[i].Verdict)
	}
	if len(d.Chain) > 0 {
		d.Verdict = chain.Stricter(d.Verdict, p.chainAskVerdict())
	}
	addSuggestions(d, facts)
	return d, nil
}

// workspace is the memory one Authorize call works in and hands nothing
// of to its decision: the analysis its segments are read into one after
// the other (pathEnv.analysis) and the forms of the policy's deny and ask
// rules. Calls take one from a pool and give it back, so that a call
// allocates neither; what the judgement keeps (reasons, facts) is copied
// out of it.
type workspace struct {
	a     analysis
	forms []ruleForm
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// release forgets what the call left in w, so a pooled workspace holds no
// chain or policy alive, and returns w to the pool.
func (w *workspace) release() {
	w.a = analysis{}
	clear(w.forms)
	w.forms = w.forms[:0]
	workspaces.Put(w)
}

// cleanAbs is filepath.Clean of what filepath.Abs returned: Abs cleans
// what it returns, and returns "" only when it failed.
func cleanAbs(abs string) string {
	if abs == "" {
		return "."
	}
	return abs
}

// reasonsPerSegment is the room reasonRoom gives a segment: an allowed
// segment has its rule's reason and, with a path, the path's.
const reasonsPerSegment = 2

// reasonRoom is an empty reason list with room for reasonsPerSegment,
// cut from one array per call rather than allocated per segment; its
// capacity ends where the next segment's room begins, so appending beyond
// it copies.
func (e *pathEnv) reasonRoom() []string {
	if cap(e.reasons)-len(e.reasons) < reasonsPerSegment {
		e.reasons = make([]string, 0, reasonsPerSegment*max(e.segs, 1))
	}
	n := len(e.reasons)
	e.reasons = e.reasons[:n+reasonsPerSegment]
	return e.reasons[n : n : n+reasonsPerSegment]
}

// checkRules refuses a policy holding a rule built with contradictory
// fields (Rule.check), naming the list and the entry.
func (p *Policy) checkRules() error {
	lists := [...]struct {
		name  string
		rules []Rule
	}{{"allow", p.Allow}, {"ask", p.Ask}, {"deny", p.Deny}}
	for _, l := range lists {
		for i := range l.rules {
			if err := l.rules[i].check(); err != nil {
				return fmt.Errorf("policy: %s rule %d %q: %w", l.name, i, l.rules[i].Text, err)
			}
		}
	}
	return nil
}

// classify lets the Classifier lift or harden the segments judged ask. It
// runs after the chain-wide checks, which it cannot lift, and never sees a
// denied segment; it cannot lift a program known only at run time either.
func (p *Policy) classify(ctx context.Context, segs []*chain.Segment, d *chain.Decision, facts []segFacts) error {
	if p.Classifier == nil {
		return nil
	}
	for i := range d.Segments {
		if err := ctx.Err(); err != nil {
			return err
		}
		sd := &d.Segments[i]
		if sd.Verdict != chain.Ask {
			continue
		}
		v, err := p.Classifier.Classify(ctx, segs[i], sd)
		switch {
		case err != nil:
			sd.Reasons = append(sd.Reasons, "classifier failed, still ask: "+err.Error())
		case v == chain.Allow && facts[i].runtime:
			sd.Reasons = append(sd.Reasons, "classifier: allow ignored, the program is known only at run time")
		case v == chain.Allow && facts[i].moved:
			sd.Reasons = append(sd.Reasons, "classifier: allow ignored, the directory the chain was moved to asks")
		case v == chain.Allow || v == chain.Deny:
			sd.Verdict = v
			sd.Reasons = append(sd.Reasons, "classifier: "+string(v))
			if v == chain.Allow {
				facts[i].suggest = false
			}
		}
	}
	return nil
}

// addSuggestions adds the rule suggestions of the segments still judged ask, in
// segment order, without duplicates and at most MaxSuggestions: the Bash
// rule (command text) and, for writes that asked for want of permission,
// the Edit rules ("Edit(./notes.txt)").
func addSuggestions(d *chain.Decision, facts []segFacts) {
	for i, f := range facts {
		if !f.suggest || d.Segments[i].Verdict != chain.Ask {
			continue
		}
		for _, s := range append([]string{f.suggestion}, f.editSuggestions...) {
			if s != "" && len(d.Suggestions) < MaxSuggestions && !slices.Contains(d.Suggestions, s) {
				d.Suggestions = append(d.Suggestions, s)
			}
		}
	}
}

// where is the directory a segment starts in: as the runner holds it
// (logical, "cd link/.." is lexical) and resolved on disk (what a
// program's relative paths are relative to).
type where struct{ logical, real string }

// cdGitRisk is why git after a change of directory asks, in the chain
// (chainChecks) or before it (Move).
const cdGitRisk = "the new directory's repository configuration can run programs"

// chainChecks adds the chain-wide reasons: too many segments, too long, more
// than one cd; and after a cd, git in a directory the plan does not know or
// that belongs to another repository than start's (repo.go), and a write or
// a redirect in a directory the plan does not know. Where the plan knows
// each segment's directory, its paths were judged there.
func (p *Policy) chainChecks(c *chain.Chain, segs []*chain.Segment, d *chain.Decision, facts []segFacts, start string) {
	if n := len(facts); n > MaxSegments {
		d.Chain = append(d.Chain, fmt.Sprintf("chain has %d segments, more than %d", n, MaxSegments))
	}
	if len(c.Source) > MaxSource {
		d.Chain = append(d.Chain, fmt.Sprintf("command line is %d bytes, more than %d", len(c.Source), MaxSource))
	}
	cds := 0
	var git, writes string
	for i, f := range facts {
		if cds > 0 && f.git && git == "" {
			git = cdGit(f, start)
		}
		if cds > 0 && !f.planned && writes == "" && (f.writes || f.redirects || !f.cd && guardsWrite(segs[i])) {
			writes = "cd combined with a write or a redirect in a directory known only at run time: relative paths land there"
		}
		if f.cd {
			cds++
		}
	}
	if cds > 1 {
		d.Chain = append(d.Chain, fmt.Sprintf("chain changes directory %d times", cds))
	}
	if git != "" {
		d.Chain = append(d.Chain, git)
	}
	if writes != "" {
		d.Chain = append(d.Chain, writes)
	}
}

// guardsWrite reports a segment whose allow view (narrowView) holds a flag
// the guard knows as writing files or running programs: after a cd it
// counts as a write. The view is read again from the segment itself (the
// judgement's analysis is reused segment after segment), only for the
// chains with a cd that get this far.
func guardsWrite(s *chain.Segment) bool {
	if len(s.Args) == 0 {
		return false
	}
	narrow, _ := narrowView(s, segArgv(s))
	return narrow != nil && guard(narrow) != ""
}

// cdGit says why git after a cd asks: the plan does not know its
// directory, or git there obeys another repository's configuration than
// in start; "" when it finds the same repository.
func cdGit(f segFacts, start string) string {
	if !f.planned {
		return "cd combined with git in a directory known only at run time: " + cdGitRisk
	}
	if why := otherRepo(start, f.dir); why != "" {
		return "cd combined with git in " + f.dir + ", where " + why + ": " + cdGitRisk
	}
	return ""
}
