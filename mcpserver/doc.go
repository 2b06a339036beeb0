// Package mcpserver is chainrun as a Model Context Protocol server: the
// tools run, explain, job_output, job_kill and job_list over any MCP
// transport (stdio for `chainrun mcp`), so agents written in any language
// get chainrun's parser, policy and runner without spawning a process per
// command.
//
// It maps tool calls onto the engine and nothing else: every chain is
// parsed, judged by the policy the server was started with and run by
// engine.Run, and its result is the report package's --json object, so
// what a client sees is what the CLI prints. Tools cannot read, change or
// widen the policy or the audit log: they come only from Config.
//
// Each connection has one session (Server.Serve): its working directory
// starts at Config.Dir and a top-level cd of a foreground chain carries
// over to the next call; background jobs live in it; when the client
// disconnects, everything the session started is stopped, whole tree,
// before Serve returns.
//
// What the protocol adds on top of the engine:
//
//   - progress notifications while a chain runs, when the request carries
//     a progress token (the chain's last output line as message);
//   - cancellation: notifications/cancelled cancels the chain's context,
//     which stops its whole tree, and the response is not sent;
//   - approvals: an ask verdict is put to the client's user through
//     elicitation (server-initiated for clients up to 2025-11-25, input
//     requests and a retried call bound to the exact call from 2026-07-28
//     on), with a deadline; a client that cannot ask gets an error result
//     with the decision at once.
//
// docs/mcp.md is the contract: the tools' arguments and results.
package mcpserver
