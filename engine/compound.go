package engine

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/chainrun/chainrun/builtin"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
)

// Compound commands run their parts (conditions, bodies) as inner runs:
// each judged again before it starts and each of its segments as it
// starts, with its words as they are then (a loop's body every
// iteration), each audited. Unlike a command substitution's, an inner
// run of an if, a loop, a case or a group shares the shell state with
// the chain (variables, directory, options, $?): it starts in the
// chain's state and hands back what it changed. A subshell's, and a
// compound's in a pipeline of several stages, run in a copy, as in bash.

// flowState is a runner's part in control flow.
type flowState struct {
	loops  int      // the loops this run is inside: break and continue act on them
	jump   loopJump // a break or continue not yet taken by its loop
	tested bool     // the pipeline running is tested (&&, ||, !, a condition): set -e ignores it
	inTest bool     // the whole run is tested (a condition, or a tested compound's part)
}

// loopJump is a pending break (or continue) of n loops.
type loopJump struct {
	n    int
	cont bool
}

// handBack is what an inner run that shares the state leaves for the
// compound that ran it.
type handBack struct {
	ran      bool
	dir      string
	env      []string
	vars     map[string]string
	declared map[string]bool
	shopts   builtin.Options
	params   []string
	status   int
	exited   bool
	jump     loopJump
}

// handBack fills in.back with the run's state when it ends.
func (r *runner) handBack() {
	in := r.opts.inherit
	if in == nil || in.back == nil {
		return
	}
	*in.back = handBack{ran: true, dir: r.dir, env: r.env, vars: r.vars, declared: r.declared,
		shopts: r.shopts, params: r.params, status: r.status, exited: r.exited, jump: r.flow.jump}
}

// cstate is the shell state a compound runs in: the chain's own (then
// handed back to it) or a copy.
type cstate struct {
	r        *runner
	dir      string
	env      []string
	vars     map[string]string
	declared map[string]bool
	shopts   builtin.Options
	params   []string
	lastBg   int // $! as the compound started: a background one runs while the chain goes on
	status   int
	exited   bool
	jump     loopJump
	loops    int
	tested   bool
	files    []*os.File
	stdinOK  bool // files[0] cannot block a read past the chain's stop
}

// startCompound runs a compound segment: its own redirects expanded,
// judged again and opened as those of true would be, then its parts.
// Alone in its pipeline it runs in the chain's state (a subshell in a
// copy); as one stage of several, in a goroutine in a copy.
func (r *runner) startCompound(st *stage, seg *chain.Segment, in, out *os.File, inPipeline bool) {
	frame, ok := r.expandStage(st, seg.CompoundFrame(), inPipeline)
	if !ok {
		return
	}
	files, opened, ok := r.redirectStage(st, frame, in, out)
	if !ok {
		return
	}
	st.res.Kind = "compound"
	c := seg.Compound
	s := r.cstate(files)
	if inPipeline || c.Kind == chain.CompoundSubshell {
		s.loops = 0 // a copy's break and continue reach no loop outside it, as in bash's forked subshell
	}
	r.ran = true
	if !inPipeline {
		st.res.ExitCode = s.compound(c)
		closeAll(opened)
		if c.Kind != chain.CompoundSubshell {
			r.takeState(s)
		}
		st.res.Duration = time.Since(st.start)
		return
	}
	st.done = make(chan struct{})
	go func() {
		defer close(st.done)
		st.res.ExitCode = s.compound(c)
		closeAll(opened)
		if in != r.stdin {
			in.Close()
		}
		if out != r.out.w {
			out.Close()
		}
		st.res.Duration = time.Since(st.start)
	}()
}

// cstate is a copy of the chain's state for a compound writing to files.
func (r *runner) cstate(files []*os.File) *cstate {
	return &cstate{r: r, dir: r.dir, env: slices.Clone(r.env), vars: maps.Clone(r.vars), declared: maps.Clone(r.declared),
		shopts: r.shopts, params: r.params, lastBg: r.lastBg, status: r.status, loops: r.flow.loops, tested: r.flow.tested, files: files,
		stdinOK: files[0] != r.stdin || !r.stdinBlocks()}
}

// takeState makes what a compound left the chain's state.
func (r *runner) takeState(s *cstate) {
	r.dir, r.env, r.vars, r.declared, r.shopts, r.params = s.dir, s.env, s.vars, s.declared, s.shopts, s.params
	r.envMy = true
	if s.exited {
		r.exited = true
	}
	r.flow.jump = s.jump
}

// stopped reports whether the compound must run nothing more: the chain
// is stopping, it exited, or a break or continue is pending.
func (s *cstate) stopped() bool {
	return s.exited || s.jump.n > 0 || s.r.isStopping() || s.r.ctx.Err() != nil || s.r.denied != nil
}

// compound runs c and returns its status.
func (s *cstate) compound(c *chain.Compound) int {
	switch c.Kind {
	case chain.CompoundGroup, chain.CompoundSubshell:
		return s.run(c.Bodies[0], c.Kind == chain.CompoundSubshell, false, 0)
	case chain.CompoundIf:
		return s.ifClause(c)
	case chain.CompoundWhile, chain.CompoundUntil:
		return s.whileLoop(c)
	case chain.CompoundFor:
		return s.forLoop(c)
	case chain.CompoundArithFor:
		return s.arithLoop(c)
	case chain.CompoundCase:
		return s.caseClause(c)
	}
	return 2
}

// ifClause runs the first branch whose condition succeeds, or else; with
// no branch taken its status is 0.
func (s *cstate) ifClause(c *chain.Compound) int {
	for i, cond := range c.Conds {
		st := s.run(cond, false, true, 0)
		if s.stopped() {
			return st
		}
		if st == 0 {
			return s.run(c.Bodies[i], false, false, 0)
		}
	}
	if c.Else != nil {
		return s.run(c.Else, false, false, 0)
	}
	return 0
}

// whileLoop runs while (until) its condition succeeds (fails); its
// status is the last body's, 0 when the body never ran.
func (s *cstate) whileLoop(c *chain.Compound) int {
	status := 0
	for {
		st := s.run(c.Conds[0], false, true, 1)
		if s.loopEnd() {
			return status
		}
		if (st == 0) == (c.Kind == chain.CompoundUntil) {
			return status
		}
		status = s.run(c.Bodies[0], false, false, 1)
		if s.loopEnd() {
			return status
		}
	}
}

// loopEnd takes a pending jump aimed at this loop and reports whether the
// loop ends: break, a jump to an outer loop, exit or a stop.
func (s *cstate) loopEnd() bool {
	if s.jump.n > 0 {
		s.jump.n--
		if s.jump.n > 0 || !s.jump.cont {
			return true
		}
		s.jump = loopJump{}
		return false
	}
	return s.stopped()
}

// forLoop sets the variable to each word of the list in turn (expanded
// once, before the first iteration) and runs the body.
func (s *cstate) forLoop(c *chain.Compound) int {
	items, ok := s.expandItems(c.Items)
	if !ok {
		return 1
	}
	status := 0
	for _, v := range items {
		s.assign(c.Var, v)
		status = s.run(c.Bodies[0], false, false, 1)
		if s.loopEnd() {
			return status
		}
	}
	return status
}

// arithLoop runs for ((init; cond; post)).
func (s *cstate) arithLoop(c *chain.Compound) int {
	if _, ok := s.arith(c.Arith[0]); !ok {
		return 1
	}
	status := 0
	for {
		v, ok := s.arith(c.Arith[1])
		if !ok {
			return 1
		}
		if v == 0 || s.stopped() {
			return status
		}
		status = s.run(c.Bodies[0], false, false, 1)
		if s.loopEnd() {
			return status
		}
		if _, ok := s.arith(c.Arith[2]); !ok {
			return 1
		}
	}
}

// caseClause runs the list of the first item a pattern of which matches
// the word; ;& runs the next list too, ;;& goes on testing.
func (s *cstate) caseClause(c *chain.Compound) int {
	e, err := expand.Segment(c.Items, s.shell())
	if err != nil {
		return s.fail(err)
	}
	word := e.Assigns[0].Value
	status, fall := 0, false
	for i, pats := range c.Patterns {
		if !fall {
			ok, err := s.shell().Match(pats, word)
			if err != nil {
				return s.fail(err)
			}
			if !ok {
				continue
			}
		}
		status = s.run(c.Bodies[i], false, false, 0)
		if s.stopped() {
			return status
		}
		switch c.CaseOps[i] {
		case ";&":
			fall = true
		case ";;&":
			fall = false
		default:
			return status
		}
	}
	return status
}

// expandItems expands the for list in the compound's state.
func (s *cstate) expandItems(items *chain.Segment) ([]string, bool) {
	e, err := expand.Segment(items, s.shell())
	if err != nil {
		s.fail(err)
		return nil, false
	}
	return e.Args, true
}

// arith evaluates a C-style for expression, its assignments kept.
func (s *cstate) arith(a chain.Arith) (int, bool) {
	sh := s.shell()
	v, err := sh.Arith(a)
	if err != nil {
		s.files[2].Write([]byte("chainrun: ((: " + a.Text + ": " + err.Error() + "\n"))
		return 0, false
	}
	s.env, s.vars = sh.Env, sh.Vars
	return v, true
}

// assign sets a variable as NAME=value does.
func (s *cstate) assign(name, value string) {
	sh := s.shell()
	sh.Assign(name, value)
	s.env, s.vars = sh.Env, sh.Vars
}

// shell is the compound's state as expansion reads it.
func (s *cstate) shell() *expand.Shell {
	sh := expand.HostShell(s.env, s.dir)
	sh.Vars, sh.Declared, sh.Status = s.vars, s.declared, s.status
	sh.NoUnset, sh.Params, sh.Glob = s.shopts.Nounset, s.params, s.shopts.Glob
	if s.lastBg != 0 {
		sh.LastBackground = strconv.Itoa(s.lastBg)
	}
	sh.Substitute, sh.StartProc = s.r.substitute, s.r.startProc
	return sh
}

// fail reports an expansion that failed on the compound's stderr; bash
// ends the chain there (as for $((1/0)) in a word) with status 1.
func (s *cstate) fail(err error) int {
	s.files[2].Write([]byte("chainrun: " + err.Error() + "\n"))
	s.exited = true
	return 1
}

// run runs one part of the compound as an inner run from the compound's
// state: handing back what it changed unless copy is set (a subshell),
// with set -e off when cond is set (a condition), inside loops more
// loops than the compound. It returns the part's status, which is $?
// after it.
func (s *cstate) run(c *chain.Chain, copy, cond bool, loops int) int {
	if len(c.Pipelines) == 0 {
		return 0
	}
	r := s.r
	opts := r.opts
	opts.Dir, opts.Env, opts.Vars = s.dir, slices.Clone(s.env), maps.Clone(s.vars)
	opts.Stdin, opts.Stdout, opts.Stderr, opts.NoCapture, opts.Combined = s.files[0], s.files[1], s.files[2], true, false
	opts.Interactive, opts.Signals = false, nil
	opts.Approver = r.innerApprover()
	back := &handBack{}
	tested := s.tested || cond
	opts.inherit = &inherited{shopts: s.shopts, params: s.params, lastBg: s.lastBg, depth: r.depth, shared: true, status: s.status,
		declared: maps.Clone(s.declared), loops: s.loops + loops, tested: tested, stdinOK: s.stdinOK, back: back}
	if opts.Auditor != nil {
		opts.Auditor = substAuditor{Auditor: opts.Auditor, text: chain.ChainText(c)}
	}
	if r.opts.Timeout > 0 {
		opts.Timeout = r.opts.Timeout - time.Since(r.began)
		if opts.Timeout <= 0 {
			r.stop(true)
			return 124
		}
	}
	res, err := Run(r.ctx, c, opts)
	if err != nil {
		return s.failed(err)
	}
	status := res.ExitCode
	if back.ran && !copy {
		errexit := s.shopts.Errexit
		s.dir, s.env, s.vars, s.declared, s.shopts, s.params = back.dir, back.env, back.vars, back.declared, back.shopts, back.params
		if tested {
			s.shopts.Errexit = errexit
		}
		s.exited = s.exited || back.exited
		s.jump = back.jump
	}
	s.status = status
	return status
}

// failed handles an inner run that did not finish: denied (the chain
// ends as denied), timed out or canceled (the chain stops), or refused.
func (s *cstate) failed(err error) int {
	r := s.r
	var denied *chain.DeniedError
	switch {
	case errors.As(err, &denied):
		r.mu.Lock()
		r.denied = err
		r.mu.Unlock()
		s.exited = true
		return 1
	case errors.Is(err, chain.ErrTimeout):
		r.stop(true)
		return 124
	case r.ctx.Err() != nil:
		r.stop(false)
		return 1
	}
	s.files[2].Write([]byte("chainrun: " + err.Error() + "\n"))
	s.exited = true
	return 2
}

// jump is break or continue: n loops (clamped to those the run is
// inside), none outside a loop, where bash only warns.
func (r *runner) loopJump(cont bool, n int) {
	r.flow.jump = loopJump{n: min(n, r.flow.loops), cont: cont}
}

// inherit starts a compound's part in the state of the compound.
func (r *runner) inherit(in *inherited) {
	r.depth = in.depth
	if !in.tested {
		r.shopts.Errexit = in.shopts.Errexit
	}
	r.status, r.declared = in.status, in.declared
	r.flow.loops, r.flow.inTest = in.loops, in.tested
}

// negate is the status of a pipeline after bash's !.
func negate(p *chain.Pipeline, status int) int {
	if !p.Negated {
		return status
	}
	if status == 0 {
		return 1
	}
	return 0
}

// inShell reports a pipeline that is one compound command run in the
// chain's own state (not a subshell): set -e has acted inside it already,
// and bash does not exit for a status that comes from a failure it
// ignored there (false && x as the body's last command).
func inShell(p *chain.Pipeline) bool {
	return len(p.Segments) == 1 && p.Segments[0].Compound != nil && p.Segments[0].Compound.Kind != chain.CompoundSubshell
}
