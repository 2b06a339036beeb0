package policy

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
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

// fuzzWrapperOpts are long options of the wrappers, from the programs'
// own documentation (coreutils, util-linux, findutils, GNU time, sudo): the
// option, whether it takes a value, the length of its shortest unambiguous
// prefix among the program's long options, and the operands the wrapper
// needs before its command. The fuzzer abbreviates them as getopt_long
// allows, and the command after them must still be seen.
var fuzzWrapperOpts = []struct {
	wrapper, name string
	value         bool
	unique        int
	operands      string
}{
	{"timeout", "kill-after", true, 1, "5"}, {"timeout", "signal", true, 1, "5"},
	{"timeout", "foreground", false, 1, "5"}, {"timeout", "preserve-status", false, 1, "5"},
	{"time", "format", true, 1, ""}, {"time", "output", true, 1, ""}, {"time", "append", false, 1, ""},
	{"time", "portability", false, 1, ""}, {"time", "verbose", false, 4, ""},
	{"nice", "adjustment", true, 1, ""},
	{"stdbuf", "input", true, 1, ""}, {"stdbuf", "output", true, 1, ""}, {"stdbuf", "error", true, 1, ""},
	{"env", "unset", true, 1, ""}, {"env", "chdir", true, 1, ""}, {"env", "ignore-environment", false, 8, ""},
	{"env", "null", false, 2, ""}, {"env", "debug", false, 3, ""},
	{"xargs", "max-args", true, 5, ""}, {"xargs", "arg-file", true, 1, ""}, {"xargs", "delimiter", true, 1, ""},
	{"xargs", "max-procs", true, 5, ""}, {"xargs", "no-run-if-empty", false, 2, ""}, {"xargs", "verbose", false, 4, ""},
	{"sudo", "user", true, 2, ""}, {"sudo", "group", true, 1, ""}, {"sudo", "prompt", true, 3, ""},
	{"sudo", "non-interactive", false, 1, ""}, {"sudo", "preserve-env", false, 10, ""},
	{"flock", "wait", true, 1, "lockf"}, {"flock", "timeout", true, 1, "lockf"}, {"flock", "no-fork", false, 3, "lockf"},
	{"chroot", "userspec", true, 1, "/"}, {"chroot", "groups", true, 1, "/"}, {"chroot", "skip-chdir", false, 1, "/"},
}

// wrapperPrefix builds "WRAPPER --ABBREV [VALUE] [OPERANDS]" from two fuzz
// bytes: which option, and how much of it to spell out.
func wrapperPrefix(which, cut uint8) string {
	o := fuzzWrapperOpts[int(which)%len(fuzzWrapperOpts)]
	n := o.unique + int(cut)%(len(o.name)-o.unique+1)
	w := o.wrapper
	if w == "time" {
		w = `\time`
	}
	s := w + " --" + o.name[:n]
	if o.value {
		s += " v"
	}
	if o.operands != "" {
		s += " " + o.operands
	}
	return s
}

// FuzzNoDenyBypass checks that no command line makes Authorize allow (or
// merely ask about) a chain in which some segment matches a deny rule, even
// when every other command is allowed by the catch-all rule. Each input is
// also run behind a wrapper whose long option is abbreviated as getopt_long
// allows (the wrapper runs the command, so a denied one stays denied), and
// a sed script is judged under sed:*: when the policy allows it, GNU sed's
// sandbox, which refuses e, r and w, must accept it.
func FuzzNoDenyBypass(f *testing.F) {
	for i, c := range bypassCases {
		f.Add(c.cmd, uint8(i), uint8(i/3), "p")
	}
	for i, s := range []string{"curl x", "ls && rm -rf /", "git status; git push --force", "sudo nc -l 1",
		"env -S 'curl x' && true", "timeout 5 A=1 curl x", "sh -c 'rm -rf x'", "xargs curl", "CURL.EXE x",
		"bash <<'EOF'\nrm -rf x\nEOF", "echo 'rm -rf x' | sh", "bash <<< 'curl x'", "make --eval='x:;rm -rf y' x",
		"make -f - x <<'EOF'\nx:\n\tcurl y\nEOF", "echo $(curl x)", "X=$(ls && rm -rf /) true", "cat <<< `nc -l 1`",
		"echo \"a $(echo $(git push --force))\" > $(curl y)"} {
		f.Add(s, uint8(i), uint8(i), ":a;e id")
	}
	for i, script := range []string{"s/[/]/g;#/w f", ":x;w /tmp/f", "b end;e id", "1r /etc/shadow", "s/a/b/w f", "$!{N};P;D"} {
		f.Add("rm -rf x", uint8(i), uint8(7*i), script)
	}
	var denyText []string
	for _, r := range fuzzDeny {
		denyText = append(denyText, strings.Join(r, " ")+":*")
	}
	p := &Policy{Allow: mustRules(f, fuzzAllow), Deny: mustRules(f, denyText),
		Ask: mustRules(f, fuzzAsk), ReadOnlyAutoAllow: true}
	sedPolicy := &Policy{Allow: mustRules(f, []string{"sed:*"})}
	dir := testprog.TempDir(f)
	p.Home, sedPolicy.Home = dir, dir
	sandbox := gnuSedSandbox()
	f.Fuzz(func(t *testing.T, src string, which, cut uint8, script string) {
		c, err := chain.ParseDialect(src, chain.POSIX)
		if err != nil {
			return
		}
		checkNoDenyBypass(t, p, src, c, dir)
		first := c.Segments()[0]
		if oracleDenied(first.Args) && len(first.Assigns) == 0 && !strings.HasPrefix(first.Args[0], "-") && !c.Pipelines[0].Negated {
			wrapped := wrapperPrefix(which, cut) + " " + src
			if wc, err := chain.ParseDialect(wrapped, chain.POSIX); err == nil {
				if d, err := p.Authorize(context.Background(), wc, dir); err != nil || d.Verdict != chain.Deny {
					t.Fatalf("%q: the wrapped command is denied, but the chain got %v (%v)", wrapped, d.Verdict, err)
				}
			}
		}
		if sandbox {
			checkSedScript(t, sedPolicy, script, dir)
		}
	})
}

// checkNoDenyBypass is the deny oracle on one parsed chain.
func checkNoDenyBypass(t *testing.T, p *Policy, src string, c *chain.Chain, dir string) {
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
		if innerDenied(s) && d.Segments[i].Verdict != chain.Deny {
			t.Fatalf("%q: segment %d holds a substitution that matches a deny rule but got %s (%q)",
				src, i, d.Segments[i].Verdict, d.Segments[i].Reasons)
		}
	}
}

// innerDenied reports a segment one of whose command substitutions, at
// any depth, holds a segment the deny oracle matches.
func innerDenied(s *chain.Segment) bool {
	for _, sb := range s.Substs {
		for _, in := range sb.Chain.Segments() {
			if oracleDenied(in.Args) || innerDenied(in) {
				return true
			}
		}
	}
	return false
}

// readsOnly reports a script whose commands the sandbox refuses only
// because they read files (r, R): the policy judges those files as reads
// (access.go) instead of refusing the script.
func readsOnly(script string) bool {
	for _, f := range sedScriptFiles(script) {
		if f.role == roleRead {
			return true
		}
	}
	return false
}

// gnuSedSandbox reports a GNU sed with --sandbox on this machine.
func gnuSedSandbox() bool {
	out, err := exec.Command("sed", "--sandbox", "-n", "-e", "p", os.DevNull).CombinedOutput()
	return err == nil && len(out) == 0
}

// checkSedScript: a script the guard lets through under sed:* must be one
// GNU sed's sandbox accepts (no e, r, w, W, s///e, s///w).
func checkSedScript(t *testing.T, p *Policy, script, dir string) {
	if script == "" || strings.IndexByte(script, 0) >= 0 {
		return
	}
	c, err := chain.ParseDialect("sed -n -e "+quoteArg(script)+" f", chain.POSIX)
	if err != nil || len(c.Segments()) != 1 || len(c.Segments()[0].Args) != 5 {
		return
	}
	d, err := p.Authorize(context.Background(), c, dir)
	if err != nil || d.Verdict != chain.Allow {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, "sed", "--sandbox", "-n", "-e", script, os.DevNull).CombinedOutput()
	if strings.Contains(string(out), "sandbox") && !readsOnly(script) {
		t.Fatalf("sed script %q is allowed under sed:* but GNU sed's sandbox refuses it: %s", script, out)
	}
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
	dir := testprog.TempDir(b)
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

// unknownWordPolicies are the policies FuzzUnknownWords and
// TestUnknownWordsProperty judge with: the deny oracle's rules behind the
// catch-all, and a policy with Read and Edit rules, the read-only table
// and prefix allow rules.
func unknownWordPolicies(t testing.TB, home string) []*Policy {
	var deny []string
	for _, r := range fuzzDeny {
		deny = append(deny, strings.Join(r, " ")+":*")
	}
	deny = append(deny, "Bash(git * --force)", "Bash(rm -rf /)")
	catchAll := &Policy{Allow: mustRules(t, fuzzAllow), Ask: mustRules(t, fuzzAsk), Deny: mustRules(t, deny), Home: home}
	paths := &Policy{Deny: mustRules(t, deny), ReadOnlyAutoAllow: true, Home: home}
	paths.Allow, paths.PathAllow = mustRulesAndPaths(t, append(slices.Clone(defaultAllow), "Read", "Edit(./src/**)"))
	paths.Ask, paths.PathAsk = mustRulesAndPaths(t, []string{"Bash(git commit:*)", "Read(./secret)"})
	_, paths.PathDeny = mustRulesAndPaths(t, []string{"Read(./.env)", "Edit(./.git/**)"})
	return []*Policy{catchAll, paths}
}

// wordSlots are the places of a parsed chain a word known only at run
// time can take: every argument, assignment value and redirect target, in
// order; calling a slot makes its word one (its text as written stays).
// A parsed segment's words are its arguments, one each.
func wordSlots(c *chain.Chain) []func() {
	var slots []func()
	for _, s := range c.Segments() {
		for i := range s.Assigns {
			slots = append(slots, func() { s.Assigns[i].Runtime = true })
		}
		for i := range s.Words {
			slots = append(slots, func() { s.Words[i].Runtime = true })
		}
		for i := range s.Redirects {
			slots = append(slots, func() { s.Redirects[i].Runtime = true })
		}
	}
	return slots
}

// checkUnknownWords parses src twice, replaces the words mask picks (bit
// i%64 for slot i) in the second copy by unknown words, judges both and
// checks the properties of unknown words: no decision text holds a NUL
// byte; a segment whose program word is unknown is not allowed; a segment
// a Bash deny rule denies stays denied, or asks hard naming a deny rule
// that may match (mayMatchDeny).
func checkUnknownWords(t *testing.T, p *Policy, src string, mask uint64, dir string) {
	orig, err := chain.ParseDialect(src, chain.POSIX)
	if err != nil {
		return
	}
	c, _ := chain.ParseDialect(src, chain.POSIX)
	for i, makeRuntime := range wordSlots(c) {
		if mask>>(uint(i)%64)&1 != 0 {
			makeRuntime()
		}
	}
	d0, err0 := p.Authorize(context.Background(), orig, dir)
	d, err := p.Authorize(context.Background(), c, dir)
	if err0 != nil || err != nil {
		t.Fatalf("%q: %v %v", src, err0, err)
	}
	if bad := nulInDecision(d); bad != "" {
		t.Fatalf("%q mask %x: %s holds a NUL byte", src, mask, bad)
	}
	bashDeny := map[string]*Rule{}
	for k := range p.Deny {
		bashDeny[p.Deny[k].Text] = &p.Deny[k]
	}
	var inModes map[Mode]*chain.Decision // the same chain in the modes that lift or harden an ask
	for i, s := range c.Segments() {
		sd := d.Segments[i]
		if len(s.Args) > 0 && s.ArgRuntime(0) && (sd.Verdict == chain.Allow || d.Verdict == chain.Allow) {
			t.Fatalf("%q mask %x: segment %d's program is unknown, but it is allowed: %q", src, mask, i, sd.Reasons)
		}
		if d0.Segments[i].Verdict != chain.Deny || bashDeny[d0.Segments[i].Rule] == nil || sd.Verdict == chain.Deny {
			continue
		}
		if inModes == nil {
			inModes = map[Mode]*chain.Decision{}
			for _, m := range []Mode{ModeBypass, ModeDontAsk} {
				q := *p
				q.Mode = m
				if inModes[m], err = q.Authorize(context.Background(), c, dir); err != nil {
					t.Fatal(err)
				}
			}
		}
		if why := mayMatchDeny(sd, bashDeny, inModes, i); why != "" {
			t.Fatalf("%q mask %x: segment %d is denied by %s, but with unknown words it gets %s, %s: %q",
				src, mask, i, d0.Segments[i].Rule, sd.Verdict, why, strings.Join(sd.Reasons, "; "))
		}
	}
}

// mayMatchDeny checks the verdict a segment denied by a Bash deny rule may
// get once some of its words are unknown, if not deny: ask, naming a deny
// rule of the policy in Rule and as "may match" in a reason, hard (still
// ask under bypassPermissions, deny under dontAsk). It returns what is
// missing, or "".
func mayMatchDeny(sd chain.SegmentDecision, deny map[string]*Rule, inModes map[Mode]*chain.Decision, i int) string {
	r := deny[sd.Rule]
	switch {
	case sd.Verdict != chain.Ask:
		return "neither deny nor ask"
	case r == nil:
		return "not naming a deny rule (rule " + strconv.Quote(sd.Rule) + ")"
	}
	want := "may match deny rule " + r.String() + ": "
	found := false
	for _, reason := range sd.Reasons {
		if strings.HasPrefix(reason, want) && strings.HasSuffix(reason, "; it is judged again on its real value when it starts") {
			found = true
		}
	}
	switch {
	case !found:
		return "without the reason " + strconv.Quote(want+"…; it is judged again on its real value when it starts")
	case inModes[ModeBypass].Segments[i].Verdict == chain.Allow:
		return "which bypassPermissions lifts"
	case inModes[ModeDontAsk].Segments[i].Verdict != chain.Deny:
		return "which dontAsk does not deny"
	}
	return ""
}

// FuzzUnknownWords runs checkUnknownWords on any parseable command line
// with any of its words unknown.
func FuzzUnknownWords(f *testing.F) {
	for i, c := range bypassCases {
		f.Add(c.cmd, uint64(1)<<(uint(i)%8)|uint64(i)<<8)
	}
	for _, s := range []string{"sudo -u bob rm -rf /", "git -c x=y push --force", "sh -c 'curl x' arg0",
		"timeout 5 nc -l 1 > out.txt", "env -S 'curl x'", "cat < in.txt .env", "cd sub && git push -f"} {
		f.Add(s, ^uint64(0))
		f.Add(s, uint64(1))
		f.Add(s, uint64(2))
	}
	dir := testprog.TempDir(f)
	policies := unknownWordPolicies(f, dir)
	f.Fuzz(func(t *testing.T, src string, mask uint64) {
		for _, p := range policies {
			checkUnknownWords(t, p, src, mask, dir)
		}
	})
}

// TestUnknownWordsProperty runs checkUnknownWords on every command of the
// tests, with each word unknown in turn and with all of them unknown.
func TestUnknownWordsProperty(t *testing.T) {
	root, home := fixture(t)
	policies := unknownWordPolicies(t, home)
	cmds := literalCommands(root, home)
	for _, c := range unknownCases {
		cmds = append(cmds, c.cmd)
	}
	runs := 0
	for _, src := range cmds {
		c, err := chain.ParseDialect(src, chain.POSIX)
		if err != nil {
			continue
		}
		n := len(wordSlots(c))
		if n > 64 {
			n = 64
		}
		masks := []uint64{^uint64(0)}
		for i := 0; i < n; i++ {
			masks = append(masks, 1<<uint(i))
		}
		for _, p := range policies {
			for _, m := range masks {
				checkUnknownWords(t, p, src, m, root)
				runs++
			}
		}
	}
	t.Logf("%d judgements with unknown words", runs)
}
