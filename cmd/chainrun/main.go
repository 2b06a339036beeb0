// Command chainrun parses one command line, judges it against permission
// rules and runs it as a chain of processes, with no system shell.
//
//	chainrun [flags] [--] COMMAND
//	chainrun mcp [flags]
//
// COMMAND is a single argument holding the whole command line, for example
// 'seq 10 | grep 5'. With --explain chainrun only parses (and, with
// --policy, judges) the chain and prints the plan; otherwise it runs the
// chain, streams its output and exits with the chain's status.
//
// `chainrun mcp` runs chainrun-mcp, the MCP server (cmd/chainrun-mcp),
// found beside this executable or on PATH; it is a program of its own so
// that what the server links does not slow every start of chainrun.
//
// Exit statuses:
//
//	0-255  the chain's own status, as bash's $? would be after it
//	       (127 not found, 126 not executable, 128+N killed by signal N)
//	2      the arguments were wrong, or COMMAND was refused (syntax or an
//	       unsupported construct); nothing ran
//	3      a policy denied the chain, or an ask verdict was not approved;
//	       nothing ran
//	124    the --timeout expired; the whole chain was stopped
//	125    chainrun itself failed
//
// The --json form prints one JSON object on stdout whatever happens: a
// report.Run, or with --explain a report.Plan; docs/json.md describes
// every field. The flags and the wiring are package internal/cli.
package main

import (
	"os"

	"github.com/chainrun/chainrun/internal/cli"
)

func main() { os.Exit(cli.Main()) }
