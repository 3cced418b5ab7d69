package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// answerWait bounds how long a test waits for an answer the server owes: a guard against a
// hang, not a measure of speed.
const answerWait = 30 * time.Second

// malformedCase is a message a client may send by mistake, and what the server answers: a
// JSON-RPC error with code and id (raw JSON), or nothing (code 0) for a notification.
type malformedCase struct {
	name string
	msg  string
	code int
	id   string
	want string // in the error message
	// stdioOnly marks framing cases that exist only on a line-delimited stream.
	stdioOnly bool
	// httpCode, when not 0, is the code of the answer over HTTP, where a notification
	// the server does not take is answered too (with id null).
	httpCode int
}

func malformedCases() []malformedCase {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	return []malformedCase{
		{name: "plain text", msg: "hello server", code: -32700, id: "null", want: "invalid JSON at byte 1"},
		{name: "http header line", msg: "Content-Length: 52", code: -32700, id: "null", want: "parse error"},
		{name: "NUL bytes", msg: "\x00\x00\x00", code: -32700, id: "null", want: "parse error"},
		{name: "array batch", msg: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, code: -32600, id: "null", want: "batch"},
		{name: "empty array", msg: `[ ]`, code: -32600, id: "null", want: "empty JSON array"},
		{name: "array of numbers", msg: `[1,2,3]`, code: -32600, id: "null", want: "batch"},
		{name: "string", msg: `"tools/list"`, code: -32600, id: "null", want: "not a string"},
		{name: "number", msg: `42`, code: -32600, id: "null", want: "not a number"},
		{name: "null", msg: `null`, code: -32600, id: "null", want: "not null"},
		{name: "boolean", msg: `true`, code: -32600, id: "null", want: "not a boolean"},
		{name: "empty object", msg: `{}`, code: -32600, id: "null", want: `"jsonrpc" is missing`},
		{name: "jsonrpc 1.0", msg: `{"jsonrpc":"1.0","id":7,"method":"tools/list"}`, code: -32600, id: "7", want: `"jsonrpc" is "1.0"; it must be "2.0"`},
		{name: "jsonrpc as number", msg: `{"jsonrpc":2.0,"id":"n","method":"tools/list"}`, code: -32600, id: `"n"`, want: `"jsonrpc" is 2.0`},
		{name: "missing jsonrpc", msg: `{"id":"a","method":"tools/list"}`, code: -32600, id: `"a"`, want: `"jsonrpc" is missing`},
		{name: "object id", msg: `{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, code: -32600, id: "null", want: `"id" is an object`},
		{name: "array id", msg: `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, code: -32600, id: "null", want: `"id" is an array`},
		{name: "boolean id", msg: `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, code: -32600, id: "null", want: `"id" is a boolean`},
		{name: "null id", msg: `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, code: -32600, id: "null", want: `"id" is null`},
		{name: "fractional id", msg: `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, code: -32600, id: "null", want: "not an integer"},
		{name: "huge id", msg: `{"jsonrpc":"2.0","id":1e300,"method":"tools/list"}`, code: -32600, id: "null", want: "not an integer"},
		{name: "method a number", msg: `{"jsonrpc":"2.0","id":8,"method":42}`, code: -32600, id: "8", want: `"method" is a number`},
		{name: "method an object", msg: `{"jsonrpc":"2.0","id":9,"method":{"name":"tools/list"}}`, code: -32600, id: "9", want: `"method" is an object`},
		{name: "params a string", msg: `{"jsonrpc":"2.0","id":10,"method":"tools/list","params":"all"}`, code: -32600, id: "10", want: `"params" is a string`},
		{name: "params an array", msg: `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":["fast_search"]}`, code: -32600, id: "11", want: `"params" is an array`},
		{name: "notification with bad params", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}`, code: -32600, id: "null", want: `"params" is a number`},
		{name: "neither request nor response", msg: `{"jsonrpc":"2.0","id":12}`, code: -32600, id: "12", want: `no "method"`},
		{name: "response without id", msg: `{"jsonrpc":"2.0","result":{}}`, code: -32600, id: "null", want: `without an "id"`},
		{name: "response with a malformed error", msg: `{"jsonrpc":"2.0","id":13,"error":"boom"}`, code: -32600, id: "13", want: "invalid request"},
		{name: "unknown method", msg: `{"jsonrpc":"2.0","id":14,"method":"tools/destroy"}`, code: -32601, id: "14"},
		{name: "two objects on a line", msg: `{"jsonrpc":"2.0","id":15,"method":"tools/list"}{"jsonrpc":"2.0","id":16,"method":"tools/list"}`, code: -32700, id: "null", want: "invalid JSON"},
		{name: "trailing garbage", msg: `{"jsonrpc":"2.0","id":17,"method":"tools/list"} trailing`, code: -32700, id: "null", want: "invalid JSON"},
		{name: "truncated", msg: `{"jsonrpc":"2.0","id":18,"method":"tools/li`, code: -32700, id: "null", want: "invalid JSON"},
		{name: "invalid UTF-8", msg: "{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"tools/list\",\"params\":{\"q\":\"\xff\xfe\"}}", code: -32700, id: "null", want: "invalid UTF-8 at byte 62"},
		{name: "byte order mark", msg: "\uFEFF{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/list\"}", code: -32700, id: "null", want: "byte order mark"},
		{name: "control character in a string", msg: "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"tools/\x01list\"}", code: -32700, id: "null", want: "invalid JSON"},
		{name: "depth bomb", msg: deep, code: -32700, id: "null", want: "exceeded max depth"},
		{name: "depth bomb in params", msg: `{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"fast_search","arguments":{"query":` + deep + `}}}`, code: -32700, id: "null", want: "exceeded max depth"},
		{name: "huge message", msg: `{"jsonrpc":"2.0","id":23,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", MaxMessageBytes) + `"}}`, code: -32600, id: "23", want: "larger than 4194304 bytes"}, // the id read from its start (issue 41 c)
		{name: "notification method with an id", msg: `{"jsonrpc":"2.0","id":27,"method":"notifications/initialized"}`, code: -32600, id: "27", want: "unexpected id"},
		{name: "tools/call without params", msg: `{"jsonrpc":"2.0","id":28,"method":"tools/call"}`, code: -32600, id: "28", want: `missing required "params"`},
		{name: "tools/call with a number as name", msg: `{"jsonrpc":"2.0","id":29,"method":"tools/call","params":{"name":5}}`, code: -32602, id: "29"},
		{name: "request method without an id", msg: `{"jsonrpc":"2.0","method":"tools/list"}`, httpCode: -32600},
		{name: "unknown notification", msg: `{"jsonrpc":"2.0","method":"notifications/bogus"}`, httpCode: -32601},
		{name: "cancel with wrong params", msg: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"a":1}}}`},
		{name: "response to no request", msg: `{"jsonrpc":"2.0","id":"nobody-asked","result":{}}`},
		{name: "truncated, then a line on the same line", msg: `{"jsonrpc":"2.0","id":24,"method":"too` + `{"jsonrpc":"2.0","id":25,"method":"tools/list"}`, code: -32700, id: "null", want: "invalid JSON", stdioOnly: true},
		{name: "blank line", msg: " \t", stdioOnly: true},
		{name: "CRLF line end", msg: "{\"jsonrpc\":\"2.0\",\"id\":26,\"method\":\"tools/destroy\"}\r", code: -32601, id: "26", stdioOnly: true},
	}
}

// rpcAnswer is a JSON-RPC response as read by a test.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// checkAnswer reports what is wrong with the answer b to c, or "".
func checkAnswer(c malformedCase, b []byte) string {
	var a rpcAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Sprintf("answer is not JSON: %v: %.200s", err, b)
	}
	switch {
	case a.JSONRPC != "2.0":
		return fmt.Sprintf("answer's jsonrpc %q: %.200s", a.JSONRPC, b)
	case a.Error == nil:
		return fmt.Sprintf("answer is not an error: %.200s", b)
	case a.Error.Code != c.code || string(a.ID) != c.id:
		return fmt.Sprintf("answer code %d id %s, want code %d id %s: %.300s", a.Error.Code, a.ID, c.code, c.id, b)
	case !strings.Contains(a.Error.Message, c.want):
		return fmt.Sprintf("answer %q does not say %q", a.Error.Message, c.want)
	}
	return ""
}

// stdioSession is a quarry MCP server served on pipes, as quarry mcp serves its standard
// input and output.
type stdioSession struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan []byte
	done  chan error
	next  int // the id of the next tools/list
}

func startStdio(t *testing.T) *stdioSession {
	t.Helper()
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioSession{t: t, in: inW, lines: make(chan []byte, 16), done: make(chan error, 1), next: 1000}
	go func() {
		s.done <- ServeMCP(context.Background(), NewMCPServer(svc, "test"), inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(s.lines)
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { inW.Close(); <-s.done })
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n")
	if line := s.answer(); !bytes.Contains(line, []byte(`"serverInfo"`)) {
		t.Fatalf("initialize: %s", line)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	return s
}

func (s *stdioSession) send(text string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, text); err != nil {
		s.t.Fatalf("the server stopped reading: %v", err)
	}
}

// answer returns the next line the server wrote.
func (s *stdioSession) answer() []byte {
	s.t.Helper()
	select {
	case line, ok := <-s.lines:
		if !ok {
			err := <-s.done
			s.done <- err
			s.t.Fatalf("the server stopped: %v", err)
		}
		return line
	case <-time.After(answerWait):
		s.t.Fatalf("no answer in %v", answerWait)
	}
	return nil
}

// serves fails the test unless the next answer is the tools of a tools/list sent now.
func (s *stdioSession) serves(after string) {
	s.t.Helper()
	s.next++
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", s.next))
	var a rpcAnswer
	line := s.answer()
	if err := json.Unmarshal(line, &a); err != nil || string(a.ID) != fmt.Sprint(s.next) || !bytes.Contains(a.Result, []byte(`"fast_search"`)) {
		s.t.Fatalf("after %s, tools/list answered %.300s", after, line)
	}
}

// TestMCPStdioMalformed sends the server on a pipe each malformed message, then a
// tools/list: each is answered with its JSON-RPC error (notifications with nothing), and
// the server goes on serving.
func TestMCPStdioMalformed(t *testing.T) {
	s := startStdio(t)
	for _, c := range malformedCases() {
		s.send(c.msg + "\n")
		if c.code != 0 {
			if problem := checkAnswer(c, s.answer()); problem != "" {
				t.Errorf("%s: %s", c.name, problem)
			}
		}
		s.serves(c.name)
	}
}

// TestMCPStdioEnd: the server ends when its input does.
func TestMCPStdioEnd(t *testing.T) {
	s := startStdio(t)
	s.serves("initialize")
	s.in.Close()
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("ServeMCP after its input ended: %v", err)
		}
		s.done <- nil
	case <-time.After(answerWait):
		t.Fatalf("ServeMCP still serving %v after its input ended", answerWait)
	}
}

// httpSession is a session with the quarry MCP server over streamable HTTP.
type httpSession struct {
	t   *testing.T
	url string
	id  string // Mcp-Session-Id
}

func startHTTP(t *testing.T) *httpSession {
	t.Helper()
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(MCPHandler(NewMCPServer(svc, "test")))
	t.Cleanup(ts.Close)
	s := &httpSession{t: t, url: ts.URL}
	resp, body := s.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if s.id = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != http.StatusOK || s.id == "" {
		t.Fatalf("initialize: status %d, session %q: %s", resp.StatusCode, s.id, body)
	}
	if resp, body := s.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: status %d: %s", resp.StatusCode, body)
	}
	return s
}

func (s *httpSession) post(body string) (*http.Response, []byte) {
	s.t.Helper()
	req, err := http.NewRequest("POST", s.url, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatalf("reading the answer: %v", err)
	}
	return resp, b
}

// TestMCPHTTPMalformed posts each malformed message: each is answered with its JSON-RPC
// error in a JSON body (400, or 413 for one over MaxMessageBytes; 202 for a notification
// taken), and a tools/list after it is served.
func TestMCPHTTPMalformed(t *testing.T) {
	s := startHTTP(t)
	for i, c := range malformedCases() {
		if c.stdioOnly {
			continue
		}
		resp, body := s.post(c.msg)
		if c.httpCode != 0 {
			c.code, c.id = c.httpCode, "null"
		}
		wantStatus := http.StatusBadRequest
		switch {
		case c.code == 0:
			wantStatus = http.StatusAccepted
		case c.code == -32602: // answered by the method's handler
			wantStatus = http.StatusOK
		case strings.Contains(c.want, "larger than"):
			wantStatus = http.StatusRequestEntityTooLarge
		}
		if resp.StatusCode != wantStatus {
			t.Errorf("%s: status %d, want %d: %.200s", c.name, resp.StatusCode, wantStatus, body)
		}
		if c.code != 0 {
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%s: Content-Type %q, want application/json", c.name, ct)
			}
			if problem := checkAnswer(c, body); problem != "" {
				t.Errorf("%s: %s", c.name, problem)
			}
		}
		resp, body = s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, 1000+i))
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"fast_search"`)) {
			t.Fatalf("after %s, tools/list: status %d: %.200s", c.name, resp.StatusCode, body)
		}
	}
}

// TestMCPHTTPHugeBody: a 20 MB body is answered with 413 and a JSON-RPC error, not a
// connection reset, while the client is still sending it.
func TestMCPHTTPHugeBody(t *testing.T) {
	s := startHTTP(t)
	huge := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 20<<20) + `"}}`
	resp, body := s.post(huge)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a 20 MB body: status %d, want 413: %.200s", resp.StatusCode, body)
	}
	c := malformedCase{code: -32600, id: "1", want: "send at most 4 MiB as one request body"}
	if problem := checkAnswer(c, body); problem != "" {
		t.Error(problem)
	}
}

// TestMCPMessageLimit: a message of MaxMessageBytes is served, on stdio (with a CRLF line
// end) and over HTTP; one byte more is refused, answered with its id (read from its start).
func TestMCPMessageLimit(t *testing.T) {
	padded := func(id string, size int) string {
		head := `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/list","params":{"_meta":{"pad":"`
		tail := `"}}}`
		return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
	}
	tooLarge := malformedCase{code: -32600, id: `"over"`, want: "larger than 4194304 bytes"}
	s := startStdio(t)
	s.send(padded("fits", MaxMessageBytes) + "\r\n")
	if line := s.answer(); !bytes.Contains(line, []byte(`"id":"fits"`)) || !bytes.Contains(line, []byte(`"fast_search"`)) {
		t.Errorf("stdio, a message of %d bytes: answered %.200s", MaxMessageBytes, line)
	}
	s.send(padded("over", MaxMessageBytes+1) + "\n")
	if problem := checkAnswer(tooLarge, s.answer()); problem != "" {
		t.Errorf("stdio, a message of %d bytes: %s", MaxMessageBytes+1, problem)
	}
	s.serves("a message over the limit")

	h := startHTTP(t)
	if resp, body := h.post(padded("fits", MaxMessageBytes)); resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"fast_search"`)) {
		t.Errorf("HTTP, a body of %d bytes: %d %.200s", MaxMessageBytes, resp.StatusCode, body)
	}
	resp, body := h.post(padded("over", MaxMessageBytes+1))
	if problem := checkAnswer(tooLarge, body); resp.StatusCode != http.StatusRequestEntityTooLarge || problem != "" {
		t.Errorf("HTTP, a body of %d bytes: status %d, %s", MaxMessageBytes+1, resp.StatusCode, problem)
	}
}

// TestMCPHTTPForeignHostFirst: a request under a foreign Host is refused (403) whatever
// its body, before the body is looked at.
func TestMCPHTTPForeignHostFirst(t *testing.T) {
	s := startHTTP(t)
	for _, body := range []string{"hello", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`} {
		req, err := http.NewRequest("POST", s.url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = "evil.example"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST %q under Host evil.example: status %d, want 403", body, resp.StatusCode)
		}
	}
}

// TestLeadingID: the id of a message cut anywhere after it, of a string or a number; none
// (null) when the cut comes first, when it is not at the top level or not a valid id.
func TestLeadingID(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"aaaa`, `7`},
		{`{"id":"abc","params":[1,2`, `"abc"`},
		{`{"jsonrpc":"2.0","params":{"id":5},"id":-3,"x":"yy`, `-3`},
		{`{"jsonrpc":"2.0","params":{"id":5,"pad":"yyyy`, `null`},
		{`{"id":{"a":1},"x":1}`, `null`},
		{`{"id":nu`, `null`},
		{`[{"id":1}]`, `null`},
		{``, `null`},
	} {
		if got := string(leadingID([]byte(c.in))); got != c.want {
			t.Errorf("leadingID(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestMCPHTTPNoSessionAndPaths: over HTTP, a request before initialize is answered 400 with
// a JSON-RPC invalid request (-32600) carrying its id and saying what to send first, not 200
// with error code 0; a path other than the endpoint's is 404 (issue 41 d).
func TestMCPHTTPNoSessionAndPaths(t *testing.T) {
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(MCPAt(MCPHandler(NewMCPServer(svc, "test")), "/"))
	t.Cleanup(ts.Close)
	anon := &httpSession{t: t, url: ts.URL + "/"}
	resp, body := anon.post(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	c := malformedCase{code: -32600, id: "9", want: "no session: send initialize first"}
	if problem := checkAnswer(c, body); resp.StatusCode != http.StatusBadRequest || problem != "" {
		t.Errorf("tools/list without a session: status %d, %s", resp.StatusCode, problem)
	}
	if resp, body := anon.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`); resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Errorf("initialize without a session: status %d: %s", resp.StatusCode, body)
	}
	for _, p := range []string{"/nope", "/mcp/x"} {
		other := &httpSession{t: t, url: ts.URL + p}
		resp, body := other.post(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
		c := malformedCase{code: -32600, id: "null", want: "no MCP endpoint at " + p + ": it is at /"}
		if problem := checkAnswer(c, body); resp.StatusCode != http.StatusNotFound || problem != "" {
			t.Errorf("POST %s: status %d, %s", p, resp.StatusCode, problem)
		}
	}
}
