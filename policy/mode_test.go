package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// modeRow gives, for one mode and one kind of rule, the verdicts of a
// read (cat T), a write (echo x > T) and neither (echo hi), as three
// letters: A allow, a ask, D deny. in is for T inside the roots, out for
// T outside them.
type modeRow struct {
	mode    Mode
	kind    string
	in, out string
}

// The rule kinds: none, a Read or Edit rule in deny, ask or allow naming
// T's directory.
var modeKinds = map[string]struct{ list, tool string }{
	"none": {}, "Read deny": {"deny", "Read"}, "Read ask": {"ask", "Read"}, "Read allow": {"allow", "Read"},
	"Edit deny": {"deny", "Edit"}, "Edit ask": {"ask", "Edit"}, "Edit allow": {"allow", "Edit"},
}

var modeRows = []modeRow{
	{ModeDefault, "none", "AaA", "aaA"},
	{ModeDefault, "Read deny", "DaA", "DaA"},
	{ModeDefault, "Read ask", "aaA", "aaA"},
	{ModeDefault, "Read allow", "AaA", "AaA"},
	{ModeDefault, "Edit deny", "ADA", "aDA"},
	{ModeDefault, "Edit ask", "AaA", "aaA"},
	{ModeDefault, "Edit allow", "AAA", "aAA"},

	{ModeAcceptEdits, "none", "AAA", "aaA"},
	{ModeAcceptEdits, "Read deny", "DAA", "DaA"},
	{ModeAcceptEdits, "Read ask", "aAA", "aaA"},
	{ModeAcceptEdits, "Read allow", "AAA", "AaA"},
	{ModeAcceptEdits, "Edit deny", "ADA", "aDA"},
	{ModeAcceptEdits, "Edit ask", "AaA", "aaA"},
	{ModeAcceptEdits, "Edit allow", "AAA", "aAA"},

	{ModePlan, "none", "ADA", "aDA"},
	{ModePlan, "Read deny", "DDA", "DDA"},
	{ModePlan, "Read ask", "aDA", "aDA"},
	{ModePlan, "Read allow", "ADA", "ADA"},
	{ModePlan, "Edit deny", "ADA", "aDA"},
	{ModePlan, "Edit ask", "ADA", "aDA"},
	{ModePlan, "Edit allow", "ADA", "aDA"},

	{ModeDontAsk, "none", "ADA", "DDA"},
	{ModeDontAsk, "Read deny", "DDA", "DDA"},
	{ModeDontAsk, "Read ask", "DDA", "DDA"},
	{ModeDontAsk, "Read allow", "ADA", "ADA"},
	{ModeDontAsk, "Edit deny", "ADA", "DDA"},
	{ModeDontAsk, "Edit ask", "ADA", "DDA"},
	{ModeDontAsk, "Edit allow", "AAA", "DAA"},

	{ModeBypass, "none", "AAA", "AAA"},
	{ModeBypass, "Read deny", "DAA", "DAA"},
	{ModeBypass, "Read ask", "aAA", "aAA"},
	{ModeBypass, "Read allow", "AAA", "AAA"},
	{ModeBypass, "Edit deny", "ADA", "ADA"},
	{ModeBypass, "Edit ask", "AaA", "AaA"},
	{ModeBypass, "Edit allow", "AAA", "AAA"},
}

var letterVerdict = map[byte]chain.Verdict{'A': chain.Allow, 'a': chain.Ask, 'D': chain.Deny}

// TestModes runs every mode against every kind of rule on a read, a write
// and a segment that touches no file, for a file inside and one outside
// the roots. The rules are written in the //absolute form for the outside
// file and the ./relative form for the inside one; TestPathRuleMatching
// covers the other forms and Windows paths.
func TestModes(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	out, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	home := testprog.TempDir(t)
	for _, d := range []string{filepath.Join(root, "data"), out} {
		if err := os.WriteFile(filepath.Join(d, "f.txt"), []byte("x"), 0o600); err != nil && !os.IsNotExist(err) {
			_ = os.MkdirAll(d, 0o755)
			_ = os.WriteFile(filepath.Join(d, "f.txt"), []byte("x"), 0o600)
		}
	}
	targets := []struct {
		name, path, pattern string
		col                 func(modeRow) string
	}{
		{"inside", "data/f.txt", "./data/**", func(r modeRow) string { return r.in }},
		// An absolute pattern is "//" and the path's key: //tmp/x on POSIX,
		// //c/users/x for C:\users\x on Windows, as Claude Code spells them.
		{"outside", filepath.Join(out, "f.txt"), "/" + pathKey(out, false) + "/**", func(r modeRow) string { return r.out }},
	}
	cmds := []string{"cat %s", "echo x > %s", "echo hi"}
	for _, r := range modeRows {
		for _, tg := range targets {
			want := tg.col(r)
			for i, form := range cmds {
				cmd := strings.ReplaceAll(form, "%s", quoteArg(tg.path))
				t.Run(string(r.mode)+"/"+r.kind+"/"+tg.name+"/"+cmd, func(t *testing.T) {
					p := &Policy{Allow: mustRules(t, []string{"cat:*"}), Mode: r.mode, Home: home}
					if k := modeKinds[r.kind]; k.tool != "" {
						pr, _ := parsePathRule(k.tool + "(" + tg.pattern + ")")
						switch k.list {
						case "deny":
							p.PathDeny = []PathRule{pr}
						case "ask":
							p.PathAsk = []PathRule{pr}
						default:
							p.PathAllow = []PathRule{pr}
						}
					}
					d, err := p.Authorize(context.Background(), parse(t, cmd), root)
					if err != nil {
						t.Fatal(err)
					}
					if w := letterVerdict[want[i]]; d.Verdict != w {
						t.Errorf("%s, %s, %s: %q got %s, want %s: %q", r.mode, r.kind, tg.name, cmd, d.Verdict, w, d.Segments[0].Reasons)
					}
				})
			}
		}
	}
}

// TestAcceptEditsCommands: acceptEdits allows Claude Code's file commands
// without a rule when everything they touch is inside the roots.
func TestAcceptEditsCommands(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	for cmd, want := range map[string]chain.Verdict{
		"mkdir -p build/x": chain.Allow, "touch a b": chain.Allow, "rm -f a": chain.Allow, "mv a b": chain.Allow,
		"cp a b": chain.Allow, "sed -i s/a/b/ f": chain.Allow, "rmdir d": chain.Allow,
		"cp a /tmp/chainrun-elsewhere/x": chain.Ask, "sed -i 'e id' f": chain.Ask, "rm -rf .": chain.Ask,
		"python3 x.py": chain.Ask, "touch .env": chain.Ask,
	} {
		t.Run(cmd, func(t *testing.T) {
			p := &Policy{Mode: ModeAcceptEdits, Home: testprog.TempDir(t)}
			d, _ := p.Authorize(context.Background(), parse(t, cmd), root)
			if d.Verdict != want {
				t.Errorf("%q: %s, want %s: %q", cmd, d.Verdict, want, d.Segments[0].Reasons)
			}
		})
	}
}

// TestModeDefaultAskRules: ask rules ask in every mode, deny rules deny in
// every mode, even bypassPermissions.
func TestModeRulesWinEveryMode(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	for _, m := range []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeDontAsk, ModeBypass} {
		t.Run(string(m), func(t *testing.T) {
			p := &Policy{Mode: m, Home: testprog.TempDir(t), Allow: mustRules(t, []string{"Bash"}),
				Deny: mustRules(t, []string{"rm -rf:*"}), Ask: mustRules(t, []string{"git push:*"})}
			if d, _ := p.Authorize(context.Background(), parse(t, "rm -rf x"), root); d.Verdict != chain.Deny {
				t.Errorf("deny rule: %s", d.Verdict)
			}
			want := chain.Ask
			if m == ModeDontAsk {
				want = chain.Deny
			}
			if d, _ := p.Authorize(context.Background(), parse(t, "git push"), root); d.Verdict != want {
				t.Errorf("ask rule: %s, want %s", d.Verdict, want)
			}
			if m == ModePlan {
				want = chain.Deny // plan mode modifies no file at all
			}
			if d, _ := p.Authorize(context.Background(), parse(t, "echo x > .git/hooks/pre-commit"), root); d.Verdict != want {
				t.Errorf("sensitive write: %s, want %s", d.Verdict, want)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": ModeDefault, "manual": ModeDefault, "default": ModeDefault,
		"acceptEdits": ModeAcceptEdits, "plan": ModePlan, "dontAsk": ModeDontAsk, "bypassPermissions": ModeBypass} {
		if m, err := ParseMode(in); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %q, %v", in, m, err)
		}
	}
	for _, bad := range []string{"auto", "acceptedits", "bypass"} {
		if _, err := ParseMode(bad); err == nil {
			t.Errorf("ParseMode(%q) accepted", bad)
		}
	}
	if _, err := (&Policy{Mode: "auto"}).Authorize(context.Background(), parse(t, "ls"), testprog.TempDir(t)); err == nil {
		t.Error("Authorize accepted an unknown mode")
	}
}
