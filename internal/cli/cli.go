// Package cli is chainrun's command line: the flags, the run, explain and
// policy wiring, and the flags of the mcp subcommand. It is a package of
// its own so two programs can share it: cmd/chainrun, which must start
// fast and so does not link the MCP server, and cmd/chainrun-mcp, which
// serves MCP with the same policy flags (docs/architecture.md).
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/chainrun/chainrun/report"
)

// exitUsage is chainrun's status for bad flags or arguments; the other
// statuses of chainrun itself are report's (report.ExitRefused, …), and
// every other status is the chain's.
const exitUsage = 2

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
	// `chainrun mcp` is the MCP server, a program of its own (companion.go);
	// a program named mcp runs as `chainrun -- mcp`.
	if len(args) > 0 && args[0] == "mcp" {
		return c.mcp(args[1:])
	}
	cfg, status, ok := c.parseArgs(args)
	if !ok {
		return status
	}
	if err := checkDir(cfg.dir); err != nil {
		return c.usageError("%v", err)
	}
	if cfg.explain {
		return c.explain(cfg)
	}
	return c.runChain(cfg)
}

// checkDir refuses a --dir that is not a directory before anything starts,
// naming the flag: left to the chain, the first program's start would fail
// with a message about the program (exit 126) instead.
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("--dir %s: no such directory", dir)
	case err != nil:
		return fmt.Errorf("--dir %s: %v", dir, errors.Unwrap(err))
	case !fi.IsDir():
		return fmt.Errorf("--dir %s: not a directory", dir)
	}
	return nil
}
