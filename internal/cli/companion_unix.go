//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"

	"github.com/chainrun/chainrun/report"
)

// runCompanion replaces chainrun with the companion (execve): the client
// keeps talking to the same process, with the same pid, streams and
// signals, and nothing of chainrun stays behind.
func (c *cli) runCompanion(path string, args []string) int {
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	fmt.Fprintf(c.stderr, "chainrun: mcp: %s: %v\n", path, err)
	return report.ExitInternal
}
