//go:build windows

package report

import (
	"testing"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestOutputTextWindows: the report's text is what the engine's decoding
// hook (Result.DecodedStdout, DecodedStderr) makes of the capture, with
// the encoding it names; nothing here imitates the decoding.
func TestOutputTextWindows(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
		enc  string
	}{
		{"empty", nil, "", ""},
		{"utf-8", []byte("héllo ✓\n"), "héllo ✓\n", "utf-8"},
		{"utf-16le", testprog.UTF16LE("日本語.txt\r\n"), "日本語.txt\r\n", "utf-16le"},
		{"mixed", append([]byte("git ✓\n"), testprog.UTF16LE("dir ✓\r\n")...), "git ✓\ndir ✓\r\n", "mixed:utf-8+utf-16le"},
	} {
		res := &engine.Result{Stdout: tc.raw, Stderr: tc.raw}
		r := FromResult(res, nil)
		if r.Stdout != tc.want || r.StdoutEncoding != tc.enc || r.StdoutInvalidUTF8 {
			t.Errorf("%s: stdout %q encoding %q invalid %v", tc.name, r.Stdout, r.StdoutEncoding, r.StdoutInvalidUTF8)
		}
		if r.Stderr != tc.want || r.StderrEncoding != tc.enc {
			t.Errorf("%s: stderr %q encoding %q", tc.name, r.Stderr, r.StderrEncoding)
		}
		if text, enc := res.DecodedStdout(); string(text) != r.Stdout || enc != r.StdoutEncoding {
			t.Errorf("%s: the report differs from the hook: %q %q", tc.name, text, enc)
		}
	}
}
