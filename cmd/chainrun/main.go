// Command chainrun parses one command line, judges it against permission
// rules and runs it as a chain of processes, with no system shell.
//
//	chainrun [flags] [--] COMMAND
//
// COMMAND is a single argument holding the whole command line, for example
// 'seq 10 | grep 5'. With --explain chainrun only parses (and, with
// --policy, judges) the chain and prints the plan; otherwise it runs the
// chain, streams its output and exits with the chain's status.
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
// every field.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/chainrun/chainrun/report"
)

// exitUsage is chainrun's status for bad flags or arguments; the other
// statuses of chainrun itself are report's (report.ExitRefused, …), and
// every other status is the chain's.
const exitUsage = 2

func main() { os.Exit(Main()) }

// Main runs chainrun with the process's arguments and standard streams and
// returns the exit status. Tests call it in place of main.
func Main() int {
	survivePipe()
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	return c.run(os.Args[1:])
}

// cli holds the standard streams one invocation talks to.
type cli struct {
	stdin  *os.File
	stdout io.Writer
	stderr io.Writer
}

// outputFailed reports that chainrun's own output (a plan, a report, the
// help) could not be written, to a full disk or a closed pipe, and returns
// the status that says chainrun failed: output that was lost must not
// look like success.
func (c *cli) outputFailed(err error) int {
	fmt.Fprintf(c.stderr, "chainrun: cannot write the output: %v\n", err)
	return report.ExitInternal
}

func (c *cli) run(args []string) int {
	// `chainrun mcp` is the MCP server (mcp.go); a program named mcp runs
	// as `chainrun -- mcp`.
	if len(args) > 0 && args[0] == "mcp" {
		return c.mcp(args[1:])
	}
	cfg, status, ok := c.parseArgs(args)
	if !ok {
		return status
	}
	if cfg.explain {
		return c.explain(cfg)
	}
	return c.runChain(cfg)
}
