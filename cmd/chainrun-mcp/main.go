// Command chainrun-mcp is chainrun's MCP server on stdin and stdout:
//
//	chainrun-mcp [flags]     (also started as: chainrun mcp [flags])
//
// It takes the flags of `chainrun mcp` (chainrun mcp --help lists them)
// and serves the tools of package mcpserver to one client until the
// client goes away. It is a program of its own, installed beside chainrun,
// so that the MCP SDK and what it links stay out of chainrun's start-up.
package main

import (
	"context"
	"io"
	"os"

	"github.com/chainrun/chainrun/internal/cli"
	"github.com/chainrun/chainrun/mcpserver"
)

func main() { os.Exit(cli.ServeMCP(os.Args[1:], serve)) }

// serve hands the flags' setup to mcpserver and serves one session.
func serve(ctx context.Context, s *cli.MCPSetup, r io.Reader, w io.Writer) error {
	cfg := mcpserver.Config{
		Dir: s.Dir, Timeout: s.Timeout, Grace: s.Grace, MaxOutput: s.MaxOutput, Dialect: s.Dialect,
		ApprovalTimeout: s.ApprovalTimeout, Version: s.Version, Logger: s.Logger,
		Authorizer: s.Authorizer, PolicyWarnings: s.PolicyWarnings, Auditor: s.Auditor, Sandbox: s.Sandbox,
	}
	if s.Authorizer != nil {
		cfg.PolicyID = policyID(s.PolicyFiles, s.PolicyMode, s.PolicyDirs)
	}
	srv, err := mcpserver.New(cfg)
	if err != nil {
		return err
	}
	return srv.ServeIO(ctx, r, w)
}
