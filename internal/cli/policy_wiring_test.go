package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestPolicyFlagsLoad: what the shared policy flags load: the settings
// files of the hierarchy, present or not, are the policy's sources (what
// the MCP server's digest of the policy covers), and the audit log is
// protected but no source.
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
	if err := os.WriteFile(project, []byte(`{"permissions":{"deny":["Bash(*)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	claude := ""
	base := policyFlags{claude: &claude}
	lp, err := base.load(dir, "audit.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("audit.jsonl")
	if !slices.Contains(lp.p.Protect, abs) || !slices.Contains(lp.p.Protect, project) || !slices.Contains(lp.p.Protect, local) {
		t.Errorf("protected %q: want the audit log and the settings files", lp.p.Protect)
	}
	if !slices.Contains(lp.sources, project) || !slices.Contains(lp.sources, local) || slices.Contains(lp.sources, abs) {
		t.Errorf("sources %q: want the settings files, the missing local one included, and not the audit log", lp.sources)
	}
	if len(lp.warnings) != 0 {
		t.Errorf("warnings %q (the project file now denies Bash(*))", lp.warnings)
	}
}
