package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP server's own framing, on standard input and output and over HTTP. The SDK's
// transports end the session on a message they cannot decode (a plain-text line, a JSON
// array, a wrong "jsonrpc", an object as id, a line over their limit) and read a line
// that stops short as the start of the next one. Quarry reads the messages itself: on
// stdio a message is one line (a line that is not valid JSON is a parse error, and the
// next line is served); a message is at most MaxMessageBytes; each malformed one is
// answered with the JSON-RPC error (-32700 parse error for text that is not JSON, -32600
// invalid request for JSON of the wrong shape), with the request's id when it has a
// valid one, and the server goes on serving. Well-formed messages reach the SDK as they
// came, so the protocol of well-formed traffic is the SDK's.

// MaxMessageBytes bounds one JSON-RPC message: a line on stdio, a request body over
// HTTP. A longer one is refused with a JSON-RPC error (HTTP status 413 over HTTP) and
// the server goes on with the next.
const MaxMessageBytes = 4 << 20

// maxDrainBytes bounds how much of an HTTP body over MaxMessageBytes is read and thrown
// away before the 413 is sent, so that a client still sending reads the answer rather
// than a connection reset.
const maxDrainBytes = 64 << 20

// maxIDInteger is the largest integer id taken: larger ones lose digits as JSON numbers
// in many clients (2^53, JavaScript's largest safe integer).
const maxIDInteger = 1 << 53

// readBufferBytes is the size of the buffer stdio lines are read through.
const readBufferBytes = 64 << 10

// nullID is the id of an error answer to a message whose id could not be read.
var nullID = json.RawMessage("null")

// rpcFault is a JSON-RPC error answer to a malformed message.
type rpcFault struct {
	id      json.RawMessage // the message's id, or nullID
	code    int
	message string
}

// wire is f as a JSON-RPC response, without a newline.
func (f *rpcFault) wire() []byte {
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", f.id, jsonrpc.Error{Code: int64(f.code), Message: f.message}})
	if err != nil { // a string and an int: cannot fail
		panic(fmt.Errorf("tools: JSON-RPC error answer: %w", err))
	}
	return b
}

func parseFault(format string, args ...any) *rpcFault {
	return &rpcFault{id: nullID, code: jsonrpc.CodeParseError, message: "parse error: " + fmt.Sprintf(format, args...)}
}

func invalidFault(id json.RawMessage, format string, args ...any) *rpcFault {
	return &rpcFault{id: id, code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + fmt.Sprintf(format, args...)}
}

// tooLargeFault answers a message over MaxMessageBytes whose first bytes are prefix: with
// its id when a top-level "id" stands in them, so that the client's request resolves.
func tooLargeFault(unit string, prefix []byte) *rpcFault {
	return invalidFault(leadingID(prefix), "message larger than %d bytes (%d MiB); send at most %d MiB as %s",
		MaxMessageBytes, MaxMessageBytes>>20, MaxMessageBytes>>20, unit)
}

// leadingID returns the id of the JSON-RPC message b starts with, read as far as b goes (b
// may be cut): a top-level "id" whose value is a string or a number, before the cut; nullID
// when there is none.
func leadingID(b []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nullID
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nullID
		}
		if key, _ := t.(string); key == "id" {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil || len(raw) == 0 {
				return nullID
			}
			if raw[0] == '"' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
				return raw
			}
			return nullID
		}
		var skip json.RawMessage // another member's value, read whole
		if dec.Decode(&skip) != nil {
			return nullID
		}
	}
	return nullID
}

// utf8BOM is the byte order mark some Windows tools put before UTF-8 text.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decodeMessage returns the JSON-RPC message b holds, or the error answer that says what
// is wrong with it; unit names what carries one message ("one line", "one request body").
func decodeMessage(b []byte, unit string) (jsonrpc.Message, *rpcFault) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return nil, parseFault("empty message; send one JSON-RPC 2.0 object as %s", unit)
	case bytes.HasPrefix(b, utf8BOM):
		return nil, parseFault("the message starts with a byte order mark (U+FEFF); send UTF-8 JSON without one")
	case !utf8.Valid(b):
		return nil, parseFault("invalid UTF-8 at byte %d; JSON-RPC messages are UTF-8 text", invalidUTF8At(b))
	}
	var raw json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, parseFault("invalid JSON at byte %d: %v; send one JSON-RPC 2.0 object as %s", se.Offset, se, unit)
		}
		return nil, parseFault("invalid JSON: %v; send one JSON-RPC 2.0 object as %s", err, unit)
	}
	if b[0] == '[' {
		if bytes.Equal(bytes.Join(bytes.Fields(b), nil), []byte("[]")) {
			return nil, invalidFault(nullID, "an empty JSON array; send one JSON-RPC 2.0 object as %s", unit)
		}
		return nil, invalidFault(nullID, "a JSON array (a batch) is not taken; send one JSON-RPC 2.0 object as %s", unit)
	}
	if b[0] != '{' {
		return nil, invalidFault(nullID, "a JSON-RPC message is a JSON object, not %s; send one JSON-RPC 2.0 object as %s", valueKind(b), unit)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, invalidFault(nullID, "%v", err)
	}
	id, f := checkID(fields)
	if f != nil {
		return nil, f
	}
	if f := checkShape(fields, id); f != nil {
		return nil, f
	}
	msg, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		return nil, invalidFault(id, "%v", err)
	}
	return msg, nil
}

// checkID returns the id of a message (nullID when it has none), or the error answer when
// its id is not a string or an integer.
func checkID(fields map[string]json.RawMessage) (json.RawMessage, *rpcFault) {
	raw, ok := fields["id"]
	if !ok {
		return nullID, nil
	}
	switch raw[0] {
	case '"':
		return raw, nil
	case 'n':
		return nil, invalidFault(nullID, `"id" is null; give a request a string or integer id, or leave "id" out of a notification`)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || n != math.Trunc(n) || math.Abs(n) > maxIDInteger {
			return nil, invalidFault(nullID, `"id" %s is not an integer between -2^53 and 2^53; give a string or such an integer`, raw)
		}
		return raw, nil
	}
	return nil, invalidFault(nullID, `"id" is %s; it must be a string or an integer`, valueKind(raw))
}

// checkShape returns the error answer when a message with the valid id (nullID: none) is
// neither a JSON-RPC 2.0 request or notification nor a response.
func checkShape(fields map[string]json.RawMessage, id json.RawMessage) *rpcFault {
	version, ok := fields["jsonrpc"]
	if !ok {
		return invalidFault(id, `"jsonrpc" is missing; it must be "2.0"`)
	}
	if string(version) != `"2.0"` {
		return invalidFault(id, `"jsonrpc" is %s; it must be "2.0"`, version)
	}
	if method, ok := fields["method"]; ok {
		if method[0] != '"' {
			return invalidFault(id, `"method" is %s; it must be a string, like "tools/list"`, valueKind(method))
		}
		if params, ok := fields["params"]; ok && params[0] != '{' && string(params) != "null" {
			return invalidFault(id, `"params" is %s; it must be an object, or left out`, valueKind(params))
		}
		return nil
	}
	_, result := fields["result"]
	_, failed := fields["error"]
	switch {
	case !result && !failed:
		return invalidFault(id, `no "method" (a request or a notification) and no "result" or "error" (a response); a request is {"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	case bytes.Equal(id, nullID):
		return invalidFault(id, `a response without an "id"; a response carries the id of the request it answers`)
	}
	return nil
}

// valueKind names the kind of the JSON value raw, with an article: "an object".
func valueKind(raw []byte) string {
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// invalidUTF8At returns the offset of the first byte of b that is not valid UTF-8.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// lineTransport is an mcp.Transport of newline-delimited JSON-RPC on in and out, one
// message a line, that answers malformed lines itself (see the top of this file).
type lineTransport struct {
	in  io.Reader
	out io.Writer
}

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{out: t.out, incoming: make(chan lineRead), closed: make(chan struct{})}
	go c.readLoop(t.in)
	return c, nil
}

// lineRead is a message read, or the error that ended the input.
type lineRead struct {
	msg jsonrpc.Message
	err error
}

// lineConn is the connection of a lineTransport. One mutex orders every write on out, the
// SDK's answers and the error answers alike, so that no two lines interleave.
type lineConn struct {
	writeMu   sync.Mutex
	out       io.Writer
	incoming  chan lineRead
	closed    chan struct{}
	closeOnce sync.Once
}

// readLoop reads in line by line, answers the malformed lines and hands the others to
// Read, until in ends or the connection is closed.
func (c *lineConn) readLoop(in io.Reader) {
	r := bufio.NewReaderSize(in, readBufferBytes)
	for {
		line, tooLong, err := readMessageLine(r)
		var msg jsonrpc.Message
		var werr error
		switch {
		case tooLong:
			werr = c.writeLine(tooLargeFault("one line", line).wire())
		case len(bytes.TrimSpace(line)) > 0:
			msg, werr = c.decode(line)
		}
		if msg != nil && !c.deliver(lineRead{msg: msg}) {
			return
		}
		if werr != nil {
			err = werr
		}
		if err != nil {
			c.deliver(lineRead{err: err})
			return
		}
	}
}

// deliver hands next to Read; false when the connection was closed first.
func (c *lineConn) deliver(next lineRead) bool {
	select {
	case c.incoming <- next:
		return true
	case <-c.closed:
		return false
	}
}

// decode returns the message of line; a malformed line is answered here, and is no message.
func (c *lineConn) decode(line []byte) (jsonrpc.Message, error) {
	msg, f := decodeMessage(line, "one line")
	if f != nil {
		return nil, c.writeLine(f.wire())
	}
	return msg, nil
}

// readMessageLine returns the next line of r without its line end, or tooLong when it is longer
// than MaxMessageBytes (read to its end and dropped: line is then its first bytes, at most
// maxLeadBytes, where its id may be read). err is io.EOF after the last line.
func readMessageLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxMessageBytes+len("\r\n") {
				tooLong, line = true, lead(append(line, chunk...))
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return line, true, err
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) > MaxMessageBytes {
			tooLong, line = true, lead(line)
		}
		return line, tooLong, err
	}
}

// maxLeadBytes is how much of a message too large to serve is kept to read its id from.
const maxLeadBytes = 64 << 10

// lead returns a copy of b's first maxLeadBytes at most.
func lead(b []byte) []byte { return bytes.Clone(b[:min(len(b), maxLeadBytes)]) }

// writeLine writes b and a newline on out, alone.
func (c *lineConn) writeLine(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case next := <-c.incoming:
		return next.msg, next.err
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("tools: MCP: encoding a message: %w", err)
	}
	return c.writeLine(b)
}

// Close implements mcp.Connection. It leaves in and out open: they are the caller's.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: a stdio connection has none.
func (c *lineConn) SessionID() string { return "" }

// checkMessages wraps the streamable HTTP handler h (behind HTTPAccess.Guard, so a request
// for a foreign Host is refused before its body is read): a POST body over MaxMessageBytes is
// answered with 413 and a JSON-RPC error, a malformed one with 400 and a JSON-RPC error;
// a well-formed one reaches h as it came.
func checkMessages(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxMessageBytes+1))
		if err != nil {
			writeFault(w, http.StatusBadRequest, parseFault("reading the request body: %v", err))
			return
		}
		if len(body) > MaxMessageBytes {
			_, _ = io.CopyN(io.Discard, r.Body, maxDrainBytes)
			writeFault(w, http.StatusRequestEntityTooLarge, tooLargeFault("one request body", lead(body)))
			return
		}
		msg, f := decodeMessage(body, "one request body")
		if f != nil {
			writeFault(w, http.StatusBadRequest, f)
			return
		}
		// A request before a session (the SDK would answer 200 with error code 0): 400 and
		// a JSON-RPC invalid request that says what to send first.
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method != "initialize" && r.Header.Get("Mcp-Session-Id") == "" {
			writeFault(w, http.StatusBadRequest, invalidFault(messageID(body), "no session: send initialize first, then give the Mcp-Session-Id header it answers with on every request (method %q came without one)", req.Method))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		fw := &faultWriter{ResponseWriter: w, id: messageID(body)}
		h.ServeHTTP(fw, r)
		fw.finish()
	})
}

// MCPAt serves h at the paths given only: any other path is answered 404, with a JSON-RPC
// error naming where the endpoint is, rather than as if it were the endpoint.
func MCPAt(h http.Handler, paths ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(paths, r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		writeFault(w, http.StatusNotFound, invalidFault(nullID, "no MCP endpoint at %s: it is at %s", r.URL.Path, strings.Join(paths, " and ")))
	})
}

// messageID returns the id of the well-formed message b, or nullID.
func messageID(b []byte) json.RawMessage {
	var m struct{ ID json.RawMessage }
	if json.Unmarshal(b, &m) != nil || m.ID == nil {
		return nullID
	}
	return m.ID
}

// faultWriter turns the SDK's plain-text 400 answers (a method it does not handle, params
// it cannot read) into JSON-RPC errors with the request's id: -32601 method not found for
// an unhandled method, -32600 invalid request otherwise.
type faultWriter struct {
	http.ResponseWriter
	id      json.RawMessage
	holding bool // a plain-text 400 is being written
	text    bytes.Buffer
}

func (w *faultWriter) WriteHeader(status int) {
	if status == http.StatusBadRequest && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.holding = true
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *faultWriter) Write(b []byte) (int, error) {
	if w.holding {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush passes a flush on to the connection, as the event streams need.
func (w *faultWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.holding {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *faultWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the JSON-RPC error of a plain-text 400 held back.
func (w *faultWriter) finish() {
	if !w.holding {
		return
	}
	msg := strings.TrimSpace(w.text.String())
	f := &rpcFault{id: w.id, code: jsonrpc.CodeInvalidRequest, message: msg}
	if !strings.HasPrefix(msg, "invalid request") {
		f.message = "invalid request: " + msg
	}
	if strings.Contains(msg, "not handled") {
		f = &rpcFault{id: w.id, code: jsonrpc.CodeMethodNotFound, message: "method not found: " + msg}
	}
	w.Header().Del("X-Content-Type-Options")
	writeFault(w.ResponseWriter, http.StatusBadRequest, f)
}

// writeFault answers an HTTP request with status and the JSON-RPC error f.
func writeFault(w http.ResponseWriter, status int, f *rpcFault) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(f.wire())
}
