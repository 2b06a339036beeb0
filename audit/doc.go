// Package audit records every chain chainrun was asked to run, whatever
// came of it, as one JSON line in a file rotated by size and age.
//
// Log implements engine.Auditor: engine.Run hands it a record for every
// chain it judged (allowed, asked, denied, refused, failed or finished),
// with the policy's decision and the result, so a user can see afterwards
// what an agent ran on their machine and why it was allowed. It lives
// apart from the policy, which only judges, and from the runner, which
// only runs: the log is written by whoever wires the two together (the
// CLI, the MCP server, a Go program).
package audit
