package policy

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
)

// builtinCase is a chain planned from root (with env) and judged with
// rules; verdict, and a rule and a reason some segment names.
type builtinCase struct {
	cmd, verdict string
	env          []string
	deny         []string
	rule, reason string
	unplanned    bool // judged as parsed, as a caller that plans nothing would
}

// TestBuiltinsJudgedByEffects: a built-in is judged by what spec.All
// declares it does, not allowed because it is one. printf -v NAME is an
// assignment of NAME, test's file operands are reads of metadata, and cd
// goes where bash's one cd (spec.Cd) says, the plan's directory first.
func TestBuiltinsJudgedByEffects(t *testing.T) {
	base, err := filepath.EvalSymlinks(testprog.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "root")
	testprog.MakeTree(t, base, "root/evil/", "evil/", "root/secret")
	allow := []string{"Bash(ls:*)", "Bash(npm:*)", "Bash(cd:*)", "Bash(test:*)", "Bash(printf:*)"}
	for _, c := range []builtinCase{
		{cmd: `printf -v PATH %s "$PWD/b:/usr/bin:/bin"; ls`, verdict: "ask", reason: "printf -v PATH changes an exported variable"},
		{cmd: `printf -vHOME %s /tmp`, verdict: "ask", reason: "printf -v HOME changes an exported variable"},
		{cmd: `printf -vLD_PRELOAD %s x.so`, verdict: "allow", reason: "matches prefix allow rule"}, // not exported: it only feeds expansions
		{cmd: `printf -v X %s 1; ls`, verdict: "allow"},
		{cmd: `printf -v Y %s rm; $Y -rf x`, verdict: "ask", deny: []string{"Bash(rm:*)"}, rule: "Bash(rm:*)",
			reason: "may match deny rule Bash(rm:*)"},
		{cmd: `test -f secret`, verdict: "deny", deny: []string{"Read(./secret)"}, rule: "Read(./secret)",
			reason: "the metadata of secret"},
		{cmd: `[ -e secret ] && ls`, verdict: "deny", deny: []string{"Read(./secret)"}, rule: "Read(./secret)"},
		{cmd: `[ x -nt secret ]`, verdict: "deny", deny: []string{"Read(./secret)"}, rule: "Read(./secret)"},
		{cmd: `[ -n secret ]`, verdict: "allow", deny: []string{"Read(./secret)"}},
		{cmd: `export CDPATH=..; cd evil && npm run test`, verdict: "ask", reason: "cd evil leaves the roots (" + filepath.Join(base, "evil") + ")"},
		{cmd: `cd evil && npm run test`, verdict: "ask", env: []string{"CDPATH=.."}, reason: "cd evil leaves the roots"},
		{cmd: `cd evil && npm run test`, verdict: "allow", reason: "cd evil stays inside the roots"},
		{cmd: `export CDPATH=..; cd evil && npm run test`, verdict: "ask", unplanned: true, reason: "is searched for in CDPATH"},
		{cmd: `CDPATH=.. cd evil`, verdict: "ask", unplanned: true, reason: "is searched for in CDPATH"},
		{cmd: `cd ./evil && npm run test`, verdict: "allow", env: []string{"CDPATH=.."}},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			ch, err := chain.ParseDialect(c.cmd, chain.POSIX)
			if err != nil {
				t.Fatal(err)
			}
			env := append([]string{"HOME=" + base, "PWD=" + root, "PATH=/usr/bin:/bin"}, c.env...)
			if !c.unplanned {
				if ch, err = expand.Plan(ch, expand.HostShell(env, root)); err != nil {
					t.Fatal(err)
				}
			}
			p := (&Policy{Home: base}).ForEnv(env, nil)
			p.Allow, p.PathAllow = mustRulesAndPaths(t, allow)
			p.Deny, p.PathDeny = mustRulesAndPaths(t, c.deny)
			d, err := p.Authorize(context.Background(), ch, root)
			if err != nil {
				t.Fatal(err)
			}
			var rules, reasons []string
			for _, s := range d.Segments {
				rules = append(rules, s.Rule)
				reasons = append(reasons, s.Reasons...)
			}
			all := strings.Join(reasons, "\n")
			if string(d.Verdict) != c.verdict || c.reason != "" && !strings.Contains(all, c.reason) ||
				c.rule != "" && !strings.Contains(strings.Join(rules, " "), c.rule) {
				t.Errorf("%s: rules %q\n%s\nwant %s, rule %q, reason %q", d.Verdict, rules, all, c.verdict, c.rule, c.reason)
			}
		})
	}
}
