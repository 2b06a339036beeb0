package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestNodeE2E runs testdata/e2e/e2e.test.mjs: the official TypeScript
// MCP client, from npm, drives the built `chainrun mcp` over stdio. It
// needs node and npm: without them it skips, unless CHAINRUN_E2E=require
// (set by .ci/run), where a missing tool or a failed npm ci fails it.
func TestNodeE2E(t *testing.T) {
	required := os.Getenv("CHAINRUN_E2E") == "require"
	missing := func(format string, a ...any) {
		t.Helper()
		if required {
			t.Fatalf(format, a...)
		}
		t.Skipf(format, a...)
	}
	if runtime.GOOS == "windows" {
		t.Skip("the e2e script reads /proc and signals pids; the Wine tier covers chainrun.exe mcp")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed (apt install nodejs npm): the TypeScript client e2e test needs it")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		missing("npm is not installed (apt install npm): the TypeScript client e2e test needs it")
	}
	bin := chainrunBin(t, runtime.GOOS)
	dir, err := filepath.Abs(filepath.Join("testdata", "e2e"))
	if err != nil {
		t.Fatal(err)
	}
	ci := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	ci.Dir = dir
	if out, err := ci.CombinedOutput(); err != nil {
		missing("npm ci in %s: %v\n%s", dir, err, out)
	}
	env := testEnv()
	env = append(env, "CHAINRUN_BIN="+bin, "CHAINRUN_WORK="+testprog.TempDir(t),
		"CHAINRUN_CLAUDE_MCP_JSON="+routedMCPJSON, "CHAINRUN_CLAUDE_SETTINGS="+routedSettings)
	// The Claude Code setup names chainrun as the README installs it: on
	// PATH, with chainrun-mcp beside it.
	path, _ := environ.Host.Get(env, "PATH")
	env = environ.Host.Set(env, "PATH", path+string(os.PathListSeparator)+filepath.Dir(bin))
	env = environ.Host.Unset(env, "NODE_OPTIONS")
	cmd := exec.Command(node, "--test", "--test-reporter=spec", "e2e.test.mjs")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	t.Logf("node --test e2e.test.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the TypeScript client e2e test failed: %v", err)
	}
}
