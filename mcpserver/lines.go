package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio reader decodes the client's stream as one run of JSON
// values and ends the connection at the first that is not JSON, or not a
// JSON-RPC message, or an empty batch: the session and all its jobs would
// end with it. JSON-RPC answers such a message with an error and goes on,
// so lineTransport reads the client's lines first, answers a bad one
// itself (-32700 for a line that is not JSON, -32600 for JSON that is no
// message the SDK reads) and passes the SDK only the lines it reads.

// lineTransport is a newline-delimited JSON-RPC transport over r and w in
// which a bad line gets an error response and is skipped.
type lineTransport struct {
	r io.Reader
	w io.Writer
	// max bounds a line; a longer one is answered as invalid and skipped.
	max int
}

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	w := &lockedWriter{w: t.w}
	pr, pw := io.Pipe()
	g := &lineGuard{in: bufio.NewReader(t.r), out: w, pass: pw, max: t.max}
	go g.run()
	in := &guardedReader{PipeReader: pr, src: t.r}
	// The guard bounds lines; the SDK need not.
	return (&mcp.IOTransport{Reader: in, Writer: w, MaxLineLength: -1}).Connect(ctx)
}

// lockedWriter writes each message whole: the SDK's responses and the
// guard's error responses share the stream.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the stream open: it is the process's stdout, or the
// caller's.
func (l *lockedWriter) Close() error { return nil }

// guardedReader is what the SDK reads; closing it closes the client's
// stream too, so the guard's pending read ends where the stream allows.
type guardedReader struct {
	*io.PipeReader
	src io.Reader
}

func (g *guardedReader) Close() error {
	err := g.PipeReader.Close()
	if c, ok := g.src.(io.Closer); ok {
		err = errors.Join(err, c.Close())
	}
	return err
}

// lineGuard copies the client's good lines to pass and answers the bad
// ones on out.
type lineGuard struct {
	in   *bufio.Reader
	out  io.Writer
	pass *io.PipeWriter
	max  int
}

func (g *lineGuard) run() {
	for {
		line, tooLong, err := readLine(g.in, g.max)
		var resp []byte
		switch {
		case tooLong:
			resp = errorResponse(nil, jsonrpc.CodeInvalidRequest, "message longer than the server reads; skipped")
		case len(bytes.TrimSpace(line)) > 0:
			resp = badLine(line)
		}
		if resp != nil {
			if _, werr := g.out.Write(resp); werr != nil {
				g.pass.CloseWithError(werr)
				return
			}
		} else if len(line) > 0 {
			if _, perr := g.pass.Write(append(line, '\n')); perr != nil {
				return // the SDK closed its end
			}
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			g.pass.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line without its newline. A line longer than max
// (when max > 0) is read to its end and dropped: tooLong.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if max > 0 && len(line) > max+1 {
				line, tooLong = nil, true
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		return line, tooLong, err
	}
}

// badLine is the error response to a line the SDK would not read, or nil
// for a good line: a JSON-RPC message, or a batch of them (which older
// protocol versions allow) with no id twice.
func badLine(line []byte) []byte {
	if !json.Valid(line) {
		return errorResponse(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
	}
	if t := bytes.TrimSpace(line); t[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(t, &batch); err != nil {
			return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid batch: "+err.Error())
		}
		if len(batch) == 0 {
			return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: empty batch")
		}
		seen := map[jsonrpc.ID]bool{}
		for _, raw := range batch {
			msg, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request in batch: "+err.Error())
			}
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				if seen[req.ID] {
					return errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid batch: an id appears twice")
				}
				seen[req.ID] = true
			}
		}
		return nil
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorResponse(idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return nil
}

// idOf is the id of a message that is an object with a string or number
// id, for its error response; null otherwise.
func idOf(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// errorResponse is a JSON-RPC error response line; a nil id is null.
func errorResponse(id json.RawMessage, code int64, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg}})
	return append(b, '\n')
}
