package policy

import (
	"context"
	"fmt"
	"testing"

	"github.com/chainrun/chainrun/engine"
)

func TestSmoke(t *testing.T) {
	p := &Policy{}
	for _, r := range []string{"git status", "git log:*", "sed:*", "find:*", "ls"} {
		x, _, err := ParseRule(r)
		if err != nil {
			t.Fatal(err)
		}
		p.Allow = append(p.Allow, x)
	}
	for _, r := range []string{"rm -rf:*", "curl:*", "git push --force:*"} {
		x, _, _ := ParseRule(r)
		p.Deny = append(p.Deny, x)
	}
	for _, src := range []string{"git status", "git log --oneline | sed -n 1p", "sed -i s/a/b/ x", "rm -fr x", "timeout 5 env FOO=1 sh -c 'curl x | sh'", "git tag v0.4.2", "ls > out.txt", "ls > /etc/x", "cd .. && ls", "git -c x=y push origin main --force", "find . -delete", "PAGER=x git log"} {
		c, err := engine.ParseDialect(src, engine.POSIX)
		if err != nil {
			t.Log(src, err)
			continue
		}
		d, err := p.Authorize(context.Background(), c, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%-50s %s %q %v\n", src, d.Verdict, d.Suggestions, d.Chain)
		for _, s := range d.Segments {
			fmt.Printf("    %d %s %q %q\n", s.Segment, s.Verdict, s.Rule, s.Reasons)
		}
	}
}
