package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/report"
)

// argError is a wrong argument of a tool call (an empty command, a bad
// timeout, an unknown job): the model can correct it and call again.
type argError struct{ msg string }

func (e *argError) Error() string              { return e.msg }
func (e *argError) ErrorKind() chain.ErrorKind { return chain.KindArgument }

func argErrorf(format string, a ...any) error { return &argError{fmt.Sprintf(format, a...)} }

// withErrorResult makes a tool's own errors results like every other: an
// isError result whose text says what was wrong and whose structured
// content carries the error as the tool's output type does (built by
// errOut), so a client that reads only structuredContent sees it too.
// The SDK would otherwise answer with the text alone.
func withErrorResult[In, Out any](h mcp.ToolHandlerFor[In, Out], errOut func(In, error) Out) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		res, out, err := h(ctx, req, in)
		if err == nil || errors.Is(err, context.Canceled) {
			return res, out, err
		}
		text := fmt.Sprintf("%s error: %v", chain.KindOf(err), err)
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, errOut(in, err), nil
	}
}

// runError is run's and job_kill's output for an error: the --json object
// for a chain that did not run, in the session's directory.
func (s *session) runError(err error) RunResult {
	return RunResult{Run: *report.FromResult(nil, err), Cwd: s.snapshot().Dir}
}

// jobOutputError is job_output's output for an error.
func jobOutputError(args JobOutputArgs, err error) JobOutput {
	return JobOutput{Job: args.Job, Error: report.NewError(err)}
}

// explainError is explain's output for an error: a plan of nothing.
func explainError(_ ExplainArgs, err error) *report.Plan {
	return report.NewPlan(nil, err)
}

// argumentErrors gives the results the SDK makes itself, for arguments
// that do not fit a tool's input schema (no command, a string where a
// number belongs), the structured content every other result carries:
// the tool's own output with the error, kind argument.
func (s *session) argumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ctr, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !ctr.IsError || ctr.StructuredContent != nil || len(ctr.Content) == 0 {
			return res, err
		}
		params, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		text, isText := ctr.Content[0].(*mcp.TextContent)
		if !ok || !isText {
			return res, err
		}
		e := argErrorf("%s", text.Text)
		switch params.Name {
		case "run", "job_kill":
			ctr.StructuredContent = s.runError(e)
		case "job_output":
			ctr.StructuredContent = JobOutput{Error: report.NewError(e)}
		case "explain":
			ctr.StructuredContent = explainError(ExplainArgs{}, e)
		}
		return ctr, nil
	}
}
