package docs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

// An exchange is one block of mcp.md made of "→ REQUEST" and "← RESPONSE"
// lines: JSON-RPC messages as the server reads and writes them, a
// response's continuation lines indented below it. Documented responses
// are abridged: "…" in a string stands for any text, […] for any array,
// a "…" member for the members left out; an object lists only some of
// the members the server sends. The session starts in /src/app, which
// the test maps to a directory of its own; durations compare as any
// duration.
type exchange struct {
	line  int
	setup [][]string
	calls []call
}

type call struct{ request, response string }

// TestMCPExchanges replays every exchange of mcp.md against `chainrun
// mcp` built from this checkout, one session per block, in a directory
// laid out by the block's comments, and compares each response with the
// page's. A job_output whose output is not all there yet is read again.
func TestMCPExchanges(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the exchanges run POSIX commands")
	}
	if testing.Short() {
		t.Skip("builds chainrun and chainrun-mcp")
	}
	bin := buildChainrun(t, "../cmd/chainrun-mcp")
	exchanges := mcpExchanges(t, readFile(t, "mcp.md"))
	if len(exchanges) == 0 {
		t.Fatal("mcp.md has no exchange")
	}
	for _, ex := range exchanges {
		t.Run(fmt.Sprintf("mcp.md:%d", ex.line), func(t *testing.T) {
			dir := testprog.TempDir(t)
			if !prepare(t, dir, ex.setup) {
				t.Skip("the page says: not run")
			}
			s := startSession(t, filepath.Join(bin, "chainrun"), dir)
			for i, c := range ex.calls {
				s.check(t, i+1, c, dir)
			}
		})
	}
}

// mcpExchanges reads the exchanges of page.
func mcpExchanges(t *testing.T, page string) []exchange {
	lines := strings.Split(page, "\n")
	var out []exchange
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```" || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "→ {") {
			continue
		}
		ex := exchange{line: i + 2}
		for j := i - 1; j >= 0 && strings.HasPrefix(lines[j], "<!-- "); j-- {
			if m := setupLine.FindStringSubmatch(lines[j]); m != nil {
				ex.setup = append(ex.setup, m[1:])
			}
		}
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			switch l := lines[i]; {
			case strings.HasPrefix(l, "→ "):
				ex.calls = append(ex.calls, call{request: strings.TrimPrefix(l, "→ ")})
			case strings.HasPrefix(l, "← ") && len(ex.calls) > 0:
				ex.calls[len(ex.calls)-1].response = strings.TrimPrefix(l, "← ")
			case len(ex.calls) > 0:
				ex.calls[len(ex.calls)-1].response += strings.TrimSpace(l)
			}
		}
		out = append(out, ex)
	}
	return out
}

// session is one connection to a server over its stdin and stdout.
type session struct {
	in  io.Writer
	out *bufio.Scanner
	id  int
}

func startSession(t *testing.T, chainrun, dir string) *session {
	cmd := exec.Command(chainrun, "mcp", "--dir", dir, "--dialect", "posix")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	t.Cleanup(func() { in.Close(); cmd.Wait(); stop.Stop() })
	s := &session{in: in, out: bufio.NewScanner(out)}
	s.out.Buffer(nil, 1<<20)
	s.roundTrip(t, `{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"docs","version":"0"}}}`)
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return s
}

// roundTrip sends a request (the page's, given an id) and returns the
// response to it, skipping notifications.
func (s *session) roundTrip(t *testing.T, request string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(request), &m); err != nil {
		t.Fatalf("the page's request is no JSON: %v\n%s", err, request)
	}
	s.id++
	m["jsonrpc"], m["id"] = "2.0", s.id
	b, _ := json.Marshal(m)
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	for s.out.Scan() {
		var r map[string]any
		if err := json.Unmarshal(s.out.Bytes(), &r); err != nil {
			t.Fatalf("the server wrote no JSON: %q", s.out.Text())
		}
		if r["method"] == nil && r["id"] == float64(s.id) {
			return r
		}
	}
	t.Fatalf("no response to %s: %v", request, s.out.Err())
	return nil
}

// check makes call n and compares its response with the page's.
func (s *session) check(t *testing.T, n int, c call, dir string) {
	t.Helper()
	want, err := abridged(strings.ReplaceAll(c.response, "/src/app", filepath.ToSlash(dir)))
	if err != nil {
		t.Fatalf("call %d: the page's response does not read as abridged JSON: %v\n%s", n, err, c.response)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		got := s.roundTrip(t, c.request)
		diff := matches("", want, got)
		if diff == "" {
			return
		}
		if !strings.Contains(c.request, `"job_output"`) || time.Now().After(deadline) {
			b, _ := json.Marshal(got)
			t.Fatalf("call %d %s:\n%s\nthe server answered\n%s", n, c.request, diff, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// anyArray stands for […] once the page's response is read.
const anyArray = "\x00any array"

// abridged reads a documented response: […] becomes anyArray, a "…"
// member is dropped (every object may hold more members than listed).
func abridged(doc string) (any, error) {
	doc = strings.ReplaceAll(doc, "[…]", `"`+`\u0000any array"`)
	doc = strings.ReplaceAll(doc, ",…}", "}")
	var v any
	err := json.Unmarshal([]byte(doc), &v)
	return v, err
}

var anyDuration = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|ms|s)\b`)

// matches says where got differs from the documented want, or "".
func matches(at string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", at, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s: no %q", at, k)
			}
			if d := matches(at+"."+k, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %d elements, got %v", at, len(w), got)
		}
		for i := range w {
			if d := matches(fmt.Sprintf("%s[%d]", at, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	case string:
		if w == anyArray {
			if _, ok := got.([]any); !ok {
				return fmt.Sprintf("%s: want an array, got %v", at, got)
			}
			return ""
		}
		g, ok := got.(string)
		if !ok || !elided(anyDuration.ReplaceAllString(w, "D"), anyDuration.ReplaceAllString(g, "D")) {
			return fmt.Sprintf("%s: want %q, got %q", at, w, got)
		}
		return ""
	}
	if fmt.Sprint(want) != fmt.Sprint(got) {
		return fmt.Sprintf("%s: want %v, got %v", at, want, got)
	}
	return ""
}

// elided reports whether got is want with each "…" standing for any text.
func elided(want, got string) bool {
	parts := strings.Split(want, "…")
	if len(parts) == 1 {
		return want == got
	}
	first, last := parts[0], parts[len(parts)-1]
	if len(got) < len(first)+len(last) || !strings.HasPrefix(got, first) || !strings.HasSuffix(got, last) {
		return false
	}
	got = got[len(first) : len(got)-len(last)]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(got, p)
		if i < 0 {
			return false
		}
		got = got[i+len(p):]
	}
	return true
}
