package policy

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/sandbox"
)

// TestSandboxSettingsMerge reads the sandbox block across the hierarchy:
// single values from the highest file that sets them, path lists
// concatenated with each file's paths resolved from its own places, and
// the Read and Edit rules feeding the boundary.
func TestSandboxSettingsMerge(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths; Windows confines nothing, so no boundary is built there")
	}
	dirs := claudeTree(t,
		`{"sandbox":{"enabled":true,"autoAllowBashIfSandboxed":false,"filesystem":{"allowWrite":["~/cache"],"denyRead":["~/.ssh"]}}}`,
		`{"sandbox":{"autoAllowBashIfSandboxed":true,"excludedCommands":["docker"],"filesystem":{"allowWrite":["//opt/out","./gen"],"denyWrite":["/conf"]}}}`,
		`{"sandbox":{"failIfUnavailable":true,"network":{"allowLocalBinding":true}},"permissions":{"allow":["Edit(//srv/data/**)","Edit(*.md)"],"deny":["Edit(./locked)","Read(//etc/shadow)","Read(**/.env)"]}}`,
		"")
	proj, home := dirs.Project, dirs.Home
	t.Setenv("HOME", home)
	p, _, err := LoadClaude(dirs)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Sandbox
	if !c.Enabled || !c.FailIfUnavailable || !c.AutoAllow() || !c.AllowLocalBinding || !slices.Equal(c.Excluded, []string{"docker"}) {
		t.Errorf("single values: %+v", c)
	}
	wantWrite := []string{filepath.Join(home, "cache"), "/opt/out", filepath.Join(proj, "gen")}
	if !slices.Equal(c.AllowWrite, wantWrite) {
		t.Errorf("allowWrite %q, want %q", c.AllowWrite, wantWrite)
	}
	if want := filepath.Join(proj, ".claude", "conf"); !slices.Equal(c.DenyWrite, []string{want}) {
		t.Errorf("denyWrite %q, want [%s] (\"/x\" is from the settings file's directory)", c.DenyWrite, want)
	}
	b := p.SandboxBoundary(proj, "/tmp")
	for _, w := range []string{proj, "/tmp", "/srv/data"} {
		if !slices.Contains(b.Write, w) {
			t.Errorf("writable %q lacks %s", b.Write, w)
		}
	}
	if !slices.Contains(b.DenyWrite, filepath.Join(proj, "locked")) || !slices.Contains(b.DenyRead, "/etc/shadow") {
		t.Errorf("Edit and Read denies: denyWrite %q denyRead %q", b.DenyWrite, b.DenyRead)
	}
	if !slices.Contains(b.DenyWrite, filepath.Join(proj, ".claude", "settings.json")) {
		t.Errorf("denyWrite %q lacks the settings files the judgement depends on", b.DenyWrite)
	}
	notes := strings.Join(b.Notes, "\n")
	for _, rule := range []string{"Read(**/.env)", "Edit(*.md)"} {
		if !strings.Contains(notes, rule) {
			t.Errorf("notes do not say %s names no fixed path:\n%s", rule, notes)
		}
	}
}

// TestSandboxAutoAllow: with the sandbox in force and
// autoAllowBashIfSandboxed, a segment asking only for want of a rule runs;
// denies and the hard asks keep their verdict, and excludedCommands are
// judged as without the sandbox.
func TestSandboxAutoAllow(t *testing.T) {
	dir := testprog.TempDir(t)
	base := Policy{
		Deny:     []Rule{mustRule(t, "rm:*")},
		Ask:      []Rule{mustRule(t, "git push:*")},
		PathDeny: []PathRule{{Text: "Read(./secret)", Tool: "Read", Pattern: "./secret"}},
	}
	tests := []struct {
		cmd                 string
		unsandboxed, inside chain.Verdict
	}{
		{"my-unknown-tool --flag", chain.Ask, chain.Allow},
		{"make build", chain.Ask, chain.Allow},
		{"my-unknown-tool > out.txt", chain.Ask, chain.Allow},
		{"rm -rf build", chain.Deny, chain.Deny},
		{"cat secret", chain.Deny, chain.Deny},
		{"git push origin", chain.Ask, chain.Ask},
		{"bash -c 'make'", chain.Ask, chain.Ask},
		{"LD_PRELOAD=x.so make", chain.Ask, chain.Ask},
		{"my-unknown-tool > .git/hooks/pre-commit", chain.Ask, chain.Ask},
		{"docker run x", chain.Ask, chain.Ask},
		{"ls", chain.Allow, chain.Allow},
	}
	for _, tt := range tests {
		for _, sandboxed := range []bool{false, true} {
			p := base
			if sandboxed {
				p.Sandboxed = sandbox.New(&sandbox.Config{Excluded: []string{"docker"}}, []string{dir}, "/tmp")
			}
			p.ReadOnlyAutoAllow = true
			d, err := p.Authorize(context.Background(), parse(t, tt.cmd), dir)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.unsandboxed
			if sandboxed {
				want = tt.inside
			}
			if d.Verdict != want {
				t.Errorf("%s (sandboxed %v): %s, want %s: %q", tt.cmd, sandboxed, d.Verdict, want, d.Segments[0].Reasons)
			}
		}
	}
	p := base
	p.Sandbox.NoAutoAllow = true
	p.Sandboxed = sandbox.New(&p.Sandbox, []string{dir}, "/tmp")
	if d, _ := p.Authorize(context.Background(), parse(t, "my-unknown-tool"), dir); d.Verdict != chain.Ask {
		t.Errorf("autoAllowBashIfSandboxed false: %s, want ask", d.Verdict)
	}
}
