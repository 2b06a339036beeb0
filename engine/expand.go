package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/builtin"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/redirect"
)

// shell is the chain's state as expansion reads it.
func (r *runner) shell() *expand.Shell {
	sh := expand.HostShell(r.env, r.dir)
	sh.Vars, sh.Declared, sh.Status = r.vars, r.declared, r.status
	sh.NoUnset, sh.Params, sh.Glob = r.shopts.Nounset, r.params, r.shopts.Glob
	sh.LastBackground = r.lastBackground()
	sh.Substitute, sh.StartProc = r.substitute, r.startProc
	return sh
}

// keep takes what a built-in changed in the shell, outside a pipeline.
func (r *runner) keep(sh *expand.Shell, inPipeline bool) {
	if !inPipeline {
		r.env, r.vars, r.declared, r.params = sh.Env, sh.Vars, sh.Declared, sh.Params
	}
}

// resetIFS gives the chain bash's IFS: bash ignores an IFS it inherits
// and starts with (and exports) space, tab and newline.
func resetIFS(env []string) []string {
	if _, ok := environ.Host.Get(env, "IFS"); ok {
		return environ.Host.Set(env, "IFS", " \t\n")
	}
	return env
}

// planned reports whether the chain was planned (chain.Chain.Expand): its
// first segment then has the start directory, and a later segment's ""
// means a directory known only at run time, judged again there.
func (r *runner) planned() bool {
	return len(r.c.Pipelines) > 0 && len(r.c.Pipelines[0].Segments) > 0 && r.c.Pipelines[0].Segments[0].Dir != ""
}

// expandStage expands a planned segment for real, just before it starts,
// and judges it again on exactly what will run. ok is false when the
// stage must not start: the expansion failed ($((1/0)): bash ends the
// chain with status 1; an unset variable under set -u: 127 (1 under set
// -e), and a stage of a pipeline or a program's redirect fails only its
// command, as in bash's forked child) or the verdict
// is stricter than the one the chain was approved with (the chain stops
// there, as denied).
func (r *runner) expandStage(st *stage, planned *chain.Segment, inPipeline bool) (*chain.Segment, bool) {
	seg := planned
	if planned.Dir != "" || planned.HasExpansions() || r.planned() {
		var err error
		sh := r.shell()
		seg, err = expand.Segment(planned, sh)
		r.substLast, r.substRan = sh.SubstStatus()
		if err == nil && sh.Assigned() {
			r.keep(sh, inPipeline) // ${X:=word}
		}
		if err != nil {
			r.failExpansion(st, planned, err, inPipeline)
			return nil, false
		}
		st.res.Args, st.res.Redirects = seg.Args, seg.Redirects
	}
	if r.opts.Authorizer == nil {
		return seg, true
	}
	if !r.needsJudgement(planned, seg) {
		st.judged, r.first = r.first, nil
		r.ran = true
		return seg, true
	}
	st.judged = r.pin(seg.Redirects)
	if err := r.judgeAgain(st, planned, seg); err != nil {
		// The error is the run's (Run returns it); the chain's stderr
		// gets nothing, as for a denial before the run.
		r.failStage(st, seg, &SegmentError{Kind: chain.KindDenied, Segment: st.res.Index, Text: seg.Text, Err: err}, 1, nil)
		r.denied, r.exited = err, true
		return nil, false
	}
	r.ran = true
	return seg, true
}

// needsJudgement reports whether the segment as it runs may be judged
// differently from the plan: anything ran before it (any program may have
// changed the files the segment names: made a link, moved one, replaced
// a directory), or it expanded to something else, or it had words known
// only now, or it starts in another directory. Only the chain's first
// segment to start, judged with the plan just before, is not judged again.
func (r *runner) needsJudgement(planned, seg *chain.Segment) bool {
	if r.ran || (r.planned() && planned.Dir != r.dir) {
		return true
	}
	if planned == seg {
		return false
	}
	for _, w := range planned.Words {
		if w.Runtime {
			return true
		}
	}
	return !slices.Equal(planned.Args, seg.Args) || !slices.Equal(planned.Assigns, seg.Assigns) ||
		!slices.Equal(planned.Redirects, seg.Redirects)
}

// judgeAgain judges the expanded segment in its pipeline (the other
// stages as planned: a stage's judgement may depend on what feeds it), in
// the current directory and with the roots of the chain's start, with the
// same policy, which resolves its program and paths afresh; a verdict for
// it stricter than the plan's stops the chain.
func (r *runner) judgeAgain(st *stage, planned, seg *chain.Segment) error {
	c, at := r.alone(planned, seg)
	d, err := r.opts.Authorizer.Authorize(r.ctx, c, r.start)
	if err != nil {
		return err
	}
	if d == nil || at >= len(d.Segments) {
		return &chain.DeniedError{Segment: seg.Index, Text: seg.Text, Reason: "no decision at run time"}
	}
	sd := d.Segments[at]
	was := r.plannedVerdict(seg.Index)
	if chain.Stricter(sd.Verdict, was) == was {
		return nil
	}
	what := "judged again as it starts (what it names may have changed since the plan),"
	if planned != seg {
		what = "at run time it expanded to " + quoteArgs(seg.Args) + ","
	}
	return &chain.DeniedError{Segment: seg.Index, Text: seg.Text, Rule: sd.Rule, Decision: d, AtRunTime: true,
		Reason: fmt.Sprintf("%s which the policy judges %s (it was judged %s before the run): %s",
			what, sd.Verdict, was, strings.Join(append(sd.Reasons, d.Chain...), "; "))}
}

// alone is the chain the policy judges a segment in as it starts: its
// pipeline alone, seg in place of the planned segment, every stage in the
// current directory; at is seg's index in it.
func (r *runner) alone(planned, seg *chain.Segment) (c *chain.Chain, at int) {
	pl := &chain.Pipeline{Segments: []*chain.Segment{planned}, Span: seg.Span}
	for _, p := range r.c.Pipelines {
		if slices.Contains(p.Segments, planned) {
			pl = p
			break
		}
	}
	segs := make([]*chain.Segment, len(pl.Segments))
	for i, s := range pl.Segments {
		if s == planned {
			s, at = seg, i
		}
		one := *s
		one.Index, one.Dir = i, r.dir
		segs[i] = &one
	}
	src := seg.Text
	if sp := pl.Span; len(segs) > 1 && 0 <= sp.Start && sp.Start <= sp.End && sp.End <= len(r.c.Source) {
		src = r.c.Source[sp.Start:sp.End]
	}
	return &chain.Chain{Source: src, Dialect: r.c.Dialect,
		Pipelines: []*chain.Pipeline{{Segments: segs, Span: pl.Span}}}, at
}

// pin notes what a segment's file targets are just before the policy
// judges them, for the open to check against (redirect.Judged).
func (r *runner) pin(rules []chain.Redirect) *redirect.Judged {
	if len(rules) == 0 {
		return nil
	}
	o := r.opener()
	return o.Pin(rules)
}

// plannedVerdict is the verdict the plan gave segment i (allow when no
// decision covers it: the chain was approved as a whole).
func (r *runner) plannedVerdict(i int) chain.Verdict {
	if r.decision != nil {
		for _, sd := range r.decision.Segments {
			if sd.Segment == i {
				return sd.Verdict
			}
		}
	}
	return chain.Allow
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return "[" + strings.Join(q, " ") + "]"
}

// traceWords writes the set -x line of a segment whose redirect failed to
// expand: its words and assignments expanded without the redirects.
func (r *runner) traceWords(st *stage, planned *chain.Segment) {
	words := *planned
	words.Redirects = nil
	if seg, err := expand.Segment(&words, r.shell()); err == nil {
		r.writeStderr(st, nil, builtin.Trace(r.depth, seg.Assigns, seg.Args, r.env))
	}
}

// failExpansion fails a stage whose expansion failed: bash ends the
// chain there with status 1 and the message on stderr (an unset variable
// under set -u: 127, 1 under set -e, and in a pipeline stage or a
// program's redirect only that command fails, as in bash's forked
// child); a command
// substitution whose inner chain was denied at run time ends it as
// denied, with nothing on the chain's stderr, as a denial before the run,
// and one stopped by the run's timeout or cancel leaves the stage unrun.
func (r *runner) failExpansion(st *stage, planned *chain.Segment, err error, inPipeline bool) {
	switch {
	case r.denied != nil:
		r.exited = true
		r.failStage(st, planned, &SegmentError{Kind: chain.KindDenied, Segment: st.res.Index, Text: planned.Text, Err: r.denied}, 1, nil)
		return
	case r.isStopping():
		// A timeout or cancel inside a substitution: the run reports it
		// as its own, with what it stopped.
		r.exited = true
		st.res.Skipped = true
		return
	}
	ee := (*expand.Error)(nil)
	unset := errors.As(err, &ee) && ee.Unset
	code := 1
	if unset && !r.shopts.Errexit {
		code = 127 // bash's status for it, 1 under set -e
	}
	r.failStage(st, planned, &SegmentError{Kind: chain.KindOf(err), Segment: st.res.Index, Text: planned.Text, Err: err}, code,
		[]byte("chainrun: "+err.Error()+"\n"))
	// bash fails only the command when a child it forked expands it: a
	// pipeline stage, or a program's redirect.
	forked := inPipeline || (ee != nil && ee.Redirect && !planned.IsBuiltin() && len(planned.Args) > 0)
	if forked && ee.Redirect && r.shopts.Xtrace {
		r.traceWords(st, planned) // the child traced the command before its redirects failed
	}
	r.exited = !(unset && forked)
}
