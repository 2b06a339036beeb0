//go:build unix

package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestOutputToFullDisk: whatever chainrun writes itself (a plan, a report,
// the help) that does not reach its stdout makes it fail with 125 and say
// so; a built-in that cannot write fails as bash's does.
func TestOutputToFullDisk(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full on this system")
	}
	defer full.Close()
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"explain", []string{"--explain", "echo hi"}, 125, "chainrun: cannot write the output: "},
		{"explain json", []string{"--explain", "--json", "echo hi"}, 125, "chainrun: cannot write the output: "},
		{"run json", []string{"--json", "echo hi"}, 125, "chainrun: cannot write the output: "},
		{"version", []string{"--version"}, 125, "chainrun: cannot write the output: "},
		{"help", []string{"--help"}, 125, "chainrun: cannot write the output: "},
		{"echo", []string{"echo hi"}, 1, "chainrun: echo: write error: No space left on device\n"},
		{"echo -n", []string{"echo -n"}, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			c := &cli{stdout: full, stderr: &stderr}
			code := c.run(tt.args)
			if code != tt.code || !strings.HasPrefix(stderr.String(), tt.stderr) || (tt.stderr == "") != (stderr.Len() == 0) {
				t.Errorf("status %d stderr %q; want %d and %q", code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}
