//go:build !windows

package report

import (
	"testing"

	"github.com/chainrun/chainrun/engine"
)

// TestOutputText: outside Windows the captures are the programs' bytes,
// named by no encoding; invalid UTF-8 is replaced byte by byte and
// flagged.
func TestOutputText(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		invalid   bool
	}{
		{"", "", false},
		{"héllo ✓\n", "héllo ✓\n", false},
		{"a\xffb", "a\uFFFDb", true},
		{"\xe2\x9c", "\uFFFD\uFFFD", true},
		{"<&>\n", "<&>\n", false},
	} {
		r := FromResult(&engine.Result{Stdout: []byte(tc.raw), Stderr: []byte(tc.raw)}, nil)
		if r.Stdout != tc.want || r.StdoutInvalidUTF8 != tc.invalid || r.StdoutEncoding != "" {
			t.Errorf("stdout %q: %q invalid=%v encoding=%q", tc.raw, r.Stdout, r.StdoutInvalidUTF8, r.StdoutEncoding)
		}
		if r.Stderr != tc.want || r.StderrInvalidUTF8 != tc.invalid || r.StderrEncoding != "" {
			t.Errorf("stderr %q: %q invalid=%v encoding=%q", tc.raw, r.Stderr, r.StderrInvalidUTF8, r.StderrEncoding)
		}
	}
}
