//go:build !unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"

	"github.com/chainrun/chainrun/report"
)

// runCompanion starts the companion on chainrun's own standard handles and
// waits for it (Windows has no exec that keeps the process): the client's
// pipes reach the server directly, chainrun only relays the exit status.
// Ctrl+C reaches the whole console group, the companion included, which
// stops its session itself; chainrun ignores it so as to wait for that.
func (c *cli) runCompanion(path string, args []string) int {
	signal.Ignore(os.Interrupt)
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		fmt.Fprintf(c.stderr, "chainrun: mcp: %s: %v\n", path, err)
		return report.ExitInternal
	}
	return 0
}
