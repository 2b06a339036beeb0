package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
)

// runChain parses, judges and runs the chain, then reports and exits with
// its status.
func (c *cli) runChain(cfg *config) int {
	opts := engine.Options{
		Dir:         cfg.dir,
		Env:         chainEnv(cfg.env),
		Stdin:       c.stdin,
		MaxOutput:   cfg.maxOut,
		Combined:    cfg.combined,
		Pipefail:    cfg.pipefail,
		Timeout:     cfg.timeout,
		Grace:       cfg.grace,
		Interactive: controlsTerminal(c.stdin),
	}
	if !cfg.json {
		opts.Stdout, opts.Stderr, opts.NoCapture = c.stdout, c.stderr, true
	}

	var rec *recordingAuthorizer
	var appr *approver
	if len(cfg.policies) > 0 {
		auth, st, ok := c.loadPolicy(cfg)
		if !ok {
			return st
		}
		rec = &recordingAuthorizer{Authorizer: auth}
		appr = c.newApprover(cfg)
		opts.Authorizer, opts.Approver = rec, appr
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

	ch, err := chain.ParseDialect(cfg.command, cfg.dialect)
	if err != nil {
		// Run never sees a refused chain, so the refusal is audited here.
		if opts.Auditor != nil {
			dir, _ := startDir(cfg.dir)
			opts.Auditor.Audit(&engine.AuditRecord{Command: cfg.command, Dir: dir, Err: err})
		}
		return c.finish(cfg, nil, nil, nil, err)
	}

	forwardSignals(&opts)
	res, err := engine.Run(context.Background(), ch, opts)
	return c.finish(cfg, ch, res, &judgement{rec: rec, appr: appr}, err)
}

// judgement is what the policy said, for the report.
type judgement struct {
	rec  *recordingAuthorizer
	appr *approver
}

func (j *judgement) decision() *chain.Decision {
	if j == nil {
		return nil
	}
	return j.rec.last()
}

func (j *judgement) declined() *chain.Decision {
	if j == nil {
		return nil
	}
	return j.appr.declinedDecision()
}

// exitStatus maps the outcome to chainrun's exit status.
func exitStatus(res *engine.Result, err error) int {
	if res != nil && res.TimedOut {
		return exitTimeout
	}
	switch chain.KindOf(err) {
	case "":
		if res == nil {
			return exitInternal
		}
		return res.ExitCode
	case chain.KindSyntax, chain.KindUnsupported:
		return exitRefused
	case chain.KindDenied:
		return exitDenied
	case chain.KindTimeout:
		return exitTimeout
	case chain.KindNotFound:
		return 127
	case chain.KindNotExecutable:
		return 126
	}
	return exitInternal
}

// finish reports the outcome, on stdout as one JSON object with --json,
// on stderr for people otherwise, and returns the exit status.
func (c *cli) finish(cfg *config, ch *chain.Chain, res *engine.Result, j *judgement, err error) int {
	status := exitStatus(res, err)
	if res != nil && res.TimedOut && err == nil {
		err = fmt.Errorf("%w after %v", chain.ErrTimeout, cfg.timeout)
	}
	if cfg.json {
		if werr := c.writeResultJSON(res, status, j.decision(), err); werr != nil {
			fmt.Fprintf(c.stderr, "chainrun: %v\n", werr)
			return exitInternal
		}
		// The object says it all; stderr stays for the chain's own output.
		return status
	}
	c.reportSegmentErrors(ch, res)
	switch {
	case err == nil:
	case j.declined() != nil && chain.KindOf(err) == chain.KindDenied:
		fmt.Fprint(c.stderr, askText(ch, j.declined()))
		fmt.Fprintln(c.stderr, "chainrun: not approved: nothing ran (pass --yes to approve, or add a rule)")
	case chain.KindOf(err) == chain.KindTimeout:
		fmt.Fprintf(c.stderr, "chainrun: %v%s\n", err, signalledText(ch, res))
	default:
		c.reportError(err)
	}
	return status
}

// reportSegmentErrors names each segment that could not start, with its
// command: chainrun: segment 2 "fooo --x": not found in PATH.
func (c *cli) reportSegmentErrors(ch *chain.Chain, res *engine.Result) {
	if res == nil {
		return
	}
	for _, s := range res.Segments {
		if s.Error == "" {
			continue
		}
		if strings.HasPrefix(s.Error, "segment ") {
			fmt.Fprintf(c.stderr, "chainrun: %s\n", s.Error)
			continue
		}
		fmt.Fprintf(c.stderr, "chainrun: segment %d %q: %s\n", s.Index+1, segmentText(ch, s.Index), s.Error)
	}
}

// signalledText lists the segments the timeout stopped.
func signalledText(ch *chain.Chain, res *engine.Result) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, s := range res.Segments {
		if s.Signalled {
			parts = append(parts, fmt.Sprintf("segment %d %q", s.Index+1, segmentText(ch, s.Index)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; stopped " + strings.Join(parts, ", ")
}

func segmentText(ch *chain.Chain, i int) string {
	if ch == nil {
		return ""
	}
	segs := ch.Segments()
	if i < 0 || i >= len(segs) {
		return ""
	}
	return segs[i].Text
}

// writeResultJSON prints the result object with "error" added, and the
// policy's "decision", "reasons" and "suggestions" when one judged the
// chain. Without a result (nothing ran) it prints an empty one carrying
// the exit status.
func (c *cli) writeResultJSON(res *engine.Result, status int, d *chain.Decision, err error) error {
	if res == nil {
		res = &engine.Result{ExitCode: status, Segments: []engine.SegmentResult{}}
	}
	var buf bytes.Buffer
	if e := writeJSON(&buf, res); e != nil {
		return e
	}
	obj := unescapeHTML(bytes.TrimRight(buf.Bytes(), "\n"))
	if len(obj) < 2 || obj[len(obj)-1] != '}' {
		return errors.New("result did not render as a JSON object")
	}
	out := bytes.NewBuffer(obj[:len(obj)-1])
	sep := ","
	if len(obj) == 2 {
		sep = ""
	}
	var perr *engine.PlanError
	if err != nil {
		perr = engine.NewPlanError(err)
	}
	fmt.Fprintf(out, "%s\"error\":%s", sep, jsonText(perr))
	if d != nil {
		sugg := d.Suggestions
		if sugg == nil {
			sugg = []string{}
		}
		fmt.Fprintf(out, ",\"decision\":%s,\"reasons\":%s,\"suggestions\":%s",
			jsonText(d.Verdict), jsonText(d.Segments), jsonText(sugg))
	}
	out.WriteString("}\n")
	_, e := c.stdout.Write(out.Bytes())
	return e
}

// unescapeHTML undoes encoding/json's HTML escaping (\u003c, \u003e,
// \u0026) that a nested json.Marshal may have applied, so redirect
// operators read as > and & in the result as they do in the plan. It walks
// escapes pairwise, so an escaped backslash followed by "u003e" is left
// alone.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out, i = append(out, '<'), i+5
				continue
			case "003e":
				out, i = append(out, '>'), i+5
				continue
			case "0026":
				out, i = append(out, '&'), i+5
				continue
			}
		}
		out, i = append(out, b[i], b[i+1]), i+1
	}
	return out
}
