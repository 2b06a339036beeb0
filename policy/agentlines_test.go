package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestAgentLinesAsks counts the entries of the agent corpus
// (chain/testdata/agentlines.txt) that ask with every program allowed by
// Bash(*), in acceptEdits and in default mode: the asks that are left are
// the policy's own (paths, structure), so a change that makes the policy
// stricter shows here as a count that grows. go test -run
// TestAgentLinesAsks -v prints the counts; CHAINRUN_ASKS=1 prints every
// asking entry with its first reason too.
func TestAgentLinesAsks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "chain", "testdata", "agentlines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for block := range strings.SplitSeq(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n#---\n") {
		lines := strings.Split(block, "\n")
		for len(lines) > 0 && (lines[0] == "#" || strings.HasPrefix(lines[0], "# ")) {
			lines = lines[1:]
		}
		if e := strings.Trim(strings.Join(lines, "\n"), "\n"); e != "" {
			entries = append(entries, e)
		}
	}
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	home := testprog.TempDir(t)
	show := os.Getenv("CHAINRUN_ASKS") != ""
	for _, mode := range []Mode{ModeAcceptEdits, ModeDefault} {
		p := &Policy{Mode: mode, Home: home, Allow: mustRules(t, []string{"Bash(*)"})}
		parsed, asks := 0, 0
		for _, e := range entries {
			c, err := chain.ParseDialect(e, chain.POSIX)
			if err != nil {
				continue
			}
			parsed++
			d, err := p.Authorize(context.Background(), c, root)
			if err != nil {
				t.Fatalf("%q: %v", e, err)
			}
			if d.Verdict == chain.Allow {
				continue
			}
			asks++
			if show {
				t.Logf("%s %s: %q: %s", mode, d.Verdict, e, firstReason(d))
			}
		}
		t.Logf("mode %s: %d of %d parsed entries do not allow", mode, asks, parsed)
	}
}

// firstReason is the reasons of the first segment that does not allow,
// or the chain's.
func firstReason(d *chain.Decision) string {
	for _, s := range d.Segments {
		if s.Verdict != chain.Allow {
			return strings.Join(s.Reasons, "; ")
		}
	}
	return strings.Join(d.Chain, "; ")
}
