package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestPolicyFlagsLoad: what the shared policy flags load, and the digest
// that binds an MCP approval to the policy: it changes with any settings
// file of the hierarchy (one that appears included), the mode and the
// working directories, and the audit log is protected.
func TestPolicyFlagsLoad(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("USERPROFILE", filepath.Join(dir, "home"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	project := filepath.Join(dir, ".claude", "settings.json")
	local := filepath.Join(dir, ".claude", "settings.local.json")
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(project, `{"permissions":{"deny":["Bash"]}}`)
	claude := ""
	id := func(f policyFlags) string {
		t.Helper()
		lp, err := f.load(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		return lp.id
	}
	base := policyFlags{claude: &claude}
	first := id(base)
	for name, change := range map[string]func() policyFlags{
		"the mode":           func() policyFlags { f := base; f.mode = "acceptEdits"; return f },
		"an added directory": func() policyFlags { f := base; f.addDirs = []string{"x"}; return f },
		"a file's content":   func() policyFlags { write(project, `{"permissions":{"deny":["Bash(*)"]}}`); return base },
		"a file that appears": func() policyFlags {
			write(local, `{}`)
			return base
		},
	} {
		before := id(base)
		if got := id(change()); got == before {
			t.Errorf("%s: the digest did not change", name)
		}
	}
	if id(base) == first {
		t.Error("the digest is the first one after every change")
	}

	lp, err := base.load(dir, "audit.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("audit.jsonl")
	if !slices.Contains(lp.p.Protect, abs) || !slices.Contains(lp.p.Protect, project) || !slices.Contains(lp.p.Protect, local) {
		t.Errorf("protected %q: want the audit log and the settings files", lp.p.Protect)
	}
	if len(lp.warnings) != 0 {
		t.Errorf("warnings %q (the project file now denies Bash(*))", lp.warnings)
	}
}
