package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// Every wrapper and shell runs the code it is given: a bare prefix rule
// naming it would allow anything, so the registry must mark it runsCode.
func TestWrappersRunCode(t *testing.T) {
	names := wrapperNames()
	if len(names) < 40 {
		t.Fatalf("only %d wrappers registered: %q", len(names), names)
	}
	for _, n := range names {
		if p := lookup(n); !p.runsCode {
			t.Errorf("wrapper %s is not marked runsCode", n)
		}
		if !isBareBanned(n) {
			t.Errorf("wrapper %s may be suggested as a bare prefix", n)
		}
	}
	for n, p := range registry {
		if p.narrow && p.wrap == nil {
			t.Errorf("%s is stripped by the allow view but unwraps nothing", n)
		}
	}
}

// The registry's names are canonical and its option keys follow the one
// convention: "-x" for a short option, "--name" for a long one.
func TestRegistryRecords(t *testing.T) {
	for n, p := range registry {
		if canonicalName(n) != n {
			t.Errorf("%q is not a canonical name (%q)", n, canonicalName(n))
		}
		specs := []*optSpec{&p.opts}
		if p.global != nil {
			specs = append(specs, p.global)
		}
		for _, s := range specs {
			for k := range s.roles {
				checkOptKey(t, n, k)
			}
			for k := range s.danger {
				checkOptKey(t, n, k)
			}
		}
		if p.readOnly && p.runsCode {
			t.Errorf("%s is read-only yet runs code", n)
		}
		if len(p.longVerbs) > 0 && p.verb == 0 {
			t.Errorf("%s has longer verbs but no verb", n)
		}
		if p.verb > 0 && p.runsCode {
			t.Errorf("%s runs code, so only exact rules are suggested: its verb is never read", n)
		}
	}
	for _, n := range []string{"python", "python3.12", "python3-dbg"} {
		if !isBareBanned(n) {
			t.Errorf("%s is not claimed by the interpreters' prefix", n)
		}
	}
}

func checkOptKey(t *testing.T, prog, k string) {
	t.Helper()
	long, isLong := strings.CutPrefix(k, "--")
	if isLong && len(long) > 1 || !isLong && len(k) == 2 && k[0] == '-' {
		return
	}
	t.Errorf("%s: option key %q is neither -x nor --name", prog, k)
}

// Every wrapper Claude Code names is unwrapped for deny rules, and no
// prefix rule naming it is suggested (never "run0 rm:*"); the narrow
// wrappers are stripped from a suggestion instead ("timeout 5 rm x" gives
// "rm x:*").
func TestClaudeCodeWrappers(t *testing.T) {
	dir := testprog.TempDir(t)
	for _, cmd := range []string{
		"sudo rm x", "doas rm x", "pkexec rm x", "run0 rm x", "gosu bob rm x", "nice rm x", "stdbuf -oL rm x",
		"nohup rm x", "timeout 5 rm x", "/usr/bin/time rm x", "env rm x", "xargs rm x",
	} {
		c, err := chain.ParseDialect(cmd, chain.POSIX)
		if err != nil {
			t.Fatal(err)
		}
		name := canonicalName(strings.Fields(cmd)[0])
		if p := lookup(name); p == nil || p.wrap == nil {
			t.Errorf("%s is not a registered wrapper", name)
			continue
		}
		p := &Policy{Deny: []Rule{mustRule(t, "Bash(rm:*)")}}
		d, err := p.Authorize(context.Background(), c, dir)
		if err != nil || d.Verdict != chain.Deny {
			t.Errorf("%q under deny rm:*: %v %v", cmd, d.Verdict, err)
		}
		if s := Suggest(c.Segments()[0]); strings.HasPrefix(s, strings.Fields(cmd)[0]+" ") && strings.HasSuffix(s, ":*") {
			t.Errorf("Suggest(%q) = %q, a prefix rule for a wrapper", cmd, s)
		}
	}
}

func mustRule(t *testing.T, text string) Rule {
	t.Helper()
	r, ok, err := ParseRule(text)
	if err != nil || !ok {
		t.Fatalf("%s: %v", text, err)
	}
	return r
}

// The roles of operands and option values come from one spec per program,
// the one its guard reads too: a value is never taken for a path, and an
// abbreviated option is the option it abbreviates.
func TestOperandRoles(t *testing.T) {
	for _, tt := range []struct{ cmd, want string }{
		{"awk -e print /etc/passwd", "/etc/passwd:read"},
		{"gawk -v x=1 {print} a b=2", "a:read"},
		{"mawk -W exec p.awk", "p.awk:read"},
		{"sed --in s/a/b/ f", "f:write"},
		{"gsed -n 5p f", "f:read"},
		{"uniq -f 1 a b", "a:read b:write"},
		{"uniq --skip-f 1 a", "a:read"},
		{"base64 -b 76 f", "f:read"},
		{"sort -o out --files0-from=l in", "out:write l:list in:read"},
		{"chmod 644 a", "a:write"},
		{"jq -f p.jq in.json --args x", "p.jq:read in.json:read"},
		{"time -o t.txt ls", ""},
	} {
		args := strings.Fields(tt.cmd)
		var got []string
		for _, f := range commandFiles(lits(args)) {
			got = append(got, f.word.show()+":"+f.role.String())
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: files %q, want %q", tt.cmd, g, tt.want)
		}
	}
	if g := guard(lits(strings.Fields("uniq --skip-f 1 a"))); g != "" {
		t.Errorf("uniq --skip-f 1 a: guard %q, want none (one operand)", g)
	}
}
