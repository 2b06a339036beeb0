package policy

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

func TestParseRuleKinds(t *testing.T) {
	tests := []struct {
		text   string
		kind   RuleKind
		tokens []string
		parts  []string
	}{
		{"Bash", Any, nil, nil},
		{"Bash(*)", Any, nil, nil},
		{"Bash(git status)", Exact, []string{"git", "status"}, nil},
		{"git status", Exact, []string{"git", "status"}, nil},
		{"Bash(git diff:*)", Prefix, []string{"git", "diff"}, nil},
		{"git diff *", Prefix, []string{"git", "diff"}, nil},
		{`Bash(git commit -m "a b":*)`, Prefix, []string{"git", "commit", "-m", "a b"}, nil},
		{"npm run test*", Glob, []string{"npm"}, []string{"npm run test", ""}},
		{"ls*", Glob, nil, []string{"ls", ""}},
		{"git * main", Glob, []string{"git"}, []string{"git ", " main"}},
		{`echo \*`, Exact, []string{"echo", "*"}, nil},
		{"FOO=1 make", Exact, []string{"make"}, nil},
		{"Bash(export X=1)", Exact, []string{"export", "X=1"}, nil},
		{"Bash(unset X:*)", Prefix, []string{"unset", "X"}, nil},
	}
	for _, tt := range tests {
		r, ok, err := ParseRule(tt.text)
		if err != nil || !ok {
			t.Errorf("%q: ok=%v err=%v", tt.text, ok, err)
			continue
		}
		if r.Match != tt.kind || !slices.Equal(r.Tokens, tt.tokens) || !slices.Equal(r.Parts, tt.parts) {
			t.Errorf("%q: got %v %q %q, want %v %q %q", tt.text, r.Match, r.Tokens, r.Parts, tt.kind, tt.tokens, tt.parts)
		}
	}
}

func TestParseRuleOtherTools(t *testing.T) {
	for _, text := range []string{"Read(./src/**)", "Edit", "WebFetch", "WebFetch(domain:x.com)", "mcp__github__create_issue", "Write(*)"} {
		_, ok, err := ParseRule(text)
		if ok || err != nil {
			t.Errorf("%q: ok=%v err=%v, want ignored", text, ok, err)
		}
	}
}

func TestParseRuleErrors(t *testing.T) {
	for _, text := range []string{"", "  ", "Bash(git log $(x))", "git status && rm x", "ls > out", "Bash(:*)", "FOO=1 make:*", "echo 'unterminated"} {
		_, _, err := ParseRule(text)
		if err == nil || !errors.Is(err, ErrRule) {
			t.Errorf("%q: err=%v, want a rule error", text, err)
		}
	}
}

// ruleMatchingCases are single rules against an argv in the narrow view.
var ruleMatchingCases = []struct {
	rule string
	argv []string
	want bool
}{
	{"git diff:*", []string{"git", "diff"}, true},
	{"git diff:*", []string{"git", "diff", "HEAD"}, true},
	{"git diff:*", []string{"git", "difftool"}, false},
	{"git diff *", []string{"git", "diff", "--stat"}, true},
	{"git status", []string{"git", "status"}, true},
	{"git status", []string{"git", "status", "-s"}, false},
	{"npm run test*", []string{"npm", "run", "test:unit"}, true},
	{"npm run test*", []string{"npm", "run", "lint"}, false},
	{"ls*", []string{"lsblk"}, true},
	{"git * main", []string{"git", "merge", "main"}, true},
	{"git * main", []string{"git", "merge", "dev"}, false},
	{"*", []string{"anything"}, true},
}

func TestRuleMatching(t *testing.T) {
	for _, tt := range ruleMatchingCases {
		r, _, err := ParseRule(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.matchArgs(lits(tt.argv), false); got != tt.want {
			t.Errorf("%q vs %q: %v, want %v", tt.rule, tt.argv, got, tt.want)
		}
	}
}

// flagSetCases are deny-style rules against an argv in the broad view,
// flags matched as a set.
var flagSetCases = []struct {
	rule string
	argv []string
	want bool
}{
	{"rm -rf:*", []string{"rm", "-fr", "x"}, true},
	{"rm -rf:*", []string{"rm", "-r", "x", "-f"}, true},
	{"rm -rf:*", []string{"rm", "-r", "x"}, false},
	{"rm -rf:*", []string{"rm", "--", "-rf"}, false},
	{"git push --force:*", []string{"git", "push", "origin", "main", "--force"}, true},
	{"git push --force:*", []string{"git", "push", "origin"}, false},
	{"git push origin:*", []string{"git", "push", "x", "origin"}, false},
}

func TestFlagSetMatching(t *testing.T) {
	for _, tt := range flagSetCases {
		r, _, _ := ParseRule(tt.rule)
		if got := r.matchArgs(lits(tt.argv), true) || r.matchFlagSet(lits(tt.argv), true); got != tt.want {
			t.Errorf("%q vs %q: %v, want %v", tt.rule, tt.argv, got, tt.want)
		}
	}
}

func TestCanonicalName(t *testing.T) {
	for in, want := range map[string]string{
		"rm": "rm", "/bin/./rm": "rm", "RM": "rm", "rm.exe": "rm", `C:\Tools\Git.EXE`: "git",
		"\uff52\uff4d": "rm", "curl.": "curl", "python3.12": "python3.12", "7z.exe": "7z", ".exe": ".exe",
	} {
		if got := canonicalName(in); got != want {
			t.Errorf("canonicalName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHandBuiltRuleStillDenies(t *testing.T) {
	p := &Policy{Deny: []Rule{{Text: "rm", Match: Prefix, Tokens: []string{"rm"}}}}
	d, err := p.Authorize(context.Background(), parse(t, "/bin/RM.exe x"), testprog.TempDir(t))
	if err != nil || d.Verdict != chain.Deny {
		t.Fatalf("%v %v", d.Verdict, err)
	}
}

// TestExportRule: export parses, so a rule may name it, and it judges the
// export segment like any other command.
func TestExportRule(t *testing.T) {
	p := &Policy{Deny: mustRules(t, []string{"Bash(export PAGER=x)"}), Ask: mustRules(t, []string{"Bash(unset:*)"})}
	for src, want := range map[string]chain.Verdict{
		"export PAGER=x":         chain.Deny,
		"export LANG=C && true":  chain.Allow,
		"export X=1 && true":     chain.Ask, // X is not on the safe-list
		"export X=1 PAGER=x":     chain.Ask, // the deny rule is exact; PAGER asks
		"unset X":                chain.Ask,
		"X=1; export X; unset X": chain.Ask,
	} {
		d, err := p.Authorize(context.Background(), parse(t, src), testprog.TempDir(t))
		if err != nil || d.Verdict != want {
			t.Errorf("%q: %v %v, want %s", src, d.Verdict, err, want)
		}
	}
}
