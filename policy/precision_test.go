package policy

import (
	"context"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// precisionCases are the words, globs, devices and directories the policy
// knows are no risk, beside the ones it must still ask or deny about: a
// word is a path only where the program's record says so.
var precisionCases = []bypassCase{
	// echo and printf print their operands; their redirects are writes.
	{cmd: "echo $HOME", verdict: "allow", why: "echo prints the word, it reads no file"},
	{cmd: `echo "$PATH"`, verdict: "allow", env: []string{"PATH=/usr/bin:/home/x/.cargo/bin"}, why: "a printed value is no path"},
	{cmd: "echo ~", verdict: "allow", why: "the home directory printed is not read"},
	{cmd: "printf '%s\\n' {HOME}/.ssh/id_rsa", verdict: "allow", allow: []string{"printf:*"}, why: "printf prints the name"},
	{cmd: "echo x > {HOME}/.bashrc", verdict: "ask", why: "the redirect is still a write outside the roots"},
	{cmd: "echo ~/.ssh/id_rsa", verdict: "allow", deny: []string{"Read(~/.ssh/**)"}, why: "a Read deny judges reads; echo reads nothing"},
	{cmd: "echo x; rm -rf /", verdict: "deny", why: "a printer does not carry the chain past a deny"},
	// A glob is known when the plan is made unless a segment before it may
	// write where it looks.
	{cmd: "ls docs/*.md && cat docs/*.md", verdict: "allow", plan: "ls docs/readme.md; cat docs/readme.md",
		why: "ls writes nothing: the second glob is known"},
	{cmd: "touch docs/b.md && cat docs/*.md", verdict: "ask", reason: "known only at run time",
		why: "touch may create files the glob then matches"},
	{cmd: "ls > docs/x.md && cat docs/*.md", verdict: "ask", reason: "known only at run time",
		why: "the redirect writes a file"},
	{cmd: "sort -o docs/x.md docs/readme.md && cat docs/*.md", verdict: "ask", reason: "known only at run time",
		why: "sort -o writes: its guard says so"},
}

func TestPrecisionTable(t *testing.T) {
	root, home := fixture(t)
	for _, c := range precisionCases {
		t.Run(c.cmd, func(t *testing.T) {
			ch, err := planCase(c, root, home)
			if err != nil {
				t.Fatalf("%q: parse or plan: %v", c.cmd, err)
			}
			judge := func(ch *chain.Chain, mode Mode) *chain.Decision {
				p := casePolicy(t, c, home)
				p.Mode = mode
				d, err := p.Authorize(context.Background(), ch, root)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			for _, p := range caseProblems(c, ch, judge(ch, c.mode), judge, root, home) {
				t.Errorf("%q: %s", c.cmd, p)
			}
		})
	}
}
