package policy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadExampleSettings(t *testing.T) {
	p, warnings, err := Load("testdata/example-settings.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Allow) != 8 || len(p.Ask) != 1 || len(p.Deny) != 4 || !p.ReadOnlyAutoAllow {
		t.Fatalf("allow %d ask %d deny %d readOnly %v", len(p.Allow), len(p.Ask), len(p.Deny), p.ReadOnlyAutoAllow)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "WebFetch") {
		t.Errorf("warnings: %q", warnings)
	}
	if len(p.PathAllow) != 1 || p.PathAllow[0].Tool != "Read" || p.PathAllow[0].Pattern != "./src/**" {
		t.Errorf("Read rules: %+v", p.PathAllow)
	}
	abs, _ := filepath.Abs("testdata")
	if len(p.Roots) != 1 || p.Roots[0] != abs {
		t.Errorf("roots %q, want [%s]", p.Roots, abs)
	}
	c, err := chain.ParseDialect("git status && go test ./... | rg -c ok", chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.Authorize(context.Background(), c, abs)
	if err != nil || d.Verdict != chain.Allow {
		t.Fatalf("verdict %v err %v: %+v", d.Verdict, err, d.Segments)
	}
	if d.Segments[0].Rule != "Bash(git status)" || !strings.Contains(d.Segments[0].Reasons[0], "example-settings.json") {
		t.Errorf("segment 0: %+v", d.Segments[0])
	}
}

func TestLoadMerges(t *testing.T) {
	dir := testprog.TempDir(t)
	user := writeFile(t, dir, "user.json", `{"permissions":{"allow":["Bash(git log:*)"],"deny":["Bash(curl:*)"]},"readOnlyAutoAllow":true,"roots":["a"]}`)
	sub := filepath.Join(dir, "proj")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	project := writeFile(t, sub, "settings.json", `{"permissions":{"allow":["git status"],"ask":["Bash(git push:*)"]},"readOnlyAutoAllow":false,"roots":["b","/abs"]}`)
	p, warnings, err := Load(user, project)
	if err != nil || len(warnings) != 0 {
		t.Fatal(err, warnings)
	}
	if len(p.Allow) != 2 || len(p.Ask) != 1 || len(p.Deny) != 1 {
		t.Errorf("lists: %d %d %d", len(p.Allow), len(p.Ask), len(p.Deny))
	}
	if p.ReadOnlyAutoAllow {
		t.Error("the later file's readOnlyAutoAllow=false should win")
	}
	// "/abs" is on the settings file's drive on Windows.
	want := []string{filepath.Join(dir, "a"), filepath.Join(sub, "b"), filepath.VolumeName(dir) + filepath.FromSlash("/abs")}
	if !slices.Equal(p.Roots, want) {
		t.Errorf("roots %q, want %q", p.Roots, want)
	}
	if p.Allow[0].Source != "user.json" || p.Allow[1].Source != "settings.json" {
		t.Errorf("sources %q %q", p.Allow[0].Source, p.Allow[1].Source)
	}
	// A file that does not set readOnlyAutoAllow leaves it alone.
	third := writeFile(t, dir, "third.json", `{"permissions":{}}`)
	p, _, _ = Load(user, third)
	if !p.ReadOnlyAutoAllow {
		t.Error("readOnlyAutoAllow lost")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := testprog.TempDir(t)
	bad := writeFile(t, dir, "bad.json", `{"permissions":{"allow":["git status","Bash(git log $(id))"]}}`)
	_, _, err := Load(bad)
	if err == nil || !strings.Contains(err.Error(), "bad.json") || !strings.Contains(err.Error(), "permissions.allow[1]") ||
		!strings.Contains(err.Error(), "Bash(git log $(id))") {
		t.Errorf("err = %v", err)
	}
	chain := writeFile(t, dir, "chain.json", `{"permissions":{"deny":["rm x && ls"]}}`)
	if _, _, err := Load(chain); err == nil || !strings.Contains(err.Error(), "permissions.deny[0]") {
		t.Errorf("err = %v", err)
	}
	notJSON := writeFile(t, dir, "x.json", `{"permissions":`)
	if _, _, err := Load(notJSON); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("err = %v", err)
	}
	if _, _, err := Load(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file loaded")
	}
	wrongType := writeFile(t, dir, "w.json", `{"permissions":{"allow":"git status"}}`)
	if _, _, err := Load(wrongType); err == nil {
		t.Error("a string where a list belongs loaded")
	}
}

func TestParseIgnoresOtherKeys(t *testing.T) {
	p, w, err := Parse([]byte(`{"model":"x","env":{"A":"1"},"permissions":{"defaultMode":"acceptEdits","allow":["Edit","Bash"],"additionalDirectories":["../x"]}}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Allow) != 1 || p.Allow[0].Match != Any {
		t.Errorf("allow %+v", p.Allow)
	}
	if len(p.PathAllow) != 1 || p.PathAllow[0].Tool != "Edit" || p.PathAllow[0].Pattern != "" {
		t.Errorf("path allow %+v", p.PathAllow)
	}
	want, _ := filepath.Abs("../x")
	if p.Mode != ModeAcceptEdits || len(p.AdditionalDirectories) != 1 || p.AdditionalDirectories[0] != want {
		t.Errorf("mode %q dirs %q", p.Mode, p.AdditionalDirectories)
	}
	if len(w) != 0 {
		t.Errorf("warnings %q", w)
	}
}

// TestReadOnlyAutoAllowDefault: settings files allow the read-only table
// as Claude Code does unless one sets "readOnlyAutoAllow": false.
func TestReadOnlyAutoAllowDefault(t *testing.T) {
	dir := testprog.TempDir(t)
	writeFile(t, dir, "notes.txt", "a\n")
	for _, c := range []struct {
		files []string
		want  bool
	}{
		{nil, true},
		{[]string{`{"permissions":{"allow":["Bash(git log:*)"]}}`}, true},
		{[]string{`{"readOnlyAutoAllow":false}`}, false},
		{[]string{`{"readOnlyAutoAllow":false}`, `{"permissions":{}}`}, false},
		{[]string{`{"readOnlyAutoAllow":false}`, `{"readOnlyAutoAllow":true}`}, true},
	} {
		var paths []string
		for i, f := range c.files {
			paths = append(paths, writeFile(t, dir, fmt.Sprintf("s%d.json", i), f))
		}
		p, _, err := Load(paths...)
		if err != nil {
			t.Fatal(err)
		}
		if p.ReadOnlyAutoAllow != c.want {
			t.Errorf("%q: readOnlyAutoAllow %v, want %v", c.files, p.ReadOnlyAutoAllow, c.want)
		}
		if len(c.files) == 1 {
			q, _, err := Parse([]byte(c.files[0]), "settings.json")
			if err != nil || q.ReadOnlyAutoAllow != c.want {
				t.Errorf("Parse %q: readOnlyAutoAllow %v (%v), want %v", c.files[0], q.ReadOnlyAutoAllow, err, c.want)
			}
		}
		p.Roots = []string{dir}
		// Paths are still judged: outside the roots, or sensitive, asks.
		for line, want := range map[string]chain.Verdict{
			"ls && wc -l notes.txt | head -n 3": map[bool]chain.Verdict{true: chain.Allow, false: chain.Ask}[c.want],
			"cat ../x":                          chain.Ask,
			"cat ~/.ssh/id_rsa":                 chain.Ask,
		} {
			ch, err := chain.ParseDialect(line, chain.POSIX)
			if err != nil {
				t.Fatal(err)
			}
			d, err := p.Authorize(context.Background(), ch, dir)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict != want {
				t.Errorf("%q: %s: %v, want %v", c.files, line, d.Verdict, want)
			}
		}
	}
}
