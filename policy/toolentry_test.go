package policy

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestToolEntries: entries about Claude Code's tools rather than commands.
// A bare "Bash" deny is Claude Code's own tool removed (how its shell is
// routed to chainrun) and denies no command; "Bash(*)" and "Bash()" still
// deny every command; a bare "Bash" ask or allow still judges every
// command; an mcp__ entry is never a command rule.
func TestToolEntries(t *testing.T) {
	for _, tc := range []struct {
		name              string
		allow, ask, deny  []string
		cmd               string
		verdict           chain.Verdict
		warning           string // in the one warning; "" for none
		rules             int    // command rules read, all lists
		reason, notReason string
	}{
		{name: "bare Bash deny: Claude Code's tool, the allow rule decides", deny: []string{"Bash"}, allow: []string{"Bash(make:*)"},
			cmd: "make build", verdict: chain.Allow, warning: `"Bash" is read as Claude Code's own Bash tool`, rules: 1},
		{name: "bare Bash deny: no rule, asks as without it", deny: []string{"Bash"}, cmd: "make build", verdict: chain.Ask,
			warning: `to deny every command, write "Bash(*)"`, notReason: "deny rule"},
		{name: "bare Bash deny with spaces", deny: []string{" Bash "}, cmd: "make build", verdict: chain.Ask, warning: "Claude Code's own Bash tool"},
		{name: "Bash(*) deny: every command", deny: []string{"Bash(*)"}, allow: []string{"Bash(make:*)"}, cmd: "make build",
			verdict: chain.Deny, rules: 2, reason: "Bash(*)"},
		{name: "Bash() deny: every command", deny: []string{"Bash()"}, cmd: "make build", verdict: chain.Deny, rules: 1},
		{name: "a scoped Bash deny keeps its meaning", deny: []string{"Bash", "Bash(make clean)"}, allow: []string{"Bash(make:*)"},
			cmd: "make clean", verdict: chain.Deny, warning: "Claude Code's own Bash tool", rules: 2, reason: "Bash(make clean)"},
		{name: "bare Bash ask: every command asks", ask: []string{"Bash"}, allow: []string{"Bash(make:*)"}, cmd: "make build",
			verdict: chain.Ask, rules: 2},
		{name: "bare Bash allow: every command allowed", allow: []string{"Bash"}, cmd: "make build", verdict: chain.Allow, rules: 1},
		{name: "mcp__ allow is no command rule", allow: []string{"mcp__chainrun__run"}, cmd: "mcp__chainrun__run x", verdict: chain.Ask,
			warning: "permission to call an MCP tool"},
		{name: "mcp__ wildcard allow is no glob rule", allow: []string{"mcp__chainrun__*"}, cmd: "mcp__chainrun__x", verdict: chain.Ask,
			warning: "permission to call an MCP tool"},
		{name: "mcp__ deny is no command rule", deny: []string{"mcp__chainrun__run"}, allow: []string{"Bash"},
			cmd: "mcp__chainrun__run", verdict: chain.Allow, warning: "not a rule about commands", rules: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
			perms := map[string][]string{"allow": tc.allow, "ask": tc.ask, "deny": tc.deny}
			data, _ := json.Marshal(map[string]any{"permissions": perms})
			p, w, err := Parse(data, filepath.Join(root, "settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			p.Home = testprog.TempDir(t)
			switch {
			case tc.warning == "" && len(w) != 0, tc.warning != "" && (len(w) != 1 || !strings.Contains(w[0], tc.warning)):
				t.Errorf("warnings %q, want one with %q", w, tc.warning)
			}
			if n := len(p.Allow) + len(p.Ask) + len(p.Deny); n != tc.rules {
				t.Errorf("%d command rules, want %d: allow %+v ask %+v deny %+v", n, tc.rules, p.Allow, p.Ask, p.Deny)
			}
			d, err := p.Authorize(context.Background(), parse(t, tc.cmd), root)
			if err != nil {
				t.Fatal(err)
			}
			why := strings.Join(d.Segments[0].Reasons, "; ") + " " + d.Segments[0].Rule
			if d.Verdict != tc.verdict || !strings.Contains(why, tc.reason) || tc.notReason != "" && strings.Contains(why, tc.notReason) {
				t.Errorf("%q: %s (%s), want %s with %q", tc.cmd, d.Verdict, why, tc.verdict, tc.reason)
			}
		})
	}
}

// TestToolEntriesInTheHierarchy: the routed setup in Claude Code's files,
// a bare "Bash" deny in every scope (managed too) and the MCP tool allowed
// in the project: commands are judged by the Bash(...) rules alone, and
// each tool entry is named in a warning with its file.
func TestToolEntriesInTheHierarchy(t *testing.T) {
	dirs := claudeTree(t,
		`{"permissions":{"deny":["Bash"],"allow":["Bash(make:*)"]}}`,
		`{"permissions":{"deny":["Bash","Bash(make clean)"],"allow":["mcp__chainrun__run","mcp__chainrun__explain"]}}`,
		`{"permissions":{"deny":["Bash"]}}`,
		`{"permissions":{"deny":["Bash"]}}`)
	p, w, err := LoadClaude(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 6 {
		t.Errorf("%d warnings, want 6 (four Bash, two mcp__): %q", len(w), w)
	}
	for _, f := range ClaudeSettingsFiles(dirs) {
		if !strings.Contains(strings.Join(w, "\n"), f.Path+": permissions.deny[0] \"Bash\" is read as Claude Code's own Bash tool") {
			t.Errorf("no warning names %s: %q", f.Path, w)
		}
	}
	p.Home = dirs.Home
	for cmd, want := range map[string]chain.Verdict{"make build": chain.Allow, "make clean": chain.Deny, "curl x": chain.Ask} {
		d, err := p.Authorize(context.Background(), parse(t, cmd), dirs.Project)
		if err != nil || d.Verdict != want {
			t.Errorf("%q: %v (%v), want %s: %q", cmd, d.Verdict, err, want, d.Segments[0].Reasons)
		}
	}
}
