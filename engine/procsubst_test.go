//go:build unix

package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// TestProcSubstRuns: <(…) and >(…) connect the segment to an inner chain
// through a pipe named /dev/fd/N, for programs, redirects and built-ins
// alike, each inner chain audited as a run of its own.
func TestProcSubstRuns(t *testing.T) {
	proj, _, env := substWorld(t)
	cases := []struct{ cmd, out string }{
		{`read-file <(printf 'a\nb\n')`, "a\nb\n"},
		{`read-file <(echo one) && read-file <(echo two)`, "one\ntwo\n"},
		{`echo <(true) <(true) >(true)`, "/dev/fd/63 /dev/fd/62 /dev/fd/61\n"},
		{`cat-stdin < <(echo via redirect)`, "via redirect\n"},
		{`read x < <(echo value); echo "[$x]"`, "[value]\n"},
		{`echo hi > >(cat-stdin); echo after`, "hi\nafter\n"},
		{`first-line < <(lines 100000)`, "1\n"},
		{`read-file <(exit-with 3); echo $?`, "0\n"},
		{`echo $(read-file <(echo inner))`, "inner\n"},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) {
			res, err := RunString(context.Background(), c.cmd, Options{Dir: proj, Env: env, Dialect: chain.POSIX})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Stdout); got != c.out {
				t.Errorf("stdout %q, want %q (stderr %q)", got, c.out, res.Stderr)
			}
		})
	}
}

// TestProcSubstAudit: each inner chain is audited under its own text.
func TestProcSubstAudit(t *testing.T) {
	proj, pol, env := substWorld(t)
	aud := &auditLog{}
	line := `cat <(echo a) <(printf b)`
	res, err := RunString(context.Background(), line, Options{Dir: proj, Env: env, Dialect: chain.POSIX, Authorizer: pol, Auditor: aud})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Stdout); got != "a\nb" {
		t.Errorf("stdout %q", got)
	}
	slices.Sort(aud.commands[:2]) // the inner chains run side by side
	if want := []string{"<(echo a)", "<(printf b)", line}; !slices.Equal(aud.commands, want) {
		t.Errorf("audit records %q, want %q", aud.commands, want)
	}
}

// TestProcSubstBypass: an inner chain of <(…) or >(…) is judged with its
// segment before anything runs, so a denied one denies the chain and
// nothing it names is touched, even with every question approved.
func TestProcSubstBypass(t *testing.T) {
	cases := []bypassCase{
		{cmd: `cat <(rm -rf x)`, victim: "x"},
		{cmd: `echo hi > >(rm x)`, victim: "x"},
		{cmd: `cat <(cat .env)`},
		{cmd: `cat < <(cat .env)`},
		{cmd: `echo pwned > >(cat > ~/.bashrc)`},
		{cmd: `cat <(echo $(rm y))`, victim: "y"},
		{cmd: `echo ok; cat <(rm -rf y)`, victim: "y"},
	}
	for _, c := range cases {
		c.planDeny = true
		t.Run(c.cmd, func(t *testing.T) { checkBypass(t, c) })
	}
}

// TestProcSubstAllowed: a process substitution's path is a pipe, not a
// file: the policy allows what it allows the inner chain and the segment.
func TestProcSubstAllowed(t *testing.T) {
	proj, pol, env := substWorld(t)
	for _, line := range []string{`cat <(echo a) <(printf 'b\n')`, `cat < <(echo a)`, `echo a > >(cat)`} {
		ch, err := chain.ParseDialect(line, chain.POSIX)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := Plan(ch, Options{Dir: proj, Env: env, Authorizer: pol})
		if err != nil {
			t.Fatal(err)
		}
		d, err := pol.Authorize(context.Background(), plan, proj)
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != chain.Allow {
			t.Errorf("%s: verdict %s, want allow: %+v %v", line, d.Verdict, d.Segments, d.Chain)
		}
	}
}
