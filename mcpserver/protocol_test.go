package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressLog collects the progress notifications a client receives.
type progressLog struct {
	mu    sync.Mutex
	got   []*mcp.ProgressNotificationParams
	three chan struct{} // closed at the third notification
	once  sync.Once
}

func (p *progressLog) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = append(p.got, req.Params)
	if len(p.got) >= 3 {
		p.once.Do(func() { close(p.three) })
	}
}

func (p *progressLog) list() []*mcp.ProgressNotificationParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), p.got...)
}

// TestProgress: with a progress token the server reports while the chain
// runs, with increasing values and the last output line as message, and
// nothing once the result is sent; without a token it sends nothing.
func TestProgress(t *testing.T) {
	flag := filepath.Join(testprog.TempDir(t), "flag")
	log := &progressLog{three: make(chan struct{})}
	c := connect(t, Config{ProgressEvery: 20 * time.Millisecond}, &mcp.ClientOptions{ProgressNotificationHandler: log.handle}, "")
	go func() {
		<-log.three
		os.WriteFile(flag, nil, 0o644)
	}()
	params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "lines 2 && wait-for " + quote(flag)}}
	params.SetProgressToken("tok-1")
	res, err := c.cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	got := log.list()
	if len(got) < 3 {
		t.Fatalf("%d notifications, want at least 3", len(got))
	}
	for i, p := range got {
		if p.ProgressToken != "tok-1" || (i > 0 && p.Progress <= got[i-1].Progress) {
			t.Errorf("notification %d: token %v progress %v after %v", i, p.ProgressToken, p.Progress, got[max(i-1, 0)].Progress)
		}
	}
	if last := got[len(got)-1].Message; last != "2" {
		t.Errorf("message %q, want the last output line %q", last, "2")
	}
	// A round trip after the result: a notification sent after it would
	// have arrived before this answer.
	c.call("run", map[string]any{"command": "true"}, nil)
	if n := len(log.list()); n != len(got) {
		t.Errorf("%d notifications after the result", n-len(got))
	}

	t.Run("no token, no progress", func(t *testing.T) {
		flag := filepath.Join(testprog.TempDir(t), "flag")
		time.AfterFunc(200*time.Millisecond, func() { os.WriteFile(flag, nil, 0o644) })
		before := len(log.list())
		c.call("run", map[string]any{"command": "lines 1 && wait-for " + quote(flag)}, nil)
		if n := len(log.list()); n != before {
			t.Errorf("%d notifications without a token", n-before)
		}
	})
}

// TestLastLine: the progress message is the last non-empty line, bounded.
func TestLastLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"nothing", nil, ""},
		{"one line", []string{"a\n"}, "a"},
		{"the line being written wins", []string{"a\nbuil", "ding"}, "building"},
		{"blank lines skipped", []string{"a\n\n  \n"}, "a"},
		{"carriage returns trimmed", []string{"50%\r\n"}, "50%"},
		{"long lines bounded", []string{strings.Repeat("x", 500) + "\n"}, strings.Repeat("x", maxLine)},
		{"split across writes", []string{"ab", "c\nd", "e\n"}, "de"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &lastLine{}
			for _, w := range tc.writes {
				l.Write([]byte(w))
			}
			if got := l.String(); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}

// recorder wraps the client's transport and records what crosses it.
type recorder struct {
	t         mcp.Transport
	mu        sync.Mutex
	calls     []string // ids of the tools/call requests sent, in order
	responses map[string]bool
}

func (r *recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := r.t.Connect(ctx)
	return &recConn{Connection: conn, r: r}, err
}

type recConn struct {
	mcp.Connection
	r *recorder
}

func (c *recConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.r.mu.Lock()
		c.r.responses[idKey(resp.ID.Raw())] = true
		c.r.mu.Unlock()
	}
	return msg, err
}

func (c *recConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" {
		c.r.mu.Lock()
		c.r.calls = append(c.r.calls, idKey(req.ID.Raw()))
		c.r.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// TestCancel: notifications/cancelled stops the chain's whole tree, a
// grandchild included, within the grace period and a second, and no
// response is sent for the canceled request.
func TestCancel(t *testing.T) {
	dir := testprog.TempDir(t)
	srv, err := New(Config{Dir: dir, Env: testEnv(), Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), st) }()
	rec := &recorder{t: ct, responses: map[string]bool{}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); <-done }()

	pidFile, spawned := filepath.Join(dir, "pids"), filepath.Join(dir, "spawned")
	ctx, cancel := context.WithCancel(context.Background())
	called := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{
			"command": "hang " + quote(pidFile) + " | spawn > " + quote(spawned)}})
		called <- err
	}()
	pids := append(pidsIn(t, pidFile, 1), pidsIn(t, spawned, 2)...)
	cancel()
	if err := <-called; err == nil {
		t.Error("the canceled call returned a result")
	}
	gone(t, pids, 300*time.Millisecond+time.Second)
	// A second call's answer comes after anything the first could get.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "true"}}); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.calls) != 2 || rec.responses[rec.calls[0]] || !rec.responses[rec.calls[1]] {
		t.Errorf("calls %v, responses %v: want an answer to the second only", rec.calls, rec.responses)
	}
}

// TestClientVanishes: a client that disconnects in the middle of a call
// ends its session; everything it started is stopped, whole tree, and
// Serve returns.
func TestClientVanishes(t *testing.T) {
	dir := testprog.TempDir(t)
	pidFile := filepath.Join(dir, "pids")
	c := connect(t, Config{Dir: dir, Grace: 300 * time.Millisecond}, nil, "")
	c.startJob("hang "+quote(pidFile), nil)
	go c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{
		"command": "hang " + quote(pidFile) + " | spawn"}})
	pids := pidsIn(t, pidFile, 2)
	c.vanish()
	gone(t, pids, 300*time.Millisecond+time.Second)
}

// TestIDKey: request ids compare whatever type decoding gave them.
func TestIDKey(t *testing.T) {
	for _, tc := range []struct {
		a, b any
		same bool
	}{
		{int64(7), float64(7), true},
		{"7", float64(7), false},
		{"a", "a", true},
		{int64(1), int64(2), false},
	} {
		t.Run(fmt.Sprintf("%T %v vs %T %v", tc.a, tc.a, tc.b, tc.b), func(t *testing.T) {
			if got := idKey(tc.a) == idKey(tc.b); got != tc.same {
				t.Errorf("same %v, want %v", got, tc.same)
			}
		})
	}
}
