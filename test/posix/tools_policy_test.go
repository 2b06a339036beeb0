//go:build unix

package posix_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
	"github.com/chainrun/chainrun/tools"
)

// TestToolsJudgedAsPrograms runs agent command lines under a policy with
// the built-in tools and with the real programs: every segment gets the
// same verdict and the chain the same outcome either way, since the
// policy judges the argv with the program's record whichever runs.
func TestToolsJudgedAsPrograms(t *testing.T) {
	settings := []byte(`{"permissions": {
		"allow": ["Bash(ls:*)", "Bash(cat:*)", "Bash(grep:*)", "Bash(head:*)", "Bash(wc:*)", "Bash(find:*)", "Bash(sort:*)"],
		"deny":  ["Read(./secret.txt)", "Bash(rm -rf /:*)"]
	}}`)
	p, _, err := policy.Parse(settings, "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"ls -a", "cat a.txt | head -n 1", "cat secret.txt", "grep -rn x .", "grep -l secret secret.txt",
		"find . -name '*.txt'", "find . -name a.txt -delete", "rm -rf build", "mkdir -p build && cp a.txt build/",
		"sort -u a.txt | wc -l", "head secret.txt", "tail -n 1 secret.txt", "xargs cat < a.txt", "env X=1 cat a.txt",
		"tee out.txt < a.txt", "touch new.txt", "mv a.txt b.txt", "sort -o out.txt a.txt", "wc -l secret.txt a.txt",
		"find . -exec cat {} +", "rm -rf /",
	}
	for _, line := range lines {
		var got [2]string
		for i, mode := range []tools.Mode{tools.ModeAlways, tools.ModeNever} {
			dir := testprog.TempDir(t)
			os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a.txt\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("x\n"), 0o644)
			res, err := engine.RunString(context.Background(), line, engine.Options{Dir: dir, Authorizer: p, Tools: mode,
				Env: []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}})
			d := (*chain.Decision)(nil)
			var de *chain.DeniedError
			switch {
			case errors.As(err, &de):
				d = de.Decision
				got[i] = "refused"
			case res != nil:
				d = res.Decision
				got[i] = fmt.Sprint("ran, status ", res.ExitCode, ", stdout ", string(res.Stdout))
			}
			if d == nil {
				t.Fatalf("%s: no decision (%v)", line, err)
			}
			got[i] += fmt.Sprint(": ", d.Verdict)
			for _, s := range d.Segments {
				got[i] += fmt.Sprint(" ", s.Verdict)
			}
		}
		t.Logf("%s: %s", line, got[0])
		if got[0] != got[1] {
			t.Errorf("%s: built-in tools %q, programs %q", line, got[0], got[1])
		}
	}
}
