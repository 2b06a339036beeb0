package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cancelFilter keeps the server from answering a request the client has
// canceled. The SDK cancels the handler's context on
// notifications/cancelled, which stops the chain's whole tree, but it
// still writes the handler's response; the spec says a canceled request
// gets none, and clients log one as a response to an unknown request.
type cancelFilter struct {
	t mcp.Transport
}

// Connect implements mcp.Transport.
func (f *cancelFilter) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := f.t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &filterConn{Connection: conn, inFlight: map[string]bool{}, canceled: map[string]bool{}}, nil
}

// filterConn tracks the client's requests in flight and drops the
// response to one that was canceled while in flight. A cancellation that
// arrives after the response is ignored, as the spec allows.
type filterConn struct {
	mcp.Connection
	mu       sync.Mutex
	inFlight map[string]bool
	canceled map[string]bool
}

func (c *filterConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		c.mu.Lock()
		switch {
		case req.IsCall():
			c.inFlight[idKey(req.ID.Raw())] = true
		case req.Method == "notifications/cancelled":
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(req.Params, &p) == nil {
				if k := idKey(p.RequestID); c.inFlight[k] {
					c.canceled[k] = true
				}
			}
		}
		c.mu.Unlock()
	}
	return msg, err
}

func (c *filterConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		k := idKey(resp.ID.Raw())
		c.mu.Lock()
		drop := c.canceled[k]
		delete(c.inFlight, k)
		delete(c.canceled, k)
		c.mu.Unlock()
		if drop {
			return nil
		}
	}
	return c.Connection.Write(ctx, msg)
}

// idKey makes request ids comparable whichever Go type decoding gave a
// number (int64 from the SDK's reader, float64 from encoding/json).
func idKey(id any) string {
	switch v := id.(type) {
	case string:
		return "s" + v
	case float64:
		return fmt.Sprintf("n%d", int64(v))
	}
	return fmt.Sprintf("n%v", id)
}
