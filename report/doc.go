// Package report is chainrun's JSON wire format: the one place that says
// what a run (report.Run, printed by `chainrun --json`) and an explain
// view (report.Plan, printed by `chainrun --explain --json`) look like on
// the wire, and the one encoder that prints them (Write).
//
// It exists so the core types stay free of wire concerns. engine.Result
// and the chain model hold what a program needs (bytes as captured,
// time.Duration, typed errors); the wire needs something else (text decoded
// and made valid UTF-8, milliseconds, errors as kind and message, spans as
// [start,end] pairs, absent lists as [] rather than null). Keeping both in
// one type meant hand-written MarshalJSON methods and byte splicing in the
// CLI; here the wire types are plain structs with json tags, built from the
// core types by FromResult and NewPlan, so a JSON-schema generator can
// describe them and an MCP server can return a Run as its structured
// result unchanged.
//
// The policy's decision has one rendering, Decision: its fields sit at the
// top level of both a Run and a Plan, the audit log writes them, and
// Decision.Text is the text every view prints (the CLI's approval prompt
// and --explain, the MCP server's run and explain results).
//
// Stability: the wire is extended by field. Fields are only ever added,
// never renamed, retyped or removed, and the order of existing fields
// stays, so a consumer that ignores unknown fields keeps working and the
// CLI's output stays byte-for-byte what it was. docs/json.md describes
// every field.
package report
