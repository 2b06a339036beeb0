// Package chain is chainrun's model of a command line and its parser.
//
// A command line such as
//
//	git status | grep main && go test ./... > t.log 2>&1
//
// is parsed (Parse, ParseDialect, Parser) into a *Chain: pipelines joined by
// &&, || and ; (a pipeline written with & runs in the background), each
// pipeline a list of Segments joined by |, each Segment an argv with its
// leading assignments and its Redirects (or a compound command: if, a
// loop, case, a group, a subshell), every part with its byte Span in the
// source. Parsing uses mvdan.cc/sh/v3/syntax for bash's grammar and lowers
// its tree into this model; whatever has no single meaning without a shell
// (a function, eval, a list in the background, …) is refused with a
// *ParseError naming the construct, its offset and the
// fix; a word that expands (a variable, a glob) keeps its syntax, to be
// expanded when the chain is planned. Word values are computed by one of
// two Dialects: POSIX reads backslashes as bash does, Windows keeps them
// literal in paths.
//
// The package also holds the vocabulary of judgement shared by the policy
// and the runner (Verdict, Decision, SegmentDecision, Authorizer, Approver,
// DeniedError) and the error kinds (ErrorKind, KindOf) every chainrun error
// reports. It imports nothing of chainrun's but internal/expr: the policy
// reads the model without the runner, and the runner (package engine) runs
// it.
//
// A word that expands keeps what it expands from (Word.Expr, opaque
// outside this module); package expand computes its fields, as mvdan's
// expand package works on its syntax trees.
//
// # Security
//
// A Chain is exactly what is judged and what is run: its Args are the
// final argv of each program, its Redirects the files that will be opened.
// Nothing is ever re-joined into a string and parsed again. A construct
// outside the supported subset is refused, never passed through literally.
package chain
