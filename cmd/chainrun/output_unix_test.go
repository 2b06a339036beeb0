//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestClosedStdout: chainrun whose stdout nobody reads does not die of
// SIGPIPE. A built-in writing there ends as bash's process would (141):
// alone it ends the chain, as a pipeline stage only itself; the other
// stages are waited for (here until the timeout stops them).
func TestClosedStdout(t *testing.T) {
	for _, tt := range []struct {
		name, chain string
		timeout     string // only the chain that hangs needs a short one
		code        int
		stderr      string
	}{
		{"alone", "echo hi; echo-argv after >&2", "1m", 141, ""},
		{"stage", "true | echo hi; echo-argv after >&2", "1m", 0, "after\n"},
		{"waits for the others", "hang | echo hi", "500ms", 124, "chainrun: chain timed out after 500ms"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := testprog.Command("chainrun", "--timeout", tt.timeout, "--grace", "100ms", tt.chain)
			cmd.Env = append(cmd.Env, "PATH="+testprog.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			pr.Close()
			cmd.Stdout = pw
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err = cmd.Run()
			pw.Close()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode() // -1 when a signal killed it
			}
			if code != tt.code || !strings.HasPrefix(stderr.String(), tt.stderr) {
				t.Errorf("chainrun ended with %v (status %d), stderr %q; want %d and %q", err, code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}

}
