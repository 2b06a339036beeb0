package policy

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// claudeTree writes a user, project and local settings file and a managed
// directory, and returns the directories a session there reads.
func claudeTree(t *testing.T, user, project, local, managed string) ClaudeDirs {
	t.Helper()
	proj, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	home, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	mdir := testprog.TempDir(t)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	for path, body := range map[string]string{
		filepath.Join(home, ".claude", "settings.json"):       user,
		filepath.Join(proj, ".claude", "settings.json"):       project,
		filepath.Join(proj, ".claude", "settings.local.json"): local,
		filepath.Join(mdir, "managed-settings.json"):          managed,
	} {
		if body == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return ClaudeDirs{Project: proj, Home: home, Managed: mdir}
}

func TestLoadClaudeHierarchy(t *testing.T) {
	dirs := claudeTree(t,
		`{"permissions":{"allow":["Bash(git log:*)"],"defaultMode":"plan"}}`,
		`{"permissions":{"allow":["Bash(go test:*)"],"deny":["Bash(git push:*)"],"defaultMode":"acceptEdits"}}`,
		`{"permissions":{"allow":["Bash(git push:*)","Edit(./build/**)"],"deny":["Read(./.env)"]}}`,
		"")
	proj, home := dirs.Project, dirs.Home
	p, warnings, err := LoadClaude(dirs)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("%v %q", err, warnings)
	}
	if p.Mode != ModeAcceptEdits {
		t.Errorf("mode %q: the project's defaultMode beats the user's", p.Mode)
	}
	for cmd, want := range map[string]string{
		"git push":   "deny: matches deny rule Bash(git push:*) (project " + filepath.Join(proj, ".claude", "settings.json") + ")",
		"git log -1": "allow: matches prefix allow rule Bash(git log:*) (user " + filepath.Join(home, ".claude", "settings.json") + ")",
		"cat .env":   "deny: .env",
	} {
		d, err := p.Authorize(context.Background(), parse(t, cmd), proj)
		if err != nil {
			t.Fatal(err)
		}
		got := string(d.Verdict) + ": " + strings.Join(d.Segments[0].Reasons, "; ")
		if !strings.HasPrefix(got, strings.SplitN(want, ":", 2)[0]) || !strings.Contains(got, strings.SplitN(want, ": ", 2)[1]) {
			t.Errorf("%q: got %q, want %q", cmd, got, want)
		}
	}
	d, _ := p.Authorize(context.Background(), parse(t, "cat .env"), proj)
	if !strings.Contains(strings.Join(d.Segments[0].Reasons, ""), "local "+filepath.Join(proj, ".claude", "settings.local.json")) {
		t.Errorf("the Read deny names the local file: %q", d.Segments[0].Reasons)
	}
	for _, f := range []string{".claude/settings.json", ".claude/settings.local.json"} {
		if !slices.Contains(p.Protect, filepath.Join(proj, f)) {
			t.Errorf("%s not protected: %q", f, p.Protect)
		}
	}
}

func TestLoadClaudeManaged(t *testing.T) {
	dirs := claudeTree(t,
		`{"permissions":{"allow":["Bash(curl:*)"]}}`,
		`{"permissions":{"defaultMode":"bypassPermissions"}}`,
		"",
		`{"allowManagedPermissionRulesOnly":true,"permissions":{"deny":["Bash(rm:*)"],"disableBypassPermissionsMode":"disable"}}`)
	p, warnings, err := LoadClaude(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Allow) != 0 || len(p.Deny) != 1 || p.Mode == ModeBypass {
		t.Errorf("allow %d deny %d mode %q", len(p.Allow), len(p.Deny), p.Mode)
	}
	if len(warnings) < 2 {
		t.Errorf("warnings %q", warnings)
	}
	if err := p.SetMode(ModeBypass); err == nil {
		t.Error("SetMode(bypassPermissions) accepted though managed settings disable it")
	}
	if err := p.SetMode(ModeAcceptEdits); err != nil || p.Mode != ModeAcceptEdits {
		t.Errorf("SetMode: %v %q", err, p.Mode)
	}
}

// A project's own files cannot choose bypassPermissions; the user's can,
// and a file on the command line sits between local and managed.
func TestLoadClaudeBypassScope(t *testing.T) {
	dirs := claudeTree(t, `{"permissions":{"defaultMode":"bypassPermissions"}}`,
		`{"permissions":{"defaultMode":"bypassPermissions"}}`, "", "")
	p, w, err := LoadClaude(dirs)
	if err != nil || p.Mode != ModeBypass || len(w) != 1 || !strings.Contains(w[0], "cannot choose it") {
		t.Errorf("mode %q warnings %q err %v", p.Mode, w, err)
	}
	extra := filepath.Join(testprog.TempDir(t), "cli.json")
	if err := os.WriteFile(extra, []byte(`{"permissions":{"defaultMode":"dontAsk","deny":["Bash(ls)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p, _, err = LoadClaude(dirs, extra)
	if err != nil || p.Mode != ModeDontAsk || len(p.Deny) != 1 || !slices.Contains(p.Protect, extra) {
		t.Errorf("mode %q deny %d protect %q err %v", p.Mode, len(p.Deny), p.Protect, err)
	}
}

func TestWriteRulesAndWarnings(t *testing.T) {
	p, w, err := Parse([]byte(`{"permissions":{"allow":["Write(./x)","Edit(./y)"],"deny":["Write(./z)"],"ask":["Read(~/.aws/**)"]}}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.PathAllow) != 1 || p.PathAllow[0].Text != "Edit(./y)" || len(p.PathDeny) != 1 || p.PathDeny[0].Tool != "Edit" ||
		len(p.PathAsk) != 1 || p.PathAsk[0].Tool != "Read" {
		t.Errorf("allow %+v deny %+v ask %+v", p.PathAllow, p.PathDeny, p.PathAsk)
	}
	if len(w) != 2 || !strings.Contains(w[0], "ignored") || !strings.Contains(w[1], "read as the Edit rule") {
		t.Errorf("warnings %q", w)
	}
}

// TestEditSuggestions: a write that asks for want of permission suggests
// the Edit rule, beside the Bash rule when no rule allowed the command.
func TestEditSuggestions(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	p := &Policy{Allow: mustRules(t, []string{"echo:*", "npm test:*", "sed:*"}), Home: testprog.TempDir(t)}
	for cmd, want := range map[string][]string{
		"echo hi > notes.txt":      {"Edit(./notes.txt)"},
		"> out.txt echo hi":        {"Edit(./out.txt)"},
		"echo x >| out.txt":        {"Edit(./out.txt)"},
		"echo hi>out.txt":          {"Edit(./out.txt)"},
		"npm test &> test.log":     {"Edit(./test.log)"},
		"make > build/log.txt":     {"Bash(make:*)", "Edit(./build/log.txt)"},
		"echo hi 2> err.txt":       {"Edit(./err.txt)"},
		"echo hi > /dev/null 2>&1": nil,
		"sed -i s/a/b/ notes.txt":  {"Edit(./notes.txt)"},
	} {
		t.Run(cmd, func(t *testing.T) {
			d, err := p.Authorize(context.Background(), parse(t, cmd), root)
			if err != nil {
				t.Fatal(err)
			}
			wantVerdict := chain.Ask
			if want == nil {
				wantVerdict = chain.Allow
			}
			if d.Verdict != wantVerdict || !slices.Equal(d.Suggestions, append([]string{}, want...)) {
				t.Errorf("%q: %s %q, want %s %q (%q)", cmd, d.Verdict, d.Suggestions, wantVerdict, want, d.Segments[0].Reasons)
			}
		})
	}
}

// TestIssueExample is the new user of issue 12: Bash allow rules cover
// running the commands, not writing files, and Read deny rules hold for
// every program that reads the file.
func TestIssueExample(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	if err := os.WriteFile(filepath.Join(root, ".env"), []byte("KEY=1"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, w, err := Parse([]byte(`{"permissions":{"allow":["Bash(echo:*)","Bash(npm test:*)","Bash(cat:*)","Bash(grep:*)"],
		"deny":["Read(./.env)","Read(./secrets/**)"]}}`), filepath.Join(root, "settings.json"))
	if err != nil || len(w) != 0 {
		t.Fatalf("%v %q", err, w)
	}
	p.Home = testprog.TempDir(t)
	for cmd, want := range map[string]chain.Verdict{
		"echo hi > notes.txt": chain.Ask, "> out.txt echo hi": chain.Ask, "echo x >| out.txt": chain.Ask,
		"echo hi>out.txt": chain.Ask, "npm test &> test.log": chain.Ask, "npm test 2> err.log": chain.Ask,
		"cat .env": chain.Deny, "grep KEY < .env": chain.Deny, "cat secrets/a/b": chain.Deny,
		"echo hi": chain.Allow, "npm test": chain.Allow, "echo hi 2>&1 > /dev/null": chain.Allow,
	} {
		d, err := p.Authorize(context.Background(), parse(t, cmd), root)
		if err != nil || d.Verdict != want {
			t.Errorf("%q: %v (%v), want %s: %q", cmd, d.Verdict, err, want, d.Segments[0].Reasons)
		}
	}
}
