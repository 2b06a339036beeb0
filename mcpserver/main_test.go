package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestMain lets the test binary be the programs the tests' chains run
// (hang, spawn, lines, cat-stdin, …), found through PATH in testEnv.
func TestMain(m *testing.M) {
	testprog.Register("wait-for", waitFor)
	testprog.Register("make-file", makeFile)
	testprog.Main(removeBuilt{m})
}

// removeBuilt runs the tests, then removes the chainrun binary they
// built, if any.
type removeBuilt struct{ m *testing.M }

func (r removeBuilt) Run() int {
	code := r.m.Run()
	if built.path != "" {
		os.RemoveAll(filepath.Dir(built.path))
	}
	return code
}

// waitFor FILE exits 0 once FILE exists, 1 when it still does not after
// 20s: a chain that can only end when another call runs meanwhile.
func waitFor(args []string) int {
	for range 2000 {
		if _, err := os.Stat(args[0]); err == nil {
			return 0
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, "wait-for: gave up")
	return 1
}

// makeFile FILE creates FILE.
func makeFile(args []string) int {
	if err := os.WriteFile(args[0], nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// testEnv is the server's environment in tests: the test programs first
// in PATH.
func testEnv() []string {
	env := os.Environ()
	path, _ := environ.Host.Get(env, "PATH")
	return environ.Host.Set(env, "PATH", testprog.BinDir()+string(os.PathListSeparator)+path)
}

// client is one test's connection to a server session.
type client struct {
	t    *testing.T
	cs   *mcp.ClientSession
	raw  net.Conn   // the client's end of the connection
	done chan error // Serve's return
}

// connect serves one session over in-memory transports and connects a
// client speaking version ("" for the SDK's latest). The cleanup closes
// the client and checks that Serve returned, which means everything the
// session started has ended.
func connect(t *testing.T, cfg Config, opts *mcp.ClientOptions, version string) *client {
	t.Helper()
	if cfg.Env == nil {
		cfg.Env = testEnv()
	}
	if cfg.Dir == "" {
		cfg.Dir = testprog.TempDir(t)
	}
	if cfg.Dialect == "" {
		cfg.Dialect = chain.POSIX
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A pipe rather than mcp.NewInMemoryTransports, so vanish can cut it
	// as a dying client process would.
	sc, cc := net.Pipe()
	c := &client{t: t, done: make(chan error, 1), raw: cc}
	go func() { c.done <- srv.Serve(context.Background(), &mcp.IOTransport{Reader: sc, Writer: sc}) }()
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	c.cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, opts).Connect(context.Background(), &mcp.IOTransport{Reader: cc, Writer: cc}, so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	return c
}

// close disconnects as a client would, after its calls are answered,
// and waits for the session to end.
func (c *client) close() {
	c.cs.Close()
	c.wait()
}

// vanish cuts the connection as a client that dies does, calls in flight
// or not, and waits for the session to end.
func (c *client) vanish() {
	c.raw.Close()
	c.wait()
}

// wait checks that Serve returns (once per client).
func (c *client) wait() {
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("Serve: %v", err)
		}
		c.done <- nil
	case <-time.After(10 * time.Second):
		c.t.Error("Serve did not return 10s after the client disconnected")
	}
}

// call calls a tool and decodes its structured result into out.
func (c *client) call(name string, args map[string]any, out any) *mcp.CallToolResult {
	c.t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s %v: %v", name, args, err)
	}
	if out != nil && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s: structured content %s: %v", name, b, err)
		}
	}
	return res
}

// text is a result's text block.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// mkdirs makes directories under root.
func mkdirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// quote single-quotes a path for a POSIX-dialect command line.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// pidsIn reads the pids hang and spawn wrote to file, waiting up to 10s
// for at least n of them.
func pidsIn(t *testing.T, file string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var pids []int
		b, _ := os.ReadFile(file)
		for _, f := range strings.Fields(string(b)) {
			var pid int
			if _, err := fmt.Sscan(f, &pid); err == nil {
				pids = append(pids, pid)
			}
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d pids after 10s, want %d", file, len(pids), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// gone checks that every pid has ended within d.
func gone(t *testing.T, pids []int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d still runs %v later", pid, d)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
