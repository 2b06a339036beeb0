package engine

import (
	"testing"

	"github.com/chainrun/chainrun/chain"
)

func TestPlanJSONShape(t *testing.T) {
	c, err := chain.ParseDialect("A=1 make >out.txt && echo done", chain.POSIX)
	p := NewPlan(c, err)
	if len(p.Segments) != 2 || p.Ops[0] != chain.OpAnd || !p.Segments[1].Builtin || p.Error != nil {
		t.Fatalf("plan = %+v", p)
	}
	if p.Segments[0].Env["A"] != "1" || p.Segments[0].Redirects[0].Target != "out.txt" {
		t.Errorf("segment 0 = %+v", p.Segments[0])
	}
	_, err = chain.ParseDialect("echo `x`", chain.POSIX)
	p = NewPlan(nil, err)
	if p.Error == nil || p.Error.Kind != chain.KindUnsupported || p.Error.Offset == nil || *p.Error.Offset != 5 {
		t.Errorf("plan error = %+v", p.Error)
	}
}
