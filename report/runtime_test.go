package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestPlanShowsRuntimeWordsAsWritten: in a plan, an argument, an
// assignment value and a redirect target known only at run time are
// shown as written, with no mark and no look-alike separator.
func TestPlanShowsRuntimeWordsAsWritten(t *testing.T) {
	c, err := chain.ParseDialect(`false && A=$? echo out/$? >"out/$?.log"`, chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	planned, err := engine.Plan(c, engine.Options{Dir: testprog.TempDir(t), Env: []string{"HOME=/h"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(NewPlan(planned, nil))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, `\u0000`) || strings.ContainsAny(s, "\x00\u2215\u2216") {
		t.Errorf("the plan holds a mark or a look-alike separator: %s", s)
	}
	for _, want := range []string{`"argv":["echo","out/$?"]`, `"target":"\"out/$?.log\""`} {
		if !strings.Contains(s, want) {
			t.Errorf("the plan lacks %s: %s", want, s)
		}
	}
}
