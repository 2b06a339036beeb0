package policy

import (
	"context"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

func TestSuggest(t *testing.T) {
	tests := []struct{ cmd, want string }{
		{"git tag v0.4.2", "git tag:*"},
		{"git tag 0.4.2", "git tag:*"},
		{"git tag 1.0.0-beta.3", "git tag:*"},
		{"git tag 1.0+build", "git tag:*"},
		{"git show aa211dcb", "git show:*"},
		{"git show 4f2c9e1d3b7a8c6e5f4d3c2b1a0f9e8d7c6b5a49", "git show:*"},
		{"git checkout feature-x", "git checkout:*"},
		{"git push origin main", "git push:*"},
		{"git status", "git status:*"},
		{"npm install react@18.2.0", "npm install:*"},
		{"npm run build", "npm run build:*"},
		{"npm run test 3", "npm run test:*"},
		{"npm view react", "npm view react:*"},
		{"docker pull alpine:3.19", "docker pull:*"},
		{"podman pull alpine:3.19", "podman pull:*"},
		{"aws s3 ls", "aws s3 ls:*"},
		{"kubectl get pods", "kubectl get:*"},
		{"make e2e", "make e2e:*"},
		{"kind k8s", "kind k8s:*"},
		{"tox py311", "tox py311:*"},
		{"helm install 42", "helm install:*"},
		{"cargo build --release", "cargo build:*"},
		{"ls -la", "ls:*"},
		{"pytest tests/unit", "pytest:*"},
		{"foo 123", "foo:*"},
		{"git -C x status", "git -C x status"},
		{"python3 script.py", "python3 script.py"},
		{"bash -c 'echo hi'", "bash -c 'echo hi'"},
		{"node -e 'x'", "node -e x"},
		{"env ls", "env ls"},
		{"xargs rm", "xargs rm"},
		{"sudo apt update", "sudo apt update"},
		{"run0 rm x", "run0 rm x"},
		{"gosu bob rm x", "gosu bob rm x"},
		{"pkexec rm x", "pkexec rm x"},
		{"doas rm x", "doas rm x"},
		{"timeout 5 make test", "make test:*"},
		{"LANG=C git log -5", "git log:*"},
		{"FOO=1 git log", ""},
		{"./build.sh release", "./build.sh release:*"},
	}
	for _, tt := range tests {
		c, err := chain.ParseDialect(tt.cmd, chain.POSIX)
		if err != nil {
			t.Fatal(tt.cmd, err)
		}
		seg := c.Segments()[0]
		got := Suggest(seg)
		if tt.want != "" {
			tt.want = "Bash(" + tt.want + ")" // the rows name the rule inside the entry
		}
		if got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.cmd, got, tt.want)
			continue
		}
		if got == "" {
			continue
		}
		// Every suggestion must read back as a rule that allows the command.
		r, ok, err := ParseRule(got)
		if err != nil || !ok {
			t.Errorf("suggestion %q does not parse: %v", got, err)
			continue
		}
		p := &Policy{Allow: []Rule{r}}
		if d, _ := p.Authorize(context.Background(), c, testprog.TempDir(t)); d.Segments[0].Verdict != chain.Allow &&
			!isBareBanned(canonicalName(seg.Args[0])) && seg.Args[0] != "env" && seg.Args[0] != "xargs" {
			t.Errorf("suggestion %q does not allow %q: %+v", got, tt.cmd, d.Segments[0])
		}
	}
}

func TestValueTokens(t *testing.T) {
	for tok, want := range map[string]bool{
		"42": true, "v0.4.2": true, "0.4.2": true, "1.0.0-beta.3": true, "1.0+build": true, "v2": true,
		"aa211dcb": true, "deadbee1": true, "pkg@1.2": true, "@scope/pkg@1.2.3": true, "alpine:3.19": true,
		"e2e": false, "k8s": false, "s3": false, "py311": false, "main": false, "feature-x": false,
		"deadbeef": false, "abc1234g": false, "v": false, "1.": false, "x:y": false, "aa21": false,
	} {
		if got := isValueToken(tok); got != want {
			t.Errorf("isValueToken(%q) = %v, want %v", tok, got, want)
		}
	}
}

func TestSuggestionsPerChain(t *testing.T) {
	c, err := chain.ParseDialect("git tag v1.2.3 && git tag 1.2.4 && make a && make b && cargo c && go vet && npm ci && pip list", chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	d, err := (&Policy{}).Authorize(context.Background(), c, testprog.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Bash(git tag:*)", "Bash(make a:*)", "Bash(make b:*)", "Bash(cargo c:*)", "Bash(go vet:*)"}
	if !slices.Equal(d.Suggestions, want) {
		t.Errorf("suggestions %q, want %q (deduplicated, at most 5)", d.Suggestions, want)
	}
	// No suggestion for allowed, denied or path-asked segments.
	c, _ = chain.ParseDialect("git status && curl x && cat /etc/passwd", chain.POSIX)
	p := &Policy{Allow: mustRules(t, []string{"git status", "cat:*"}), Deny: mustRules(t, []string{"curl:*"})}
	d, _ = p.Authorize(context.Background(), c, testprog.TempDir(t))
	if len(d.Suggestions) != 0 {
		t.Errorf("suggestions %q, want none", d.Suggestions)
	}
}
