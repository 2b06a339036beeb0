package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/chainrun/chainrun/builtin"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
)

// MaxSubstOutput bounds what one command substitution may capture. Bash
// keeps any amount; chainrun holds it in memory, so an inner chain that
// writes more is stopped and the outer segment fails with ErrSubstOutput.
const MaxSubstOutput = 16 << 20

// ErrSubstOutput is the error of a command substitution whose output
// went over MaxSubstOutput. A value of a type of its own rather than
// fmt.Errorf's, so that nothing is built at start.
var ErrSubstOutput error = substOutputError{}

type substOutputError struct{}

func (substOutputError) Error() string {
	return fmt.Sprintf("command substitution output over %d bytes", MaxSubstOutput)
}

// substitute runs the inner chain of a command substitution as its own
// Run: judged by the same policy before it starts and each segment again
// as it starts, audited by the same Auditor, in sh's directory,
// environment and variables (a copy: a cd or assignment inside does not
// leak out), its stdout to w, its stderr to the chain's stderr, as bash's
// substitution writes there whatever the outer segment redirects. Its
// stdin is empty. It shares the outer run's context and deadline, so a
// cancel or a timeout stops its processes too.
func (r *runner) substitute(sb *chain.Subst, sh *expand.Shell, w io.Writer) (int, error) {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	lw := &limitWriter{w: w, left: MaxSubstOutput, over: cancel}
	opts, ok := r.innerOptions(sb, sh)
	if !ok {
		return 124, timeoutError(r.opts.Timeout)
	}
	opts.Stdout = lw
	res, err := Run(ctx, sb.Chain, opts)
	if lw.overflow {
		return 1, ErrSubstOutput
	}
	var denied *chain.DeniedError
	switch {
	case errors.As(err, &denied):
		r.denied = err // the outer run ends as denied
	case errors.Is(err, chain.ErrTimeout):
		r.stop(true) // the outer deadline, reached inside: the chain ends as timed out
	case r.ctx.Err() != nil:
		r.stop(false)
	}
	if err != nil {
		return 1, err
	}
	return res.ExitCode, nil
}

// innerOptions are the options an inner chain runs with: sh's directory,
// environment and variables (a copy), no stdin, stdout to be set by the
// caller, stderr the chain's, the outer approval and auditor, the shell
// options, and what is left of the outer timeout (ok is false when none
// is).
func (r *runner) innerOptions(sb *chain.Subst, sh *expand.Shell) (opts Options, ok bool) {
	opts = r.opts
	opts.Dir, opts.Env, opts.Vars = sh.Dir, slices.Clone(sh.Env), maps.Clone(sh.Vars)
	opts.Stdin, opts.Stdout, opts.Stderr, opts.NoCapture, opts.Combined = nil, nil, r.errs.w, true, false
	opts.Interactive, opts.Signals = false, nil
	opts.Approver = r.innerApprover()
	opts.inherit = &inherited{shopts: r.shopts, depth: r.depth, params: sh.Params, lastBg: r.lastBg}
	if opts.Auditor != nil {
		opts.Auditor = substAuditor{Auditor: opts.Auditor, text: sb.Chain.Source[sb.Span.Start:sb.Span.End]}
	}
	if r.opts.Timeout > 0 {
		opts.Timeout = r.opts.Timeout - time.Since(r.began)
		if opts.Timeout <= 0 {
			return opts, false
		}
	}
	return opts, true
}

// innerApprover answers an inner chain's question: the outer chain's
// approval covered its substitutions, which were judged with it, so an
// ask is approved when the outer chain was asked about and approved, and
// refused when the outer chain was allowed without a question (the
// inner chain judged stricter at run time than in the plan).
func (r *runner) innerApprover() chain.Approver {
	return chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) {
		return r.decision != nil && r.decision.Verdict == chain.Ask, nil
	})
}

// substAuditor records an inner chain's run under the substitution's own
// text ("$(git rev-parse HEAD)"): the inner chain's Source is the whole
// line, which the outer run's record holds.
type substAuditor struct {
	Auditor
	text string
}

func (a substAuditor) Audit(rec *AuditRecord) {
	rec.Command = a.text
	a.Auditor.Audit(rec)
}

// limitWriter passes at most left bytes to w, then calls over once and
// drops the rest.
type limitWriter struct {
	w        io.Writer
	left     int
	over     func()
	overflow bool
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.overflow {
		return len(p), nil
	}
	if len(p) > l.left {
		l.overflow = true
		l.over()
		return len(p), nil
	}
	l.left -= len(p)
	return l.w.Write(p)
}

// substStatus makes $? of a segment of assignments alone the status of
// its last command substitution, as bash's x=$(false) leaves 1.
func (r *runner) substStatus(st *stage, seg *chain.Segment) {
	if r.substRan && len(seg.Args) == 0 && st.res.ExitCode == 0 {
		st.res.ExitCode = r.substLast
	}
}

// inherited is what an inner chain takes from the chain whose command
// substitution runs it: the shell options and the nesting depth.
type inherited struct {
	shopts builtin.Options
	depth  int
	// A compound's part (compound.go) shares the state: it keeps set -e
	// unless tested, starts with $? and the declared names, runs inside
	// loops, reads a stdin that cannot block (stdinOK), and hands back
	// its state to back.
	shared   bool
	status   int
	declared map[string]bool
	loops    int
	tested   bool
	stdinOK  bool
	back     *handBack
	lastBg   int // $!
	params   []string
}
