package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestBadLine: what the guard answers, and what it passes to the SDK.
func TestBadLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		code int64  // 0: passed on
		id   string // the response's id, as JSON
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, 0, ""},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 0, ""},
		{`{not json`, -32700, "null"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`, -32700, "null"},
		{`[]`, -32600, "null"},
		{` [ ] `, -32600, "null"},
		{`[1]`, -32600, "null"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, "null"},
		{`42`, -32600, "null"},
		{`"x"`, -32600, "null"},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, -32600, "3"},
		{`{"jsonrpc":"2.0","id":"a","method":7}`, -32600, `"a"`},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","result":{}}`, -32600, "null"},
	} {
		resp := badLine([]byte(tc.line))
		if tc.code == 0 {
			if resp != nil {
				t.Errorf("%s: answered %s, want passed on", tc.line, resp)
			}
			continue
		}
		var got struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct{ Code int64 }
		}
		if err := json.Unmarshal(resp, &got); err != nil || got.JSONRPC != "2.0" || got.Error.Code != tc.code || string(got.ID) != tc.id {
			t.Errorf("%s: answered %s (%v), want code %d id %s", tc.line, resp, err, tc.code, tc.id)
		}
	}
}

// TestReadLine: lines are split at newlines, whatever their length; one
// longer than the bound is read to its end and dropped.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 5000)
	r := bufio.NewReaderSize(strings.NewReader("a\r\n"+long+"\n"+long[:100]+"\nend"), 16)
	var got []string
	for {
		line, tooLong, err := readLine(r, 1000)
		got = append(got, fmt.Sprintf("%d:%v", len(line), tooLong))
		if err != nil {
			break
		}
	}
	if want := "2:false 0:true 100:false 3:false"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

// rawClient speaks newline-delimited JSON-RPC, byte for byte, to a
// server's stdin and stdout.
type rawClient struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Scanner
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write %s: %v", line, err)
	}
}

// response reads messages until a response with id (as JSON) comes,
// skipping the server's notifications.
func (c *rawClient) response(id string) map[string]any {
	c.t.Helper()
	for c.out.Scan() {
		var m map[string]any
		if err := json.Unmarshal(c.out.Bytes(), &m); err != nil {
			c.t.Fatalf("the server wrote no JSON: %q", c.out.Text())
		}
		if got, _ := json.Marshal(m["id"]); m["method"] == nil && string(got) == id {
			return m
		}
	}
	c.t.Fatalf("no response with id %s: %v", id, c.out.Err())
	return nil
}

// toolResult calls a tool and returns its structured content.
func (c *rawClient) toolResult(id int, name string, args any) map[string]any {
	c.t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	c.send(string(b))
	m := c.response(fmt.Sprint(id))
	res, _ := m["result"].(map[string]any)
	sc, _ := res["structuredContent"].(map[string]any)
	if sc == nil {
		c.t.Fatalf("%s: no structured result: %v", name, m)
	}
	return sc
}

// TestStdioBadLines sends the built chainrun mcp, over real pipes, lines
// that are not JSON, an empty batch and JSON that is no message while a
// background job runs: each gets a JSON-RPC error, the session goes on,
// its job keeps running, and closing stdin still ends the server with 0.
func TestStdioBadLines(t *testing.T) {
	bin := chainrunBin(t, runtime.GOOS)
	dir := testprog.TempDir(t)
	cmd := exec.Command(bin, "mcp", "--dir", dir, "--dialect", "posix")
	cmd.Env = testEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A server that stops answering is ended, so the reads below fail
	// rather than wait for the test's own timeout.
	watchdog := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer watchdog.Stop()
	out := bufio.NewScanner(outPipe)
	out.Buffer(nil, 1<<20)
	c := &rawClient{t: t, in: in, out: out}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	c.response("1")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	flag := filepath.Join(dir, "flag")
	job, _ := c.toolResult(2, "run", map[string]any{"command": "wait-for " + quote(flag), "background": true})["job"].(string)
	if job == "" {
		t.Fatal("no job started")
	}
	for _, bad := range []struct {
		line string
		code float64
		id   string
	}{
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"`, -32700, "null"},
		{"\x00\xff garbage", -32700, "null"},
		{`[]`, -32600, "null"},
		{`{"jsonrpc":"1.0","id":4,"method":"tools/list"}`, -32600, "4"},
		{`17`, -32600, "null"},
	} {
		c.send(bad.line)
		m := c.response(bad.id)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != bad.code {
			t.Errorf("%q: answered %v, want code %v", bad.line, m, bad.code)
		}
	}
	if st := c.toolResult(5, "job_output", map[string]any{"job": job}); st["running"] != true {
		t.Errorf("the job no longer runs after the bad lines: %v", st)
	}
	if st := c.toolResult(6, "run", map[string]any{"command": "echo still here"}); st["stdout"] != "still here\n" {
		t.Errorf("run after the bad lines: %v", st)
	}
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("server exit: %v\nstderr: %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the server did not exit after its stdin closed\nstderr: %s", stderr.String())
	}
}

// FuzzBadLine: a line the guard passes on is one the SDK reads (a message,
// or a non-empty batch of them); one it answers gets a JSON-RPC error
// response, one line of JSON.
func FuzzBadLine(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[]`, `{`, `[{"jsonrpc":"2.0","method":"x"}]`, `7`, " \t", `{"jsonrpc":"2.0","id":null,"result":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsRune(line, '\n') || len(bytes.TrimSpace(line)) == 0 {
			return // the guard splits lines and skips blank ones before badLine
		}
		resp := badLine(line)
		if resp == nil {
			var batch []json.RawMessage
			if json.Unmarshal(line, &batch) == nil {
				if len(batch) == 0 {
					t.Fatalf("%q: an empty batch passed", line)
				}
				for _, m := range batch {
					if _, err := jsonrpc.DecodeMessage(m); err != nil {
						t.Fatalf("%q: passed a batch holding %s: %v", line, m, err)
					}
				}
			} else if _, err := jsonrpc.DecodeMessage(line); err != nil {
				t.Fatalf("%q: passed, but the SDK cannot read it: %v", line, err)
			}
			return
		}
		var r struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *jsonrpc.Error  `json:"error"`
		}
		if !bytes.HasSuffix(resp, []byte("\n")) || bytes.Count(resp, []byte("\n")) != 1 ||
			json.Unmarshal(resp, &r) != nil || r.JSONRPC != "2.0" || r.Error == nil || len(r.ID) == 0 {
			t.Fatalf("%q: answered %q", line, resp)
		}
	})
}
