package policy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/policy"
)

// Load reads Claude Code settings files; Authorize judges every segment of
// a parsed chain before anything runs. The strictest verdict wins.
func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "policy-example")
	defer os.RemoveAll(dir)
	settings := filepath.Join(dir, "settings.json")
	os.WriteFile(settings, []byte(`{"permissions": {
		"allow": ["Bash(git status:*)", "Bash(grep:*)"],
		"deny":  ["Bash(git push:*)"]
	}}`), 0o644)

	p, _, err := policy.Load(settings)
	if err != nil {
		panic(err)
	}
	for _, cmd := range []string{"git status | grep main", "git status && git push --force", "make"} {
		c, _ := chain.ParseDialect(cmd, chain.POSIX)
		d, err := p.Authorize(context.Background(), c, dir)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-30s %s\n", cmd, d.Verdict)
	}
	// Output:
	// git status | grep main         allow
	// git status && git push --force deny
	// make                           ask
}
