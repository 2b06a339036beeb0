package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/report"
)

// explain parses the command (and with --policy judges it), prints the
// plan and runs nothing. It exits 0 when the input was accepted, whatever
// the decision, and 2 when it was refused.
func (c *cli) explain(cfg *config) int {
	var lp *loadedPolicy
	if cfg.judges() {
		var st int
		var ok bool
		if lp, st, ok = c.loadPolicy(&cfg.policyFlags, cfg.dir, cfg.audit.path, true); !ok {
			return st
		}
	}
	box, st, ok := c.loadSandbox(&cfg.policyFlags, lp.policy(), cfg.dir)
	if !ok {
		return st
	}
	ch, err := chain.ParseDialect(cfg.command, cfg.dialect)
	if err == nil {
		// The plan: every word expanded as of now, as Run judges it.
		// What Run would refuse before starting anything (on Windows:
		// arguments cmd.exe cannot carry) is a refusal here too.
		opts := engine.Options{Dir: cfg.dir, Env: chainEnv(cfg.env)}
		if lp != nil {
			opts.Authorizer = lp.p // the plan knows globs after programs that write nothing
		}
		if ch, err = engine.Plan(ch, opts); err == nil {
			err = engine.Check(ch, opts)
		}
	}
	plan := report.NewPlan(ch, err)
	status := 0
	if err != nil {
		status = report.ExitRefused
	}
	if err == nil && lp != nil {
		plan.PolicyWarnings = lp.warnings
		if box != nil {
			plan.PolicyWarnings = append(slices.Clip(plan.PolicyWarnings), sandboxLines(box)...)
		}
		d, jerr := judge(withEnvFlags(lp.p, cfg.env), ch, cfg.dir)
		if jerr != nil {
			plan.Error = report.NewError(jerr)
			err, status = jerr, report.ExitInternal
		}
		plan.Judge(d)
	}
	if cfg.json {
		if werr := report.Write(c.stdout, plan); werr != nil {
			return c.outputFailed(werr)
		}
		return status
	}
	if err != nil {
		c.reportError(err)
		return status
	}
	var b bytes.Buffer
	writePlanText(&b, ch, plan)
	if _, werr := c.stdout.Write(b.Bytes()); werr != nil {
		return c.outputFailed(werr)
	}
	return status
}

// judge runs the policy over a parsed chain, as Run would before starting.
func judge(auth chain.Authorizer, ch *chain.Chain, dir string) (*chain.Decision, error) {
	abs, err := startDir(dir)
	if err != nil {
		return nil, err
	}
	return auth.Authorize(context.Background(), ch, abs)
}

// startDir is the absolute directory a chain starts in.
func startDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	return filepath.Abs(dir)
}

// jsonText renders v as compact JSON for the human-readable plan, quoted
// as the JSON plan quotes it.
func jsonText(v any) string {
	var b strings.Builder
	_ = report.Write(&b, v)
	return strings.TrimSuffix(b.String(), "\n")
}

// writePlanText prints the plan for people: one line per segment (number,
// span, argv, then env, redirects and the built-in mark when there are
// any), the operator joining consecutive segments on a line of its own,
// then warnings (the dialect's, then the policy loader's) and the policy's
// decision.
func writePlanText(w io.Writer, ch *chain.Chain, p *report.Plan) {
	segs := ch.Segments()
	for i, s := range p.Segments {
		if i > 0 && i-1 < len(p.Ops) {
			fmt.Fprintf(w, "  %s\n", p.Ops[i-1])
		}
		fmt.Fprintf(w, "segment %d [%d,%d] argv %s", i+1, s.Span[0], s.Span[1], jsonText(s.Args))
		if len(s.Env) > 0 {
			fmt.Fprintf(w, " env %s", jsonText(s.Env))
		}
		if len(s.Redirects) > 0 {
			parts := make([]string, len(s.Redirects))
			for j, r := range s.Redirects {
				parts[j] = redirectText(r)
			}
			fmt.Fprintf(w, " redirects [%s]", strings.Join(parts, ", "))
		}
		if s.Builtin {
			fmt.Fprint(w, " builtin")
		}
		switch {
		case s.TimePOSIX:
			fmt.Fprint(w, " timed -p")
		case s.Timed:
			fmt.Fprint(w, " timed")
		}
		if i < len(segs) && segs[i].Text != "" {
			fmt.Fprintf(w, "  # %s", oneLine(segs[i].Text))
		}
		fmt.Fprintln(w)
		writeSubstText(w, s.Substitutions)
		writeCompoundText(w, s.Compound, "  ")
		if i == len(p.Segments)-1 && s.Background {
			fmt.Fprintln(w, "  &") // the chain ends with a background pipeline
		}
	}
	for _, wn := range p.Warnings {
		fmt.Fprintf(w, "warning: offset %d: %s\n", wn.Offset, wn.Message)
	}
	for _, wn := range p.PolicyWarnings {
		fmt.Fprintf(w, "warning: policy: %s\n", wn)
	}
	if p.Decision != nil {
		fmt.Fprint(w, p.Decision.Text(true))
	}
}

// writeSubstText prints a segment's command substitutions under it, each
// inner segment's argv on a line of its own.
func writeSubstText(w io.Writer, subs []report.Substitution) {
	for _, sb := range subs {
		fmt.Fprintf(w, "  substitution [%d,%d] runs:\n", sb.Span[0], sb.Span[1])
		for j, argv := range sb.Argv {
			if j > 0 && j-1 < len(sb.Ops) {
				fmt.Fprintf(w, "      %s\n", sb.Ops[j-1])
			}
			fmt.Fprintf(w, "    argv %s\n", jsonText(argv))
		}
	}
}

// redirectText renders one redirect as bash would spell it, with its span:
// 2>"err.log"[10,20], 2>&1, &>>"all.log"; a heredoc or here-string by its
// size, never its text: 0<<'EOF'(12 bytes)[4,11].
func redirectText(r report.Redirect) string {
	var s string
	switch r.Op {
	case chain.RedirBoth, chain.RedirBothAppend:
		s = fmt.Sprintf("%s%s", r.Op, jsonText(r.Target))
	case chain.RedirDupOut, chain.RedirDupIn:
		s = fmt.Sprintf("%d%s%s", r.Fd, r.Op, r.Target)
	case chain.RedirHeredoc, chain.RedirHeredocTabs, chain.RedirHereString:
		s = fmt.Sprintf("%d%s%s(%d bytes)", r.Fd, r.Op, r.Delimiter, *r.BodyBytes)
	default:
		s = fmt.Sprintf("%d%s%s", r.Fd, r.Op, jsonText(r.Target))
	}
	if r.Implicit {
		return s + "(from |&)"
	}
	return fmt.Sprintf("%s[%d,%d]", s, r.Span[0], r.Span[1])
}

// oneLine keeps a segment's text on one line of the plan.
func oneLine(s string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
}

// reportError tells people what went wrong: the caret rendering for a
// refusal, one line otherwise.
func (c *cli) reportError(err error) {
	var pe *chain.ParseError
	if errors.As(err, &pe) {
		fmt.Fprint(c.stderr, "chainrun: "+pe.Caret())
		return
	}
	fmt.Fprintf(c.stderr, "chainrun: %v\n", err)
}

// writeCompoundText prints a compound's parts under its segment, each
// part's segments once with their argv, words known only at run time as
// written and marked.
func writeCompoundText(w io.Writer, c *report.Compound, indent string) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "%s%s", indent, c.Kind)
	if c.Var != "" {
		fmt.Fprintf(w, " %s in", c.Var)
	}
	for _, it := range c.Items {
		fmt.Fprintf(w, " %s", jsonText(it.Expanded))
		if it.Runtime {
			fmt.Fprint(w, "(runtime)")
		}
	}
	fmt.Fprintln(w)
	for _, part := range c.Parts {
		fmt.Fprintf(w, "%s  %s", indent, part.Role)
		if part.Expr != "" {
			fmt.Fprintf(w, " %s", part.Expr)
		}
		fmt.Fprintln(w, ":")
		for j, s := range part.Segments {
			if j > 0 && j-1 < len(part.Ops) {
				fmt.Fprintf(w, "%s      %s\n", indent, part.Ops[j-1])
			}
			fmt.Fprintf(w, "%s    argv %s", indent, jsonText(s.Args))
			for _, r := range s.Redirects {
				fmt.Fprintf(w, " %s", redirectText(r))
			}
			fmt.Fprintf(w, "%s\n", runtimeMark(s))
			writeCompoundText(w, s.Compound, indent+"    ")
		}
	}
}

// runtimeMark names the words of a segment known only at run time.
func runtimeMark(s report.PlanSegment) string {
	var rt []string
	for _, wd := range s.Words {
		if wd.Runtime {
			rt = append(rt, wd.Text)
		}
	}
	if len(rt) == 0 {
		return ""
	}
	return " runtime " + strings.Join(rt, " ")
}
