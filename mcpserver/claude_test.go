package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The project's files of Claude Code's configuration routed through
// chainrun, exactly as README.md and docs/mcp.md give them: the settings
// deny Claude Code's own Bash tool and allow chainrun's MCP tools; the
// MCP configuration starts the server with the settings Claude Code reads.
const (
	routedSettings = `{"permissions": {"deny": ["Bash"], "allow": ["mcp__chainrun__run", "mcp__chainrun__explain", "mcp__chainrun__job_output", "mcp__chainrun__job_kill", "mcp__chainrun__job_list", "Bash(go test:*)"]}}`
	routedMCPJSON  = `{"mcpServers": {"chainrun": {"command": "chainrun", "args": ["mcp", "--claude-settings"]}}}`
)

// claudeTree is a project set up so, with a home of its own whose
// settings allow a program, and a local file denying one of its forms.
var claudeTree = map[string]string{
	"home/.claude/settings.json":       `{"permissions": {"allow": ["Bash(show-argv:*)"]}}`,
	"proj/.claude/settings.json":       routedSettings,
	"proj/.claude/settings.local.json": `{"permissions": {"deny": ["Bash(show-argv -x:*)"]}}`,
	"proj/.mcp.json":                   routedMCPJSON,
	"other/.keep":                      ``,
	"third/.keep":                      ``,
}

// TestRoutedDocs: README.md and docs/mcp.md give the files the test below
// runs with, character for character.
func TestRoutedDocs(t *testing.T) {
	for _, doc := range []string{"../README.md", "../docs/mcp.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{routedSettings, routedMCPJSON} {
			if !strings.Contains(string(b), "\n"+want+"\n") {
				t.Errorf("%s lacks the line %s", doc, want)
			}
		}
	}
}

// TestStdioClaudeRouted starts the built `chainrun mcp --claude-settings`
// in a project with a real .claude tree and a home of its own, as Claude
// Code starts the server .mcp.json names (in the project's directory),
// with --permission-mode and --add-dir as the CLI takes them. With
// "deny": ["Bash"] an ordinary command runs, the explain tool says the
// entry was read as Claude Code's own tool, the mcp__chainrun__ entries
// are no command rules, and the Bash(...) rules still judge.
func TestStdioClaudeRouted(t *testing.T) {
	bin := chainrunBin(t, runtime.GOOS)
	dir, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	for name, body := range claudeTree {
		path := filepath.Join(dir, filepath.FromSlash(name))
		mkdirs(t, dir, filepath.Dir(filepath.FromSlash(name)))
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	proj := filepath.Join(dir, "proj")
	var mcpJSON struct {
		MCPServers map[string]struct{ Args []string } `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(routedMCPJSON), &mcpJSON); err != nil {
		t.Fatal(err)
	}
	args := append(mcpJSON.MCPServers["chainrun"].Args, "--permission-mode", "acceptEdits", "--add-dir", "../other", "--dialect", "posix")
	cmd := exec.Command(bin, args...)
	cmd.Dir = proj
	env := testEnv()
	env = environ.Host.Set(env, "HOME", filepath.Join(dir, "home"))
	env = environ.Host.Set(env, "USERPROFILE", filepath.Join(dir, "home"))
	cmd.Env = environ.Host.Unset(env, "CLAUDE_CONFIG_DIR")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-routed-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	call := func(tool, command string) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"command": command}})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := res.StructuredContent.(map[string]any)
		return res, out
	}
	for _, step := range []struct {
		name, cmd, stdout string
		refused           string // the decision the error result names; "" for a chain that runs
	}{
		{"an ordinary command runs", "show-argv a", "[a]\n", ""},
		{"the local file's scoped deny still denies", "show-argv -x", "", "decision: deny"},
		{"--permission-mode acceptEdits: a write in the project", "show-argv a > notes.txt", "", ""},
		{"--add-dir: a write in the added directory", "show-argv a > ../other/y.txt", "", ""},
		{"a write elsewhere asks; this client cannot approve", "show-argv a > ../third/z.txt", "", "decision: ask"},
		{"an mcp__chainrun__ entry allows no program of that name", "mcp__chainrun__run x", "", "decision: ask"},
	} {
		t.Run(step.name, func(t *testing.T) {
			res, out := call("run", step.cmd)
			if res.IsError != (step.refused != "") || !strings.Contains(text(res), step.refused) || step.refused == "" && out["stdout"] != step.stdout {
				t.Errorf("isError %v stdout %q, want %q %q\n%s", res.IsError, out["stdout"], step.refused, step.stdout, text(res))
			}
		})
	}
	for _, f := range []string{"proj/notes.txt", "other/y.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "third", "z.txt")); err == nil {
		t.Error("third/z.txt written without approval")
	}

	res, plan := call("explain", "show-argv a")
	const note = `"Bash" is read as Claude Code's own Bash tool, which it removes, not as a rule about commands`
	warnings, _ := plan["policy_warnings"].([]any)
	var joined []string
	for _, w := range warnings {
		joined = append(joined, w.(string))
	}
	all := strings.Join(joined, "\n")
	if plan["decision"] != "allow" || !strings.Contains(all, filepath.Join(proj, ".claude", "settings.json")+`: permissions.deny[0] `+note) {
		t.Errorf("explain: decision %v, policy_warnings:\n%s", plan["decision"], all)
	}
	if !strings.Contains(all, `"mcp__chainrun__run" is Claude Code's permission to call an MCP tool, not a rule about commands`) {
		t.Errorf("explain: no warning for the mcp__ entry:\n%s", all)
	}
	if !strings.Contains(text(res), "warning: policy: ") || !strings.Contains(text(res), note) {
		t.Errorf("explain text lacks the note:\n%s", text(res))
	}
	// The server's stderr is complete, and no longer written to, once the
	// session is closed and the process waited for.
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if !strings.Contains(stderr.String(), note) {
		t.Errorf("the server's stderr lacks the note:\n%s", stderr.String())
	}
}
