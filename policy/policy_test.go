package policy

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

func parse(t testing.TB, src string) *chain.Chain {
	t.Helper()
	c, err := chain.ParseDialect(src, chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClassifier(t *testing.T) {
	calls := 0
	answer := chain.Allow
	var fail error
	p := &Policy{
		Allow: mustRules(t, []string{"git status"}),
		Deny:  mustRules(t, []string{"curl:*"}),
		Classifier: ClassifierFunc(func(ctx context.Context, seg *chain.Segment, d *chain.SegmentDecision) (chain.Verdict, error) {
			calls++
			if d.Verdict != chain.Ask {
				t.Errorf("classifier saw verdict %s", d.Verdict)
			}
			return answer, fail
		}),
	}
	dir := testprog.TempDir(t)
	judge := func(src string) *chain.Decision {
		d, err := p.Authorize(context.Background(), parse(t, src), dir)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := judge("git status && make build"); d.Verdict != chain.Allow || calls != 1 || len(d.Suggestions) != 0 {
		t.Errorf("allow: verdict %s, %d calls, suggestions %q", d.Verdict, calls, d.Suggestions)
	}
	calls = 0
	if d := judge("git status && curl x && make"); d.Verdict != chain.Deny || calls != 1 {
		t.Errorf("the classifier must not see or lift a deny: %s, %d calls", d.Verdict, calls)
	}
	answer = chain.Deny
	if d := judge("make"); d.Verdict != chain.Deny {
		t.Errorf("classifier deny: %s", d.Verdict)
	}
	answer = "maybe"
	if d := judge("make"); d.Verdict != chain.Ask {
		t.Errorf("an unknown answer must leave ask: %s", d.Verdict)
	}
	answer, fail = chain.Allow, errors.New("model offline")
	d := judge("make")
	if d.Verdict != chain.Ask || !strings.Contains(strings.Join(d.Segments[0].Reasons, "|"), "model offline") {
		t.Errorf("an error must leave ask with a reason: %+v", d.Segments[0])
	}
	// Chain-wide asks stay even when every segment is lifted.
	answer, fail = chain.Allow, nil
	if d := judge("cd sub && git status"); d.Verdict != chain.Ask {
		t.Errorf("cd + git: %s", d.Verdict)
	}
}

func TestAuthorizeDecisionShape(t *testing.T) {
	p := &Policy{Allow: mustRules(t, []string{"git log:*"}), Deny: mustRules(t, []string{"rm -rf:*"})}
	d, err := p.Authorize(context.Background(), parse(t, "git log -3 | head -1; git tag v1.0.0"), testprog.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != chain.Ask || len(d.Segments) != 3 {
		t.Fatalf("%+v", d)
	}
	if d.Segments[0].Verdict != chain.Allow || d.Segments[0].Rule != "git log:*" {
		t.Errorf("segment 0 %+v", d.Segments[0])
	}
	if d.Segments[1].Segment != 1 || d.Segments[1].Verdict != chain.Ask {
		t.Errorf("segment 1 %+v", d.Segments[1])
	}
	if !slices.Equal(d.Suggestions, []string{"Bash(head:*)", "Bash(git tag:*)"}) {
		t.Errorf("suggestions %q", d.Suggestions)
	}
	if _, err := p.Authorize(context.Background(), nil, ""); err == nil {
		t.Error("nil chain accepted")
	}
}

func TestZeroPolicyAsks(t *testing.T) {
	d, err := (&Policy{}).Authorize(context.Background(), parse(t, "ls"), testprog.TempDir(t))
	if err != nil || d.Verdict != chain.Ask {
		t.Fatalf("%v %v", d, err)
	}
}

func TestLongSourceAsks(t *testing.T) {
	p := &Policy{Allow: mustRules(t, []string{"echo:*"})}
	src := "echo " + strings.Repeat("a", MaxSource)
	d, err := p.Authorize(context.Background(), parse(t, src), testprog.TempDir(t))
	if err != nil || d.Verdict != chain.Ask || len(d.Chain) != 1 {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestSedScripts(t *testing.T) {
	for script, danger := range map[string]bool{
		"p": false, "1,5p": false, "$p": false, "/a/,/b/d": false, `s/a\/b/c/g`: false, "y/abc/xyz/": false,
		"1!G;h;$!d": false, ":a;N;$!ba;s/\\n/ /g": false, `\,x,d`: false, "s/x/y/3p": false, "/x/I p": false,
		"a hello": false, "e": true, "1e": true, "$ e ls": true, "s/a/b/e": true, "s/a/b/w f": true, "w f": true,
		"W f": true, "s/a/b/ge": true, "p;e": true, "s/[/]/x/e": true, "{p;e}": true, "/x/!e": true,
		"s/a/b": true, "k": true, "1~2w f": true,
	} {
		if got := sedScriptDanger(script) != ""; got != danger {
			t.Errorf("sed %q: danger %v, want %v (%s)", script, got, danger, sedScriptDanger(script))
		}
	}
}

func TestGuardEdges(t *testing.T) {
	for cmd, danger := range map[string]bool{
		"sort -k1,1 -t, f": false, "sort -ko f": false, "sort -T /tmp f": false, "sort -o": true,
		"sed -n -e 1p f": false, "sed --debug p f": false, "sed --i= p": true, "sed -n -- p -i": false,
		"rg -A3 -- -z": false, "rg -tz foo": false, "rg -jz foo": false, "rg -uuz foo": true,
		"git log -p": false, "git show --stat": false, "git --no-pager log": false, "git -C. log": false, "git --git-dir=x log": true, "git --work-tree x log": true,
		"git commit -c HEAD": false, "git commit --template=t": false, "git init --template=t": true, "git clone --config x=y u": true, "git clone -u x y": true, "git push --rec=x": true,
		"git config --list": false, "git config user.name": false, "git config -f f user.name": false, "git config -f f user.name x": true, "git config user.name x": true, "git config --unset x": true,
		"tar -tzf a.tgz": false, "tar cf - x": false, "tar -xf a --to-command sh": true,
		"awk -F: '{print $1}' f": false, "awk -v x=1 'BEGIN{print x}'": false, "awk '{print $1 > $2}'": true,
		"awk -e 'BEGIN{system(\"x\")}'": true, "mawk -W exec p.awk": true, "git cat-file --filters HEAD:x": true, "awk '{x = $1 \"|\"}'": false,
		"ssh -o StrictHostKeyChecking=no h": false, "ssh -o 'LocalCommand id' h": true, "ssh -F cfg h": true,
		"scp -S x a b": true, "npm ci": false, "npm config get x": false, "npm config set x y": true,
		"npm --script=sh t": true, "npm --ca=x ci": false, "npm --call x": true, "go vet ./...": false, "go run .": false, "go run ./cmd/x -v": false, "go run golang.org/x/tools/cmd/stringer@latest": true, "go run -exec sh .": true, "go generate": true, "go env -w X=y": true,
		"go -C x test": false, "env": false, "env -i ls": true, "zip -r a.zip d": false, "zip -rTT x a": true,
		"curl -s x": false, "man -k x": false, "date +%s": false, "date -s now": true, "uniq -c f": false,
	} {
		args := strings.Fields(cmd)
		if c, err := chain.ParseDialect(cmd, chain.POSIX); err == nil {
			args = c.Segments()[0].Args
		}
		if got := guard(lits(args)) != ""; got != danger {
			t.Errorf("guard(%q) = %v (%s), want %v", cmd, got, guard(lits(args)), danger)
		}
	}
}

func TestWrappers(t *testing.T) {
	tests := []struct{ cmd, inner string }{
		{"timeout -k 5 10 ls -l", "ls -l"},
		{"timeout --signal=KILL 10 ls", "ls"},
		{"nice -n 10 ls", "ls"},
		{"nice -10 ls", "ls"},
		{"stdbuf -o L ls", "ls"},
		{"env -i -u HOME A=1 ls", "ls"},
		{"env -S 'ls -l'", "ls -l"},
		{"env --split-string='A=1 ls' x", "ls x"},
		{"sudo -u bob -- ls", "ls"},
		{"sudo A=1 ls", "ls"},
		{"xargs -I{} -n1 ls {}", "ls {}"},
		{"xargs -r", "echo"},
		{"watch -x ls", "ls"},
		{"ionice -c3 ls", "ls"},
		{"taskset -c 1 ls", "ls"},
		{"chrt -f 10 ls", "ls"},
		{"setsid -w ls", "ls"},
		{"doas -u x ls", "ls"},
		{"busybox ls", "ls"},
		{"pkexec --user x ls", "ls"},
	}
	for _, tt := range tests {
		c := parse(t, tt.cmd)
		a := analyze(c.Segments()[0])
		if len(a.cmds) == 0 || showWords(a.cmds[len(a.cmds)-1].args) != tt.inner {
			t.Errorf("%q: commands %v, want %q", tt.cmd, a.cmds, tt.inner)
		}
	}
}

func TestNarrowView(t *testing.T) {
	for cmd, want := range map[string]string{
		"LANG=C TZ=UTC git log":   "git log",
		"timeout 5 nice git log":  "git log",
		"nohup stdbuf -oL ls":     "ls",
		"env ls":                  "env ls",
		"sudo ls":                 "sudo ls",
		"timeout 5 A=1 ls":        "A=1 ls",
		"FOO=1 ls":                "",
		"nohup nice git log":      "git log",
		"nice -n 5 timeout 1 top": "top",
	} {
		seg := parse(t, cmd).Segments()[0]
		args, _ := narrowView(seg, segArgv(seg))
		if showWords(args) != want {
			t.Errorf("narrow(%q) = %q, want %q", cmd, showWords(args), want)
		}
	}
}

func TestAuthorizeConcurrent(t *testing.T) {
	root, home := fixture(t)
	p := &Policy{Allow: mustRules(t, defaultAllow), Deny: mustRules(t, defaultDeny), Home: home, ReadOnlyAutoAllow: true}
	chains := []string{"git status && cat docs/readme.md", "sed -i s/a/b/ f", "sh -c 'curl x'", "cd sub && ls > x"}
	// Calls running at once each judge in their own room (workspace): every
	// decision is the one the same chain gets alone.
	want := make([]*chain.Decision, len(chains))
	for i, src := range chains {
		c, _ := chain.ParseDialect(src, chain.POSIX)
		d, err := p.Authorize(context.Background(), c, root)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = d
	}
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func(g int) {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 50; i++ {
				k := (g + i) % len(chains)
				c, _ := chain.ParseDialect(chains[k], chain.POSIX)
				d, err := p.Authorize(context.Background(), c, root)
				if err != nil {
					t.Error(err)
				} else if !reflect.DeepEqual(d, want[k]) {
					t.Errorf("%q judged at once with others: %+v, alone: %+v", chains[k], d, want[k])
				}
			}
		}(g)
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// Each segment's decision names the segment's text, so a prompt or a
// denial can show it without the chain.
func TestDecisionCarriesSegmentText(t *testing.T) {
	c, err := chain.ParseDialect("git status | grep  main && make", chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	d, err := (&Policy{}).Authorize(context.Background(), c, testprog.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"git status", "grep  main", "make"} {
		if got := d.Segments[i].Text; got != want {
			t.Errorf("segment %d text %q, want %q", i, got, want)
		}
	}
}
