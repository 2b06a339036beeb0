//go:build unix

package report

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/chainrun/chainrun/engine"
)

// TestResultJSON renders a real run: invalid UTF-8 replaced and flagged,
// every segment with its fields, durations in milliseconds.
func TestResultJSON(t *testing.T) {
	res, err := engine.RunString(context.Background(), `printf 'a\377b'; sleep 0.01`, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, FromResult(res, err)); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"exit_code", "timed_out", "stdout", "stderr", "stdout_omitted", "stderr_omitted", "duration_ms", "segments", "error"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing %q in %s", k, b.Bytes())
		}
	}
	if m["stdout"] != "a\uFFFDb" || m["stdout_invalid_utf8"] != true {
		t.Errorf("stdout %v flag %v", m["stdout"], m["stdout_invalid_utf8"])
	}
	seg := m["segments"].([]any)[1].(map[string]any)
	for _, k := range []string{"argv", "path", "exit_code", "signal", "skipped", "duration_ms"} {
		if _, ok := seg[k]; !ok {
			t.Errorf("segment lacks %q", k)
		}
	}
	if seg["duration_ms"].(float64) < 5 {
		t.Errorf("sleep duration %v", seg["duration_ms"])
	}
}
