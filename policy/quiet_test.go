package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestQuietRuntimeReads: a read of a path known only at run time is left
// to the judgement as its segment starts where nothing else in the chain
// (no other segment, no substitution) may write, so that a stop there
// touches no file; anywhere else it asks before the run, as do writes,
// Read deny and ask rules that may match, and chains judged without a
// plan.
func TestQuietRuntimeReads(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const left = "judged on its real value as the segment starts"
	for _, c := range []struct {
		cmd     string
		deny    []string
		want    chain.Verdict
		reason  string
		noPlan  bool
		allowed []string
	}{
		{cmd: "cat $(echo notes.txt)", want: chain.Allow, reason: left},
		{cmd: "ls -la `which node`", want: chain.Allow, reason: left},
		{cmd: "cat $(find . -name notes.txt | head -1)", want: chain.Allow, reason: left},
		{cmd: "cat $(echo a) $(echo b) | wc -l", want: chain.Allow, reason: left},
		{cmd: "wc -l < $(echo notes.txt)", want: chain.Allow, reason: left},
		// The segment's own write is judged with it as it starts.
		{cmd: "cat $(echo notes.txt) > out.txt", want: chain.Allow, reason: left},
		// Another segment, a pipeline's other stage or a substitution
		// may write: a stop would leave its files.
		{cmd: "touch x && cat $(echo notes.txt)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(echo notes.txt) && touch x", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(echo notes.txt) | sort -o out", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(echo notes.txt) | tee out", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "echo x > log; cat $(echo notes.txt)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(touch y; echo notes.txt)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(echo x > y; echo notes.txt)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(git ls-files)", want: chain.Ask, reason: "cannot be shown"}, // git obeys the repository's configuration
		// A compound's parts are the chain's too: a write inside one, or
		// around one, is a write of the chain.
		{cmd: "cat $(echo notes.txt); { touch x; }", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "touch x; { cat $(echo notes.txt); }", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "if true; then touch x; fi; cat $(echo notes.txt)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "for f in a; do echo $f > out; done; cat $(echo notes.txt)", want: chain.Ask, reason: "cannot be shown"},
		// A second word known only at run time may turn a reader into a
		// writer (sort $X with X=-o f) before the first is judged.
		{cmd: "sort $(echo notes.txt) && cat $(echo notes.txt)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(echo notes.txt) 2>/dev/null | head -1", want: chain.Allow, reason: left},
		// Writes, rules that may match and unplanned chains still ask.
		{cmd: "touch $(echo x)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "echo hi > $(echo x)", want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat $(echo notes.txt)", deny: []string{"Read(./.env)"}, want: chain.Ask, reason: "may match deny rule Read(./.env)"},
		{cmd: "cat $(echo notes.txt)", noPlan: true, want: chain.Ask, reason: "cannot be shown"},
		{cmd: "cat ~/.ssh/id_rsa", noPlan: true, want: chain.Ask, reason: "cannot be shown"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			p := &Policy{Mode: ModeAcceptEdits, Home: testprog.TempDir(t), Roots: []string{root}}
			var err error
			p.Allow, p.PathAllow = mustRulesAndPaths(t, []string{"Bash(cat:*)", "Bash(ls:*)", "Bash(which:*)", "Bash(find:*)",
				"Bash(head:*)", "Bash(wc:*)", "Bash(sort:*)", "Bash(tee:*)", "Bash(touch:*)", "Bash(echo:*)", "Bash(git:*)"})
			p.Deny, p.PathDeny = mustRulesAndPaths(t, c.deny)
			ch := parse(t, c.cmd)
			if !c.noPlan {
				sh := expand.HostShell([]string{"PATH=/usr/bin:/bin", "HOME=" + p.Home}, root)
				sh.Writes = (&Policy{}).MayWrite
				if ch, err = expand.Plan(ch, sh); err != nil {
					t.Fatal(err)
				}
			}
			d, err := p.Authorize(context.Background(), ch, root)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(d.Chain, "\n")
			for _, s := range d.Segments {
				all += "\n" + strings.Join(s.Reasons, "\n")
			}
			if d.Verdict != c.want || !strings.Contains(all, c.reason) {
				t.Errorf("%q: %s, want %s with %q:\n%s", c.cmd, d.Verdict, c.want, c.reason, all)
			}
		})
	}
}
