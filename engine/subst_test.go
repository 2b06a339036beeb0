package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// substWorld is a project with a victim file, a secret .env and a home
// whose .bashrc may not be edited, under a policy that allows echo,
// printf and cat and denies rm.
func substWorld(t *testing.T) (proj string, pol *policy.Policy, env []string) {
	t.Helper()
	base := expandDir(t, "proj/", "home/")
	proj = filepath.Join(base, "proj")
	write(t, filepath.Join(proj, "x"), "victim\n")
	write(t, filepath.Join(proj, "y"), "victim\n")
	write(t, filepath.Join(proj, ".env"), "SECRET\n")
	home := filepath.Join(base, "home")
	write(t, filepath.Join(home, ".bashrc"), "rc\n")
	pol, _, err := policy.Parse([]byte(`{"permissions": {
		"allow": ["Bash(echo:*)", "Bash(printf:*)", "Bash(cat:*)", "Bash(true)", "Bash(false)"],
		"ask": ["Bash(git push:*)"],
		"deny": ["Bash(rm:*)", "Read(./.env)", "Edit(~/.bashrc)"]}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	pol.Home, pol.Roots = home, []string{proj}
	env = []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home}
	return proj, pol, env
}

// TestSubstBypass: output of a command substitution never becomes a
// command, path or target that was not judged. Each form is judged
// before the run as stricter than allow (a deny rule may match the words
// it fills), and run with every question approved it is denied before
// anything it names is touched.
func TestSubstBypass(t *testing.T) {
	cases := []bypassCase{
		{cmd: `$(echo rm) -rf x`, victim: "x"},
		{cmd: "`printf rm` -rf x", victim: "x"},
		{cmd: `x=$(printf rm); $x -rf y`, victim: "y"},
		{cmd: `"$(echo rm)" x`, victim: "x"},
		{cmd: `echo $(rm -rf x)`, victim: "x", planDeny: true},
		{cmd: "$(cat <<'EOF'\nrm\nEOF\n) -rf x", victim: "x", planDeny: true},
		{cmd: `echo "$(echo $(rm x))"`, victim: "x", planDeny: true},
		{cmd: `x=$(rm x)`, victim: "x", planDeny: true},
		{cmd: `echo hi > $(rm x)`, victim: "x", planDeny: true},
		{cmd: `cat $(echo .env)`},
		{cmd: `cat <<< $(cat .env)`, planDeny: true},
		{cmd: `echo "$(< .env)"`, planDeny: true},
		{cmd: `echo $(< $(echo .env))`},
		{cmd: `echo pwned > $(echo ~/.bashrc)`},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) { checkBypass(t, c) })
	}
}

// bypassCase is a chain the policy must deny, before the run or as the
// segment that does it starts, with every question approved.
type bypassCase struct {
	cmd      string
	victim   string // a file of the project it would remove
	planDeny bool   // the plan alone denies it (else it asks, and is denied as it starts)
	out      string // what runs before the denial
}

// checkBypass plans c.cmd in substWorld and requires a plan that does not
// allow it (denies it, with planDeny), then runs it with every question
// approved and requires a denial, c.out and nothing else on stdout, the
// victim and ~/.bashrc untouched and no secret printed.
func checkBypass(t *testing.T, c bypassCase) {
	t.Helper()
	proj, pol, env := substWorld(t)
	ch, err := chain.ParseDialect(c.cmd, chain.POSIX)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	opts := Options{Dir: proj, Env: env, Authorizer: pol}
	plan, err := Plan(ch, opts)
	if err != nil {
		t.Fatal(err)
	}
	d, err := pol.Authorize(context.Background(), plan, proj)
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict == chain.Allow || c.planDeny && d.Verdict != chain.Deny {
		t.Fatalf("plan verdict %s (planDeny %v): %+v", d.Verdict, c.planDeny, d.Segments)
	}
	var out strings.Builder
	opts.Stdout = &out
	opts.Approver = chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) { return true, nil })
	_, err = Run(context.Background(), ch, opts)
	var denied *chain.DeniedError
	if !errors.As(err, &denied) {
		t.Fatalf("run: err %v, want a denial", err)
	}
	if out.String() != c.out {
		t.Errorf("ran %q before the denial, want %q", out.String(), c.out)
	}
	if c.victim != "" {
		if _, err := os.Stat(filepath.Join(proj, c.victim)); err != nil {
			t.Errorf("%s was touched: %v", c.victim, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(proj), "home", ".bashrc")); string(b) != "rc\n" {
		t.Errorf(".bashrc changed: %q", b)
	}
}

// TestSubstAsk: an inner chain that asks makes the whole chain ask; not
// approved, nothing runs.
func TestSubstAsk(t *testing.T) {
	proj, pol, env := substWorld(t)
	var out strings.Builder
	_, err := RunString(context.Background(), `echo start; echo $(git push origin)`, Options{Dir: proj, Env: env,
		Dialect: chain.POSIX, Authorizer: pol, Stdout: &out})
	var denied *chain.DeniedError
	if !errors.As(err, &denied) || out.Len() != 0 {
		t.Fatalf("err %v, output %q: want a refused question and nothing run", err, out.String())
	}
}

// TestSubstRuns: substitutions run with bash's rules where the policy
// allows them, each inner chain audited as a run of its own.
func TestSubstRuns(t *testing.T) {
	proj, pol, env := substWorld(t)
	aud := &auditLog{}
	res, err := RunString(context.Background(), `x=$(printf 'a  b\n\n'); echo "[$x]" [$(echo $x)] $(cat x)`,
		Options{Dir: proj, Env: env, Dialect: chain.POSIX, Authorizer: pol, Auditor: aud})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.Stdout), "[a  b] [a b] victim\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	want := []string{`$(printf 'a  b\n\n')`, "$(echo $x)", "$(cat x)", `x=$(printf 'a  b\n\n'); echo "[$x]" [$(echo $x)] $(cat x)`}
	if !slices.Equal(aud.commands, want) {
		t.Errorf("audit records %q, want %q (each substitution, then the chain)", aud.commands, want)
	}
}

// TestSubstTimeout: the run's timeout stops an inner chain too, and the
// chain ends as timed out, not as a failed expansion.
func TestSubstTimeout(t *testing.T) {
	proj, _, env := substWorld(t)
	res, err := RunString(context.Background(), `echo $(hang); echo never`,
		Options{Dir: proj, Env: env, Dialect: chain.POSIX, Timeout: 200 * time.Millisecond, Grace: 200 * time.Millisecond})
	if !errors.Is(err, chain.ErrTimeout) || res == nil || res.ExitCode != 124 {
		t.Fatalf("err %v, result %+v: want a timeout with status 124", err, res)
	}
	if strings.Contains(string(res.Stdout), "never") || len(res.Stderr) != 0 {
		t.Errorf("stdout %q, stderr %q: want nothing after the stop and no expansion message", res.Stdout, res.Stderr)
	}
}

// auditLog records the commands audited; inner runs that run side by side
// (process substitutions, background pipelines) audit concurrently.
type auditLog struct {
	mu       sync.Mutex
	commands []string
}

func (a *auditLog) Audit(r *AuditRecord) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.commands = append(a.commands, r.Command)
}

// TestSubstOutputBound: a substitution that writes more than
// MaxSubstOutput is stopped and fails its segment; bash ends the chain
// there as for a failed expansion.
func TestSubstOutputBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 16 MiB")
	}
	proj, _, env := substWorld(t)
	res, err := RunString(context.Background(), `echo $(lines 3000000) ; echo after`, Options{Dir: proj, Env: env, Dialect: chain.POSIX})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 || !strings.Contains(string(res.Stderr), "over") || strings.Contains(string(res.Stdout), "after") {
		t.Errorf("status %d, stdout %q, stderr %q: want the segment failed over the bound and the chain ended", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// TestSubstWritesSeen: what an inner chain does is seen by the judgement
// of its segment as it starts: a link it makes to a Read-denied file
// stops the segment that reads through it, and one inside the roots runs.
func TestSubstWritesSeen(t *testing.T) {
	for _, tc := range []struct {
		list, want string
		stop       bool
	}{
		{list: "l ../secret.txt", stop: true},
		{list: "l x.txt", want: "inside\n"},
	} {
		w := newWorld(t)
		testprog.NeedSymlinks(t, w.proj)
		write(t, filepath.Join(w.proj, "list.txt"), tc.list+"\n")
		res, err := w.run("first-line < $(link-from list.txt; echo l)", w.proj, nil)
		var de *chain.DeniedError
		switch {
		case tc.stop && (!errors.As(err, &de) || !de.AtRunTime || de.Segment != 0):
			t.Errorf("%s: want a stop at run time at segment 0, got %v", tc.list, err)
		case tc.stop && res != nil && strings.Contains(string(res.Stdout), "SECRET"):
			t.Errorf("%s: the secret leaked: %q", tc.list, res.Stdout)
		case !tc.stop && (err != nil || string(res.Stdout) != tc.want):
			t.Errorf("%s: want a run printing %q: %v, %+v", tc.list, tc.want, err, res)
		}
	}
}
