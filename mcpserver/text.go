package mcpserver

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/report"
)

// runText is the text block of a run result, for a model to read: a
// status line, what stopped the chain and how to fix it, then stdout and
// stderr with an explicit marker where the middle was dropped. The
// structured content carries the same facts for programs.
func runText(out *RunResult, res *engine.Result, err error, maxOut int, reason string) string {
	var b strings.Builder
	switch {
	case res == nil:
		b.WriteString(failureText(err, out.ExitCode, reason))
	case res.TimedOut:
		fmt.Fprintf(&b, "%v (exit %d)%s; cwd %s\n", err, out.ExitCode, report.StoppedText(res), out.Cwd)
	case res.Canceled:
		fmt.Fprintf(&b, "stopped after %s (exit %d)%s\n", durText(res.Duration), out.ExitCode, report.StoppedText(res))
	default:
		fmt.Fprintf(&b, "exit %d in %s; cwd %s\n", out.ExitCode, durText(res.Duration), out.Cwd)
	}
	if res == nil {
		return b.String()
	}
	for _, s := range res.Segments {
		if s.Err != nil {
			fmt.Fprintf(&b, "%v\n", s.Err)
		}
		if t := report.SandboxText(&s); t != "" {
			b.WriteString(t + "\n")
		}
	}
	stream(&b, "stdout", res.Stdout, res.StdoutOmitted, maxOut)
	stream(&b, "stderr", res.Stderr, res.StderrOmitted, maxOut)
	if len(res.Stdout) == 0 && len(res.Stderr) == 0 {
		b.WriteString("(no output)\n")
	}
	return b.String()
}

// failureText says why a chain did not run, with the caret under a
// refusal and, for the policy, what it decided and the rule that would
// allow the chain.
func failureText(err error, status int, reason string) string {
	var pe *chain.ParseError
	var de *chain.DeniedError
	switch {
	case errors.As(err, &pe):
		return fmt.Sprintf("refused (%s, exit %d); nothing ran: %s", pe.Kind, status, pe.Caret())
	case errors.As(err, &de) && de.Decision != nil && de.Decision.Verdict == chain.Ask:
		if reason == "" {
			reason = de.Reason
		}
		return fmt.Sprintf("not approved (exit %d); nothing ran: %s\n%s", status, reason, askText(de.Decision))
	case errors.As(err, &de):
		s := fmt.Sprintf("%v (exit %d); nothing ran\n", err, status)
		if de.Decision != nil {
			s += askText(de.Decision)
		}
		return s
	}
	return fmt.Sprintf("%s error (exit %d); nothing ran: %v\n", chain.KindOf(err), status, err)
}

// askText is the policy's decision: the segments it asked about or
// denied, its reasons, and for an ask the entries that would allow it.
func askText(d *chain.Decision) string { return report.NewDecision(d).Text(false) }

// stream writes one captured stream under its name. The capture is the
// first maxOut/2 bytes and the last ones; when bytes were dropped between
// them, the marker says how many, where they were.
func stream(b *strings.Builder, name string, raw []byte, omitted int64, maxOut int) {
	if len(raw) == 0 {
		return
	}
	fmt.Fprintf(b, "--- %s ---\n", name)
	if omitted > 0 && maxOut/2 <= len(raw) {
		head := decoded(raw[:maxOut/2])
		b.WriteString(head)
		if !strings.HasSuffix(head, "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(b, "… %d bytes omitted …\n", omitted)
		b.WriteString(decoded(raw[maxOut/2:]))
	} else {
		b.WriteString(decoded(raw))
	}
	if raw[len(raw)-1] != '\n' {
		b.WriteByte('\n')
	}
}

// decoded turns captured bytes into valid UTF-8 text, decoded from what
// Windows programs write, as the report's text is.
func decoded(raw []byte) string {
	text, _ := (&engine.Result{Stdout: raw}).DecodedStdout()
	return strings.ToValidUTF8(string(text), "\uFFFD")
}

// durText rounds a duration for people: 3ms, 1.25s, 2m3s.
func durText(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(100 * time.Microsecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

// sizeText renders a byte count: 128 KiB.
func sizeText(n int) string {
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// planText is the text block of an explain result.
func planText(p *report.Plan) string {
	var b strings.Builder
	if p.Error != nil {
		fmt.Fprintf(&b, "%s: %s", p.Error.Kind, p.Error.Message)
		if p.Error.Offset != nil {
			fmt.Fprintf(&b, " (at byte %d)", *p.Error.Offset)
		}
		b.WriteByte('\n')
	}
	for i, s := range p.Segments {
		if i > 0 {
			fmt.Fprintf(&b, "  %s\n", p.Ops[i-1])
		}
		fmt.Fprintf(&b, "segment %d: argv %q", i+1, s.Args)
		if len(s.Env) > 0 {
			fmt.Fprintf(&b, " env %v", s.Env)
		}
		for _, r := range s.Redirects {
			if r.BodyBytes != nil {
				fmt.Fprintf(&b, " %d%s%s(%d bytes)", r.Fd, r.Op, r.Delimiter, *r.BodyBytes)
				continue
			}
			fmt.Fprintf(&b, " %d%s%s", r.Fd, r.Op, r.Target)
		}
		if s.Builtin {
			b.WriteString(" (built-in)")
		}
		b.WriteByte('\n')
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "warning: byte %d: %s\n", w.Offset, w.Message)
	}
	for _, w := range p.PolicyWarnings {
		fmt.Fprintf(&b, "warning: policy: %s\n", w)
	}
	if p.Decision != nil {
		b.WriteString(p.Decision.Text(true))
	}
	return b.String()
}
