package report_test

import (
	"os"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/report"
)

// The plan of a chain, as `chainrun --explain --json` prints it: a
// refusal, then an accepted chain judged by a policy.
func ExampleNewPlan() {
	c, err := chain.ParseDialect("ls ${D:-$(go env GOROOT)}", chain.POSIX)
	report.Write(os.Stdout, report.NewPlan(c, err))

	c, err = chain.ParseDialect("LANG=C sort list.txt 2>&1 | head -n 3 > top.txt", chain.POSIX)
	p := report.NewPlan(c, err)
	p.Judge(&chain.Decision{
		Verdict: chain.Ask,
		Segments: []chain.SegmentDecision{
			{Segment: 0, Verdict: chain.Allow, Rule: "sort:*", Reasons: []string{"matches allow rule sort:*"}},
			{Segment: 1, Verdict: chain.Ask, Reasons: []string{"writes top.txt"}},
		},
		Suggestions: []string{"Bash(head:*)"},
	})
	report.Write(os.Stdout, p)
	// Output:
	// {"segments":[],"ops":[],"warnings":[],"error":{"kind":"unsupported","message":"a command substitution inside ${…} or $((…)) is not supported; assign it to a variable first: v=$(go env GOROOT) then $v in its place","offset":8}}
	// {"segments":[{"argv":["sort","list.txt"],"env":{"LANG":"C"},"redirects":[{"fd":2,"op":">&","target":"1","span":[21,25]}],"builtin":false,"span":[0,25]},{"argv":["head","-n","3"],"env":{},"redirects":[{"fd":1,"op":">","target":"top.txt","span":[38,47]}],"builtin":false,"span":[28,47]}],"ops":["|"],"warnings":[],"error":null,"decision":"ask","reasons":[{"segment":0,"verdict":"allow","rule":"sort:*","reasons":["matches allow rule sort:*"]},{"segment":1,"verdict":"ask","reasons":["writes top.txt"]}],"chain_reasons":[],"suggestions":["Bash(head:*)"]}
}
