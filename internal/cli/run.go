package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/report"
)

// runChain parses, judges and runs the chain, then reports and exits with
// its status. engine.RunString parses in cfg.dialect and audits a refused
// command line itself; the policy's decision comes back on the result or
// the denial, so nothing here wraps the authorizer or the approver.
func (c *cli) runChain(cfg *config) int {
	opts := engine.Options{
		Dir:         cfg.dir,
		Env:         chainEnv(cfg.env),
		Stdin:       c.stdin,
		MaxOutput:   cfg.maxOut,
		Combined:    cfg.combined,
		Pipefail:    cfg.pipefail,
		Tools:       cfg.tools,
		Timeout:     cfg.timeout,
		Grace:       cfg.grace,
		Interactive: controlsTerminal(c.stdin),
		Dialect:     cfg.dialect,
	}
	if !cfg.json {
		opts.Stdout, opts.Stderr, opts.NoCapture = c.stdout, c.stderr, true
	}
	var lp *loadedPolicy
	if cfg.judges() {
		var st int
		var ok bool
		if lp, st, ok = c.loadPolicy(&cfg.policyFlags, cfg.dir, cfg.audit.path, false); !ok {
			return st
		}
	}
	var st int
	var ok bool
	if opts.Sandbox, st, ok = c.loadSandbox(&cfg.policyFlags, lp.policy(), cfg.dir); !ok {
		return st
	}
	if lp != nil {
		opts.Authorizer, opts.Approver = withEnvFlags(lp.p, cfg.env), c.newApprover(cfg)
	}
	if cfg.audit.path != "" {
		auditor, closeAudit, err := newAuditor(cfg.audit)
		if err != nil {
			fmt.Fprintf(c.stderr, "chainrun: audit log: %v\n", err)
			return exitUsage
		}
		defer func() {
			if err := closeAudit(); err != nil {
				fmt.Fprintf(c.stderr, "chainrun: audit log: %v\n", err)
			}
		}()
		opts.Auditor = auditor
	}
	forwardSignals(&opts)
	res, err := engine.RunString(context.Background(), cfg.command, opts)
	return c.finish(cfg, res, err)
}

// finish reports the outcome, on stdout as one JSON object with --json,
// on stderr for people otherwise, and returns the exit status.
func (c *cli) finish(cfg *config, res *engine.Result, err error) int {
	status := report.ExitStatus(res, err)
	if res != nil && res.TimedOut && err == nil {
		err = fmt.Errorf("%w after %v", chain.ErrTimeout, cfg.timeout)
	}
	if cfg.json {
		if werr := c.writeRunJSON(res, err); werr != nil {
			return c.outputFailed(werr)
		}
		// The object says it all; stderr stays for the chain's own output.
		return status
	}
	c.reportSegmentErrors(res)
	if t := report.StoppedJobsText(res); t != "" {
		fmt.Fprintf(c.stderr, "chainrun: %s\n", t)
	}
	switch d := unapproved(err); {
	case err == nil:
	case d != nil:
		fmt.Fprint(c.stderr, askText(d))
		fmt.Fprintln(c.stderr, "chainrun: not approved: nothing ran (pass --yes to approve, or add a rule)")
	case chain.KindOf(err) == chain.KindTimeout:
		fmt.Fprintf(c.stderr, "chainrun: %v%s\n", err, report.StoppedText(res))
	default:
		c.reportError(err)
	}
	return status
}

// unapproved returns the policy's decision when err is an ask verdict the
// approver did not approve (a denial whose decision asked), nil otherwise.
func unapproved(err error) *chain.Decision {
	var de *chain.DeniedError
	if errors.As(err, &de) && !de.AtRunTime && de.Decision != nil && de.Decision.Verdict == chain.Ask {
		return de.Decision
	}
	return nil
}

// reportSegmentErrors names each segment that could not start for a
// reason the engine has not already told as bash would, on the segment's
// own fd 2: a program not found or not executable and a failed redirect
// have their message there ("chainrun: fooo: command not found"), and
// repeating it would break `nosuchprog 2>/dev/null`, silent in bash.
func (c *cli) reportSegmentErrors(res *engine.Result) {
	if res == nil {
		return
	}
	for _, s := range res.Segments {
		switch chain.KindOf(s.Err) {
		case chain.KindDenied: // the run's error says it
		case chain.KindNotFound, chain.KindNotExecutable, chain.KindRedirect:
		default:
			if s.Err != nil {
				fmt.Fprintf(c.stderr, "chainrun: %v\n", s.Err)
			}
		}
		if t := report.SandboxText(&s); t != "" {
			fmt.Fprintf(c.stderr, "chainrun: %s\n", t)
		}
	}
}

// writeRunJSON prints the run's report. Without a result (nothing ran) the
// report carries the exit status chainrun exits with.
func (c *cli) writeRunJSON(res *engine.Result, err error) error {
	return report.Write(c.stdout, report.FromResult(res, err))
}
