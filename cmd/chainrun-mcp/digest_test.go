package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestPolicyID: the digest that binds an MCP approval to the policy
// changes with a file's content, a file that appears, the mode and the
// working directories, and only with them.
func TestPolicyID(t *testing.T) {
	dir := testprog.TempDir(t)
	project := filepath.Join(dir, "settings.json")
	local := filepath.Join(dir, "settings.local.json")
	files := []string{project, local}
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(project, `{"permissions":{"deny":["Bash"]}}`)
	base := policyID(files, "", nil)
	if again := policyID(files, "", nil); again != base {
		t.Fatalf("the same policy digests twice differently: %s, %s", base, again)
	}
	for _, tc := range []struct {
		name string
		id   func() string
	}{
		{"the mode", func() string { return policyID(files, "acceptEdits", nil) }},
		{"a working directory", func() string { return policyID(files, "", []string{dir}) }},
		{"a file's content", func() string { write(project, `{"permissions":{"deny":["Bash(*)"]}}`); return policyID(files, "", nil) }},
		{"a file that appears", func() string { write(local, `{}`); return policyID(files, "", nil) }},
	} {
		before := policyID(files, "", nil)
		if got := tc.id(); got == before {
			t.Errorf("%s: the digest did not change", tc.name)
		}
	}
}
