package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/policy"
	"github.com/chainrun/chainrun/report"
	"github.com/chainrun/chainrun/sandbox"
)

// optionalDir is --claude-settings, which may stand alone (the start
// directory) or take =DIR.
type optionalDir struct{ dir **string }

func (o optionalDir) String() string {
	if o.dir == nil || *o.dir == nil {
		return ""
	}
	return **o.dir
}

func (o optionalDir) Set(s string) error {
	if s == "true" {
		s = ""
	}
	*o.dir = &s
	return nil
}

func (o optionalDir) IsBoolFlag() bool { return true }

// loadPolicy loads the policy the flags give for a chain starting in dir,
// printing the loader's warnings on stderr unless the caller shows them
// itself (keep): --explain puts them in the plan. A file that cannot be
// read or has bad rules, or a mode the settings refuse, is a usage error,
// its warnings printed whatever keep says.
func (c *cli) loadPolicy(f *policyFlags, dir, auditLog string, keep bool) (*loadedPolicy, int, bool) {
	lp, err := f.load(dir, auditLog)
	if err != nil || !keep {
		for _, w := range lp.warnings {
			fmt.Fprintf(c.stderr, "chainrun: policy: %s\n", w)
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "chainrun: %v\n", err)
		return nil, exitUsage, false
	}
	return lp, 0, true
}

// loadSandbox gives the sandbox boundary of the flags and settings (nil
// when off), printing its warning; a sandbox the settings require but the
// system cannot give is a usage error.
func (c *cli) loadSandbox(f *policyFlags, p *policy.Policy, dir string) (*sandbox.Boundary, int, bool) {
	b, warnings, err := f.sandboxFor(p, dir)
	for _, w := range warnings {
		fmt.Fprintf(c.stderr, "chainrun: sandbox: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "chainrun: %v\n", err)
		return nil, exitUsage, false
	}
	return b, 0, true
}

// approver settles ask verdicts for the CLI: --yes approves, an
// interactive terminal is asked, anything else refuses.
type approver struct {
	yes    bool
	prompt bool      // stdin and stderr are a terminal
	in     io.Reader // where the answer is read
	out    io.Writer // where the question is asked
}

func (a *approver) Approve(ctx context.Context, ch *chain.Chain, d *chain.Decision) (bool, error) {
	if a.yes {
		return true, nil
	}
	if a.prompt {
		fmt.Fprint(a.out, askText(d))
		fmt.Fprint(a.out, "Run this chain? [y/N] ")
		answer, err := readAnswer(a.in)
		if err != nil {
			fmt.Fprintln(a.out)
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			return true, nil
		}
	}
	return false, nil
}

// readAnswer reads one line byte by byte, so nothing after it is taken
// from the stdin the chain will read.
func readAnswer(r io.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, 1)
	for {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return b.String(), nil
			}
			b.WriteByte(buf[0])
		}
		if err != nil {
			return b.String(), err
		}
	}
}

// askText is the decision the person is asked about: the segments that
// ask or are denied, why, and the entries that would allow them.
func askText(d *chain.Decision) string {
	return "chainrun: policy " + report.NewDecision(d).Text(false)
}

// newApprover builds the CLI's approver.
func (c *cli) newApprover(cfg *config) *approver {
	a := &approver{yes: cfg.yes, out: c.stderr}
	if errf, ok := c.stderr.(*os.File); ok && isTerminal(c.stdin) && isTerminal(errf) {
		a.prompt = true
		a.in = c.stdin
	}
	return a
}
