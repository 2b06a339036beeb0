package policy

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestSecretsFiles: a secrets file (.env, .env.local) asks when it is
// read, removed, moved, edited in place or written over, and is a write
// like any other when a redirect or a copy creates it or a redirect
// appends to it (and to no other file by a second name); templates
// (.env.example) are no secrets files.
func TestSecretsFiles(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	for _, f := range []string{".env", ".env.local", ".env.example", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("K=v\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	home := testprog.TempDir(t)
	if runtime.GOOS != "windows" {
		if err := os.Link(filepath.Join(root, "notes.txt"), filepath.Join(root, ".env.linked")); err != nil {
			t.Fatal(err)
		}
	}
	// An append to one that exists when it has no other name: the link
	// count is read on Unix only.
	appendVerdict, linkedVerdict := chain.Allow, chain.Ask
	if runtime.GOOS == "windows" {
		appendVerdict = chain.Ask
		linkedVerdict = chain.Allow // no second name is made there: .env.linked is a new file
	}
	for cmd, want := range map[string]chain.Verdict{
		"cat .env": chain.Ask, "cat .env.local": chain.Ask, "grep K .env.production": chain.Ask,
		"cat .env.example": chain.Allow, "cat .env.sample .env.template .env.dist": chain.Allow,
		"cp .env.example .env.dev": chain.Allow, "echo K=v > .env.test": chain.Allow, "touch .env.ci": chain.Ask, "sed -i s/K/L/ .env.ci": chain.Ask,
		"echo K=v >> .env": appendVerdict, "echo K=v &>> .env.local": appendVerdict, "echo K=v >> .env.linked": linkedVerdict,
		"echo K=v > .env": chain.Ask, "touch .env.local": chain.Ask, "cp notes.txt .env": chain.Ask,
		"sed -i s/K/L/ .env": chain.Ask, "rm .env": chain.Ask, "rm -f .env.missing": chain.Ask,
		"mv .env notes2.txt": chain.Ask, "mv .env.local .env.new": chain.Ask, "cp .env notes2.txt": chain.Ask,
		"cp -r notes.txt .env.x": chain.Ask, "git add .env": chain.Ask, "echo x > '.env:s'": chain.Ask,
		"cp .env.example sub/.env": chain.Allow, "mv .env.example .env.prod": chain.Allow,
		"ln -s " + filepath.Join(home, ".ssh", "id_rsa") + " .env.new": chain.Ask,
	} {
		t.Run(cmd, func(t *testing.T) {
			p := &Policy{Mode: ModeAcceptEdits, Home: home}
			p.Allow, p.PathAllow = mustRulesAndPaths(t, []string{"Bash(cat:*)", "Bash(grep:*)", "Bash(cp:*)", "Bash(echo:*)",
				"Bash(touch:*)", "Bash(sed:*)", "Bash(rm:*)", "Bash(mv:*)", "Bash(git add:*)", "Bash(ln:*)"})
			d, err := p.Authorize(context.Background(), parse(t, cmd), root)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != want {
				t.Errorf("%q: %s, want %s: %s", cmd, d.Verdict, want, strings.Join(d.Segments[0].Reasons, "; "))
			}
		})
	}
}
