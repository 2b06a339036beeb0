package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// fuzzDeny are the deny rules of the fuzz target, as (program, prefix
// words) pairs the oracle below matches on its own.
var fuzzDeny = [][]string{{"rm", "-rf"}, {"curl"}, {"git", "push", "--force"}, {"nc"}}

// fuzzAllow and fuzzAsk are the other rules of the fuzz target.
var (
	fuzzAllow = []string{"Bash", "git:*", "ls:*"}
	fuzzAsk   = []string{"git commit:*"}
)

// oracleDenied is an independent, deliberately simple reading of "this
// segment matches a deny rule": the segment's own argv (quote-removed, as
// the parser gives it), program name lower-cased and stripped of its
// directory and .exe, starts with the rule's words.
func oracleDenied(args []string) bool {
	if len(args) == 0 {
		return false
	}
	name := args[0]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".exe")
	for _, rule := range fuzzDeny {
		if name != rule[0] || len(args) < len(rule) {
			continue
		}
		match := true
		for i := 1; i < len(rule); i++ {
			if args[i] != rule[i] {
				match = false
			}
		}
		if match {
			return true
		}
	}
	return false
}

// FuzzNoDenyBypass checks that no command line makes Authorize allow (or
// merely ask about) a chain in which some segment matches a deny rule, even
// when every other command is allowed by the catch-all rule.
func FuzzNoDenyBypass(f *testing.F) {
	for _, c := range bypassCases {
		f.Add(c.cmd)
	}
	for _, s := range []string{"curl x", "ls && rm -rf /", "git status; git push --force", "sudo nc -l 1",
		"env -S 'curl x' && true", "timeout 5 A=1 curl x", "sh -c 'rm -rf x'", "xargs curl", "CURL.EXE x"} {
		f.Add(s)
	}
	var denyText []string
	for _, r := range fuzzDeny {
		denyText = append(denyText, strings.Join(r, " ")+":*")
	}
	p := &Policy{Allow: mustRules(f, fuzzAllow), Deny: mustRules(f, denyText),
		Ask: mustRules(f, fuzzAsk), ReadOnlyAutoAllow: true}
	dir := f.TempDir()
	p.Home = dir
	f.Fuzz(func(t *testing.T, src string) {
		c, err := chain.ParseDialect(src, chain.POSIX)
		if err != nil {
			return
		}
		d, err := p.Authorize(context.Background(), c, dir)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if len(d.Segments) != len(c.Segments()) {
			t.Fatalf("%q: %d decisions for %d segments", src, len(d.Segments), len(c.Segments()))
		}
		for i, s := range c.Segments() {
			if oracleDenied(s.Args) {
				if d.Verdict != chain.Deny || d.Segments[i].Verdict != chain.Deny {
					t.Fatalf("%q: segment %d %q matches a deny rule but the chain got %s (segment %s: %q)",
						src, i, s.Args, d.Verdict, d.Segments[i].Verdict, d.Segments[i].Reasons)
				}
			}
			if d.Segments[i].Verdict == chain.Deny && d.Verdict != chain.Deny {
				t.Fatalf("%q: a denied segment but the chain got %s", src, d.Verdict)
			}
		}
	})
}

// benchChain is a parsed 10-segment chain of the kind agents send.
const benchChain = "git status && git log --oneline -5 | head -3 && go test ./... && ls -la && " +
	"cat README.md | wc -l && npm run build && git diff --stat && echo done"

// The rules of the benchmark: 20 allow, 2 ask and 6 deny rules.
var (
	benchAllow = []string{"git status", "git log:*", "git diff:*", "head:*", "go test:*", "go build:*",
		"ls:*", "cat:*", "wc:*", "npm run build", "npm run test*", "rg:*", "sed:*", "find:*", "make:*",
		"cargo build:*", "docker ps", "kubectl get:*", "grep:*", "sort:*"}
	benchAsk  = []string{"git push:*", "npm publish:*"}
	benchDeny = []string{"rm -rf:*", "curl:*", "wget:*", "git push --force:*", "git clean:*", "nc:*"}
)

func BenchmarkAuthorize10Segments(b *testing.B) {
	c, err := chain.ParseDialect(benchChain, chain.POSIX)
	if err != nil {
		b.Fatal(err)
	}
	if n := len(c.Segments()); n != 10 {
		b.Fatalf("%d segments", n)
	}
	p := &Policy{Allow: mustRules(b, benchAllow), Ask: mustRules(b, benchAsk), Deny: mustRules(b, benchDeny)}
	dir := b.TempDir()
	p.Home = dir
	ctx := context.Background()
	d, err := p.Authorize(ctx, c, dir)
	if err != nil || d.Verdict != chain.Allow {
		b.Fatalf("%v %v %+v", d.Verdict, err, d.Segments)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Authorize(ctx, c, dir); err != nil {
			b.Fatal(err)
		}
	}
}
