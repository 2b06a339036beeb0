package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/posix"
	"github.com/chainrun/chainrun/sandbox"
)

// TestRunSandboxed: a server given a boundary confines every call's
// programs to it, and the result explains a failure inside it.
func TestRunSandboxed(t *testing.T) {
	if posix.LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	base := testprog.TempDir(t)
	root, tmp, outside := filepath.Join(base, "root"), filepath.Join(base, "tmp"), filepath.Join(base, "outside")
	for _, d := range []string{root, tmp, outside} {
		os.Mkdir(d, 0o755)
	}
	c := connect(t, Config{Dir: root, Sandbox: sandbox.New(&sandbox.Config{}, []string{root}, tmp)}, nil, "")
	var out RunResult
	res := c.call("run", map[string]any{"command": "write-file inside && write-file " + outside + "/x"}, &out)
	if out.ExitCode != 1 {
		t.Errorf("exit %d, want 1:\n%s", out.ExitCode, text(res))
	}
	if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
		t.Error("a call's program wrote outside the boundary")
	}
	if _, err := os.Stat(filepath.Join(root, "inside")); err != nil {
		t.Errorf("a call's program could not write inside the root: %v", err)
	}
	if txt := text(res); !strings.Contains(txt, "sandbox") {
		t.Errorf("the result does not explain the sandbox:\n%s", txt)
	}
}
