package engine

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/chainrun/chainrun/builtin"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/redirect"
)

// Run runs a parsed chain with bash's meaning and returns what it did.
//
// The whole chain is judged by opts.Authorizer before anything starts; a
// denial returns a *DeniedError and a nil Result, and nothing runs and no
// file is touched. Otherwise Run returns a Result describing every
// segment. A segment that cannot start (not found, not executable, a
// failed redirect) gets bash's status and its error in its SegmentResult;
// the chain goes on as bash's would. The returned error is non-nil only
// when the chain as a whole did not finish: it timed out (an error
// matching ErrTimeout; Result.ExitCode is 124), the context was canceled
// (ctx.Err()), or the OS failed us (KindInternal).
//
// When Run returns, every process the chain started has ended, and no
// goroutine or file of the run remains.
func Run(ctx context.Context, c *chain.Chain, opts Options) (*Result, error) {
	dir, err := startDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	rec := &AuditRecord{Command: c.Source, Dir: dir}
	if opts.Auditor != nil {
		defer func() { opts.Auditor.Audit(rec) }()
	}
	c, err = Plan(c, opts)
	if err != nil {
		rec.Err = err
		return nil, err
	}
	if err := Check(c, opts); err != nil {
		rec.Err = err
		return nil, err
	}
	r := newRunner(ctx, c, opts, dir)
	if opts.Authorizer != nil && len(c.Pipelines) > 0 && len(c.Pipelines[0].Segments) > 0 {
		r.first = r.pin(c.Pipelines[0].Segments[0].Redirects) // judged with the plan, below
	}
	if err := authorize(ctx, c, dir, opts, rec); err != nil {
		rec.Err = err
		return nil, err
	}
	r.decision = rec.Decision
	if err := r.openSandbox(); err != nil {
		rec.Err = err
		return nil, err
	}
	if r.jail != nil {
		defer r.jail.close() // after run: every process it started has ended
	}
	defer r.host.guardConsole()()
	res, err := r.run()
	r.handBack()
	if res != nil {
		res.Decision = rec.Decision
	}
	if err == nil && r.denied != nil {
		err = r.denied
	}
	rec.Result, rec.Err = res, err
	return res, err
}

// Plan returns the chain as it would run from opts' directory,
// environment and variables, expanded as far as that can be known before
// anything runs (expand.Plan): what the policy judges, Check
// checks and an explain view shows. The runner expands each segment again,
// for real, just before it starts.
func Plan(c *chain.Chain, opts Options) (*chain.Chain, error) {
	if !c.NeedsPlan() {
		return c, nil // nothing to plan: no state to build
	}
	dir, err := startDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	return expand.Plan(c, startShell(opts, dir))
}

// startShell is the shell state a chain starts in.
func startShell(opts Options, dir string) *expand.Shell {
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	if pwd, ok := lookup(env, "PWD"); !ok || pwd != dir {
		env = environ.Host.Set(env, "PWD", dir)
	}
	sh := expand.HostShell(resetIFS(env), dir)
	sh.Vars = opts.Vars
	if w, ok := opts.Authorizer.(chain.WriteJudge); ok {
		sh.Writes = w.MayWrite
	}
	return sh
}

// startDir is the directory a chain starts in, absolute, so that the
// policy judges and the audit records the same directory the chain runs
// in.
func startDir(d string) (string, error) {
	if d == "" {
		return os.Getwd()
	}
	return filepath.Abs(d)
}

// runner is the state of one Run.
type runner struct {
	ctx   context.Context
	c     *chain.Chain
	opts  Options
	host  host
	dir   string   // the chain's current directory (logical, as bash's PWD)
	start string   // the directory the chain started in, judged as its root
	env   []string // the chain's environment
	envMy bool     // env is our own copy
	res   *Result

	stdin     *os.File
	stdinDone chan struct{} // the stdin copy goroutine, when there is one
	stdinW    *os.File
	ownStdin  bool
	out, errs *sink

	status int             // $?
	exited bool            // exit ran
	shopts builtin.Options // the shell options set changes

	vars     map[string]string // shell variables that are not exported
	declared map[string]bool   // names exported while unset
	decision *chain.Decision   // the policy's judgement of the plan
	denied   error             // the run-time judgement that stopped the chain
	ran      bool              // a segment has started: later ones are judged again
	first    *redirect.Judged  // the first segment's file targets, pinned before the plan's judgement
	jail     *confinement      // Options.Sandbox's, while the run lasts

	mu        sync.Mutex
	live      []*stage
	stopping  bool // no new process may start
	timedOut  bool
	canceled  bool
	groups    []int // process groups the chain created
	ttyFd     int   // terminal handed to the chain (interactive), or -1
	sigStatus int   // 128+N when a forwarded signal found nothing running

	stages []stage // reused between pipelines

	feeds sync.WaitGroup // goroutines writing heredoc bodies (redirect.Opener.Feeds)

	outMark, errMark int64 // captured bytes counted up to the last pipeline

	began     time.Time // when run started: inner chains share its deadline
	substLast int       // the status of the last command substitution of the segment starting
	substRan  bool      // whether one ran
	depth     int       // 1; an inner chain's is its outer chain's + 1 (set -x's "++")
	flow      flowState // loops, break and continue, what set -e ignores

	background           // the chain's background pipelines (&)
	proc       procState // the process substitutions of the pipeline running
	params     []string  // the positional parameters (set --, shift)
}

// newRunner sets up the chain's environment (PWD as the chain's
// directory, as bash's would be) and fills in the defaults of opts.
func newRunner(ctx context.Context, c *chain.Chain, opts Options, dir string) *runner {
	r := &runner{ctx: ctx, c: c, opts: opts, host: theHost, dir: dir, start: dir, ttyFd: -1}
	r.shopts.Pipefail = opts.Pipefail
	r.depth = 1
	if in := opts.inherit; in != nil {
		// A command substitution's subshell keeps the shell's options but
		// set -e, as bash's does (without inherit_errexit).
		r.shopts, r.depth, r.lastBg, r.params = in.shopts, in.depth+1, in.lastBg, in.params
		r.shopts.Errexit = false
		if in.shared {
			r.inherit(in)
		}
	}
	if len(opts.Vars) > 0 {
		r.vars = maps.Clone(opts.Vars)
	}
	if opts.Env != nil {
		r.env = opts.Env
	} else {
		r.env, r.envMy = os.Environ(), true
	}
	if pwd, ok := lookup(r.env, "PWD"); !ok || pwd != dir {
		r.setEnv("PWD", dir)
	}
	r.env = resetIFS(r.env)
	if r.opts.MaxOutput <= 0 {
		r.opts.MaxOutput = DefaultMaxOutput
	}
	if r.opts.Grace <= 0 {
		r.opts.Grace = DefaultGrace
	}
	return r
}

// run runs the pipelines left to right, each by its operator and the last
// status, with a watcher for timeout, cancel and signals beside them; then
// it ends what the chain left behind and closes its streams before
// returning, so nothing of the run outlives it.
func (r *runner) run() (res *Result, err error) {
	start := time.Now()
	r.began = start
	r.res = &Result{}
	segs := make([]SegmentResult, 0, 8)
	for _, p := range r.c.Pipelines {
		for _, s := range p.Segments {
			segs = append(segs, SegmentResult{Index: len(segs), Text: s.Text, Args: s.Args, Redirects: s.Redirects, Skipped: true})
		}
	}
	r.res.Segments = segs
	if err := r.ctx.Err(); err != nil {
		r.res.Canceled = true
		return r.finishErr(start, err)
	}
	if err := r.openStreams(); err != nil {
		r.closeStreams()
		return nil, err
	}
	r.host.prepare()

	var watchDone chan struct{}
	var wg sync.WaitGroup
	if r.ctx.Done() != nil || r.opts.Timeout > 0 || r.opts.Signals != nil {
		watchDone = make(chan struct{})
		wg.Add(1)
		go func() { defer wg.Done(); r.watch(watchDone) }()
	}

	seg := 0
	for i, p := range r.c.Pipelines {
		run := true
		if i > 0 {
			switch r.c.Ops[i-1] {
			case chain.OpAnd:
				run = r.status == 0
			case chain.OpOr:
				run = r.status != 0
			}
		}
		if run && !r.isStopping() {
			r.flow.tested = r.flow.inTest || p.Negated || i < len(r.c.Ops) && r.c.Ops[i] != chain.OpSeq
			r.status = negate(p, r.runTimed(p, seg))
			if r.status != 0 && r.shopts.Errexit && !r.flow.tested && !inShell(p) {
				r.exited = true // set -e: a failure not tested by &&, ||, ! or a condition
			}
		}
		seg += len(p.Segments)
		if r.exited || r.flow.jump.n > 0 {
			break
		}
	}

	if watchDone != nil {
		close(watchDone)
		wg.Wait()
	}
	r.endBackground()
	r.endChain()
	r.feeds.Wait() // every reader of a heredoc has ended with its process
	r.closeStreams()
	r.explainSandboxed()
	return r.finish(start)
}

// finish fills the chain-wide fields of the result.
func (r *runner) finish(start time.Time) (*Result, error) {
	res := r.res
	res.ExitCode = r.status
	if r.sigStatus != 0 {
		res.ExitCode = r.sigStatus
	}
	if r.out != nil && r.out.buf != nil {
		res.Stdout, res.StdoutOmitted = r.out.buf.bytes()
	}
	if r.errs != nil && r.errs != r.out && r.errs.buf != nil {
		res.Stderr, res.StderrOmitted = r.errs.buf.bytes()
	}
	switch {
	case r.timedOut:
		res.TimedOut = true
		res.ExitCode = 124
		return r.finishErr(start, timeoutError(r.opts.Timeout))
	case r.canceled:
		res.Canceled = true
		return r.finishErr(start, r.ctx.Err())
	}
	res.Duration = time.Since(start)
	res.Dir, res.Env, res.Vars = r.dir, r.env, r.vars
	return res, nil
}

// finishErr returns the result so far with the error that ended the chain.
func (r *runner) finishErr(start time.Time, err error) (*Result, error) {
	r.res.Duration = time.Since(start)
	r.res.Dir, r.res.Env, r.res.Vars = r.dir, r.env, r.vars
	return r.res, err
}

// timeoutError matches chain.ErrTimeout and says which deadline expired:
// Options.Timeout, or the context's.
func timeoutError(d time.Duration) error {
	if d > 0 {
		return fmt.Errorf("chain %w after %v", chain.ErrTimeout, d)
	}
	return fmt.Errorf("chain %w: context deadline exceeded", chain.ErrTimeout)
}
