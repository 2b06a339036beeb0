package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/engine"
)

// progress sends notifications/progress while a chain runs, when the
// request carries a progress token: clients reset their idle timeouts on
// them (a build that prints nothing for a minute is not a dead server),
// and show the message, the chain's last output line. The value is the
// seconds elapsed, so it always increases. stop returns once no
// notification can be sent any more, so none follows the result.
func (s *session) progress(ctx context.Context, req *mcp.CallToolRequest, opts *engine.Options) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil {
		return func() {}
	}
	tail := &lastLine{}
	opts.Stdout, opts.Stderr = teeTo(opts.Stdout, tail), teeTo(opts.Stderr, tail)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(s.srv.cfg.ProgressEvery)
		defer tick.Stop()
		start := time.Now()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				elapsed := time.Since(start)
				msg := tail.String()
				if msg == "" {
					msg = fmt.Sprintf("running for %s", elapsed.Round(time.Second))
				}
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: elapsed.Seconds(), Message: msg,
				})
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// teeTo adds w to an optional live writer.
func teeTo(live, w io.Writer) io.Writer {
	if live == nil {
		return w
	}
	return io.MultiWriter(live, w)
}

// maxLine bounds what lastLine keeps of a line.
const maxLine = 200

// lastLine keeps the last non-empty line written to it, at most maxLine
// bytes of it, whatever is written: the message of a progress
// notification. Stdout and stderr write to it concurrently.
type lastLine struct {
	mu   sync.Mutex
	cur  []byte // the line being written
	last []byte // the last complete non-empty line
}

func (l *lastLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.add(p)
			break
		}
		l.add(p[:i])
		if len(bytes.TrimSpace(l.cur)) > 0 {
			l.last = append(l.last[:0], l.cur...)
		}
		l.cur = l.cur[:0]
		p = p[i+1:]
	}
	return n, nil
}

// add appends to the current line up to maxLine bytes.
func (l *lastLine) add(p []byte) {
	if room := maxLine - len(l.cur); room > 0 {
		l.cur = append(l.cur, p[:min(room, len(p))]...)
	}
}

// String is the line being written if it has text, else the last one.
func (l *lastLine) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := l.cur
	if len(bytes.TrimSpace(line)) == 0 {
		line = l.last
	}
	return strings.ToValidUTF8(strings.TrimSpace(string(line)), "\uFFFD")
}
