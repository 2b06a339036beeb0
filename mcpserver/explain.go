package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/report"
)

// explain is the explain tool: the plan chainrun --explain --json prints,
// judged in the session's directory under the server's policy, with the
// refusals engine.Check would make. It runs nothing. A refused command
// line is an error result, as it is an error status for the CLI; the
// policy's decision, whatever it is, is data.
func (s *session) explain(ctx context.Context, _ *mcp.CallToolRequest, args ExplainArgs) (*mcp.CallToolResult, *report.Plan, error) {
	cfg := &s.srv.cfg
	dialect, err := dialectOf(args.Dialect, cfg.Dialect)
	if err != nil {
		return nil, nil, err
	}
	st := s.snapshot()
	dir := st.Dir
	ch, err := chain.ParseDialect(args.Command, dialect)
	if err == nil {
		opts := engine.Options{Dir: dir, Env: st.sessionEnv(cfg.Env), Vars: st.Vars, Authorizer: cfg.Authorizer}
		if ch, err = engine.Plan(ch, opts); err == nil {
			err = engine.Check(ch, opts)
		}
	}
	plan := report.NewPlan(ch, err)
	if err == nil && cfg.Authorizer != nil {
		d, jerr := judged(cfg.Authorizer, st.sessionEnv(cfg.Env), nil, s.move("", dir)).Authorize(ctx, ch, dir)
		if jerr != nil {
			plan.Error = report.NewError(jerr)
		}
		plan.Judge(d)
		plan.PolicyWarnings = cfg.PolicyWarnings
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: planText(plan)}},
		IsError: plan.Error != nil,
	}, plan, nil
}
