package engine

import (
	"context"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// BenchmarkRejudgeSegment is the run-time re-judgement of one expanded
// segment (runner.judgeAgain): the policy judging it alone, with a rule
// set the size of a real project's.
func BenchmarkRejudgeSegment(b *testing.B) {
	pol, _, err := policy.Parse([]byte(`{"permissions": {
		"allow": ["Bash(git status:*)", "Bash(git diff:*)", "Bash(git log:*)", "Bash(ls:*)", "Bash(cat:*)",
			"Bash(grep:*)", "Bash(npm test:*)", "Bash(go test:*)", "Bash(make:*)", "Bash(echo:*)"],
		"deny": ["Bash(rm -rf:*)", "Bash(curl:*)", "Bash(git push --force:*)"],
		"ask": ["Bash(git push:*)"]}}`), "bench.json")
	if err != nil {
		b.Fatal(err)
	}
	c, err := chain.ParseDialect(`ls -la $D/src *.go`, chain.POSIX)
	if err != nil {
		b.Fatal(err)
	}
	sh := expand.HostShell([]string{"D=."}, testprog.TempDir(b))
	seg, err := expand.Segment(c.Pipelines[0].Segments[0], sh)
	if err != nil {
		b.Fatal(err)
	}
	r := &runner{ctx: context.Background(), c: c, opts: Options{Authorizer: pol}, dir: sh.Dir, start: sh.Dir}
	st := &stage{res: &SegmentResult{}}
	b.ReportAllocs()
	for b.Loop() {
		if err := r.judgeAgain(st, seg, seg); err != nil {
			b.Fatal(err)
		}
	}
}
