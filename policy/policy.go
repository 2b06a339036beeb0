package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/chainrun/chainrun/chain"
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
	// Roots are the directories a chain may touch (writes, cd, paths);
	// empty means the directory the chain starts in.
	Roots []string
	// ReadOnlyAutoAllow allows a built-in table of read-only commands
	// without rules, under the same guard and path checks.
	ReadOnlyAutoAllow bool
	// Classifier, if set, is consulted for segments judged ask.
	Classifier Classifier
	// Home is the home directory for ~ and sensitive paths; "" means
	// os.UserHomeDir.
	Home string

	readOnlySet bool // Parse saw readOnlyAutoAllow, so Load lets it override
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

// segFacts are what the chain-wide checks need from a segment.
type segFacts struct {
	cd, git, writes, redirects bool
	// narrow is the allow view, for the cd check: a flag the guard knows
	// as writing counts as a write.
	narrow []string
	// suggest is set when a rule could allow the segment.
	suggest    bool
	suggestion string
}

// Authorize judges every segment of c, starting in dir, and the chain as a
// whole. It implements chain.Authorizer.
func (p *Policy) Authorize(ctx context.Context, c *chain.Chain, dir string) (*chain.Decision, error) {
	if c == nil {
		return nil, errors.New("policy: nil chain")
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
	env := &pathEnv{p: p, startDir: dir}
	cwd := cachedResolve(dir)
	facts := make([]segFacts, len(segs))
	for i, s := range segs {
		var f segFacts
		d.Segments[i], f, cwd = p.judge(s, i, cwd, env)
		facts[i] = f
	}
	p.chainChecks(c, d, facts)
	if p.Classifier != nil {
		for i := range d.Segments {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sd := &d.Segments[i]
			if sd.Verdict != chain.Ask {
				continue
			}
			v, err := p.Classifier.Classify(ctx, segs[i], sd)
			switch {
			case err != nil:
				sd.Reasons = append(sd.Reasons, "classifier failed, still ask: "+err.Error())
			case v == chain.Allow || v == chain.Deny:
				sd.Verdict = v
				sd.Reasons = append(sd.Reasons, "classifier: "+string(v))
				if v == chain.Allow {
					facts[i].suggest = false
				}
			}
		}
	}
	for i := range d.Segments {
		d.Verdict = chain.Stricter(d.Verdict, d.Segments[i].Verdict)
	}
	if len(d.Chain) > 0 {
		d.Verdict = chain.Stricter(d.Verdict, chain.Ask)
	}
	for i, f := range facts {
		if !f.suggest || d.Segments[i].Verdict != chain.Ask || len(d.Suggestions) >= MaxSuggestions || f.suggestion == "" {
			continue
		}
		if !containsStr(d.Suggestions, f.suggestion) {
			d.Suggestions = append(d.Suggestions, f.suggestion)
		}
	}
	return d, nil
}

func containsStr(list []string, s string) bool { return contains(list, s) }

// chainChecks adds the chain-wide reasons: too many segments, too long, more
// than one cd, cd combined with git, a write or a redirect.
func (p *Policy) chainChecks(c *chain.Chain, d *chain.Decision, facts []segFacts) {
	if n := len(facts); n > MaxSegments {
		d.Chain = append(d.Chain, fmt.Sprintf("chain has %d segments, more than %d", n, MaxSegments))
	}
	if len(c.Source) > MaxSource {
		d.Chain = append(d.Chain, fmt.Sprintf("command line is %d bytes, more than %d", len(c.Source), MaxSource))
	}
	cds := 0
	var git, writes bool
	for _, f := range facts {
		if f.cd {
			cds++
		}
		git = git || f.git
		writes = writes || f.writes || f.redirects
	}
	if cds > 0 && !writes {
		for _, f := range facts {
			if f.narrow != nil && !f.cd && guard(f.narrow) != "" {
				writes = true
			}
		}
	}
	if cds > 1 {
		d.Chain = append(d.Chain, fmt.Sprintf("chain changes directory %d times", cds))
	}
	if cds > 0 && git {
		d.Chain = append(d.Chain, "cd combined with git: the new directory's repository configuration can run programs")
	}
	if cds > 0 && writes {
		d.Chain = append(d.Chain, "cd combined with a write or a redirect: relative paths land in the new directory")
	}
}

// judge decides one segment. It returns the decision, the facts for the
// chain-wide checks, and the directory later segments start in.
func (p *Policy) judge(s *chain.Segment, i int, cwd string, env *pathEnv) (chain.SegmentDecision, segFacts, string) {
	sd := chain.SegmentDecision{Segment: i, Verdict: chain.Ask, Reasons: make([]string, 0, 2)}
	var f segFacts
	if len(s.Args) == 0 {
		sd.Reasons = append(sd.Reasons, "empty segment")
		return sd, f, cwd
	}
	a := analyze(s)
	f.narrow = a.narrow
	for _, l := range a.layers {
		if l[0] == "git" {
			f.git = true
		}
	}
	f.cd = s.Builtin == chain.BuiltinCd || (s.Builtin == "" && len(a.layers) > 0 && a.layers[0][0] == "cd")

	// 1. Deny: every view, every layer, every shell-body segment.
	for k := range p.Deny {
		r := &p.Deny[k]
		if matchBroad(r, a) {
			sd.Verdict = chain.Deny
			sd.Rule = r.Text
			sd.Reasons = append(sd.Reasons, "matches deny rule "+r.String())
			return sd, f, cwd
		}
	}
	var asks []string
	askRule := ""
	// 2. Ask rules.
	for k := range p.Ask {
		r := &p.Ask[k]
		if matchBroad(r, a) {
			askRule = r.Text
			asks = append(asks, "matches ask rule "+r.String())
			break
		}
	}
	// 3. Structural: wrappers, shells, look-alikes, assignments.
	asks = append(asks, a.asks...)
	exactFull := p.exactFull(s)
	if exactFull == nil {
		for _, n := range a.envs {
			if isCodeRunnerEnv(n) {
				asks = append(asks, "assignment "+n+"= can make the program run other code")
			}
		}
	}
	structural := len(asks) > 0

	// 4. Allow.
	allowed := false
	rule := ""
	guardFired := ""
	switch {
	case exactFull != nil:
		allowed, rule = true, exactFull.Text
		sd.Reasons = append(sd.Reasons, "matches exact allow rule "+exactFull.String())
	case a.narrow == nil:
		sd.Reasons = append(sd.Reasons, a.narrowWhy)
	default:
		if r, exact := p.matchAllow(a.narrow); r != nil {
			if exact {
				allowed, rule = true, r.Text
				sd.Reasons = append(sd.Reasons, "matches "+kindWord(r)+" allow rule "+r.String())
			} else if g := guard(a.narrow); g != "" {
				guardFired = g
				sd.Reasons = append(sd.Reasons, "guard: "+g+"; rule "+r.String()+" does not cover it (an exact rule would)")
			} else {
				allowed, rule = true, r.Text
				sd.Reasons = append(sd.Reasons, "matches "+kindWord(r)+" allow rule "+r.String())
			}
		} else if s.Builtin != "" && s.Builtin != chain.BuiltinCd {
			allowed = true
			sd.Reasons = append(sd.Reasons, "engine built-in "+string(s.Builtin))
		} else if f.cd {
			allowed = true
			sd.Reasons = append(sd.Reasons, "cd is an engine built-in; its target is judged below")
		} else if p.ReadOnlyAutoAllow {
			if ok, why := readOnlyReason(a.narrow); ok {
				allowed = true
				sd.Reasons = append(sd.Reasons, "read-only command "+canonicalName(a.narrow[0])+" (auto-allowed)")
			} else if why != "" {
				guardFired = why
				sd.Reasons = append(sd.Reasons, "guard: "+why)
			}
		}
		if !allowed && guardFired == "" && rule == "" {
			sd.Reasons = append(sd.Reasons, "no allow rule matches `"+joinArgs(a.narrow)+"`")
		}
	}
	if askRule != "" {
		rule = askRule
	}

	// 5. Paths, redirects, cd.
	var pathAsks, pathOK []string
	note := func(n *pathNote) {
		switch {
		case n == nil:
		case n.ask:
			pathAsks = append(pathAsks, n.msg)
		default:
			pathOK = append(pathOK, n.msg)
		}
	}
	for _, r := range s.Redirects {
		n, writes := env.judgeRedirect(cwd, r)
		note(n)
		f.redirects = f.redirects || writes
	}
	for _, c := range a.cmds {
		for _, r := range c.redirects {
			n, writes := env.judgeRedirect(cwd, r)
			note(n)
			f.redirects = f.redirects || writes
		}
		if len(c.args) > 0 && c.args[0] != "cd" {
			notes, writes := env.judgeArgs(cwd, c.args)
			for i := range notes {
				note(&notes[i])
			}
			f.writes = f.writes || writes
		}
	}
	newCwd := cwd
	if f.cd {
		target := "~"
		if len(s.Args) > 1 {
			target = s.Args[1]
		}
		if target == "-" {
			pathAsks = append(pathAsks, "cd - goes to a directory not known before the chain runs")
		} else {
			abs := env.resolve(cwd, target)
			if !env.inRoots(abs) {
				pathAsks = append(pathAsks, "cd "+quoteArg(target)+" leaves the roots ("+abs+")")
			} else if why := env.sensitive(abs); why != "" {
				pathAsks = append(pathAsks, "cd "+quoteArg(target)+" enters a sensitive directory: "+why)
			} else {
				pathOK = append(pathOK, "cd "+quoteArg(target)+" stays inside the roots")
			}
			newCwd = abs
		}
	}

	if len(asks) > 0 {
		sd.Reasons = append(asks, sd.Reasons...)
	}
	sd.Reasons = append(sd.Reasons, pathAsks...)
	sd.Reasons = append(sd.Reasons, pathOK...)
	sd.Rule = rule
	if allowed && !structural && len(pathAsks) == 0 {
		sd.Verdict = chain.Allow
	} else {
		sd.Verdict = chain.Ask
		if !structural && len(pathAsks) == 0 {
			f.suggest = true
			if guardFired != "" {
				if a.narrow != nil {
					f.suggestion = exactSuggestion(a.narrow)
				}
			} else {
				f.suggestion = Suggest(s)
			}
		}
	}
	return sd, f, newCwd
}

func kindWord(r *Rule) string {
	switch r.Kind {
	case Exact:
		return "exact"
	case Prefix:
		return "prefix"
	case Glob:
		return "glob"
	}
	return "catch-all"
}

// exactFull finds an exact allow rule that spells out the whole segment,
// assignments included.
func (p *Policy) exactFull(s *chain.Segment) *Rule {
	if len(s.Assigns) == 0 {
		return nil
	}
	for k := range p.Allow {
		r := &p.Allow[k]
		if r.Kind != Exact || len(r.Assigns) != len(s.Assigns) || !slices.Equal(r.Tokens, s.Args) {
			continue
		}
		same := true
		for j := range r.Assigns {
			if r.Assigns[j].Name != s.Assigns[j].Name || r.Assigns[j].Value != s.Assigns[j].Value {
				same = false
				break
			}
		}
		if same {
			return r
		}
	}
	return nil
}

// matchAllow finds an allow rule for the narrow view: exact and catch-all
// rules first (they bypass the guard), then prefix and glob rules.
func (p *Policy) matchAllow(narrow []string) (*Rule, bool) {
	for k := range p.Allow {
		r := &p.Allow[k]
		if (r.Kind == Exact && len(r.Assigns) == 0 || r.Kind == Any) && r.matchArgs(narrow, false) {
			return r, true
		}
	}
	bare := isBareName(narrow[0])
	for k := range p.Allow {
		r := &p.Allow[k]
		if r.Kind != Prefix && r.Kind != Glob {
			continue
		}
		if r.Kind == Glob && len(r.Tokens) == 0 && !bare {
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

func isBareName(s string) bool {
	return s != "" && isASCII(s) && !containsAny(s, `/\`)
}

func containsAny(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

// matchBroad matches a deny or ask rule against every view of a segment:
// each unwrapped layer (argv[0] canonical, global options skipped), the
// allow view and the segment as written. With flags in the rule, they
// match as a set.
func matchBroad(r *Rule, a *analysis) bool {
	for _, l := range a.layers {
		if r.matchArgs(l, true) || r.matchFlagSet(l, true) {
			return true
		}
	}
	if r.Kind == Exact && len(r.Assigns) > 0 && slices.Equal(r.Tokens, a.seg.Args) {
		return true
	}
	// The argv as written and the allow view are often the very slice the
	// first layer is (argv[0] already canonical); a canonical match covers
	// them then.
	raw := a.seg.Args
	rawCovered := len(a.layers) > 0 && sameSlice(a.layers[0], raw)
	narrowSame := a.narrow != nil && sameSlice(a.narrow, raw)
	if len(a.narrow) > 0 && !(narrowSame && rawCovered) &&
		(r.matchArgs(a.narrow, false) || r.matchFlagSet(a.narrow, false)) {
		return true
	}
	return !rawCovered && !narrowSame && r.matchArgs(raw, false)
}

// sameSlice reports whether a and b are the same slice of the same array.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
