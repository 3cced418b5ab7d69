package reliability

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// mcpAnswerWait bounds how long the suite waits for an answer quarry mcp owes.
const mcpAnswerWait = 60 * time.Second

// malformed is a message a client may send by mistake and the JSON-RPC error code quarry
// mcp answers it with.
type malformed struct {
	name string
	msg  string
	code int
}

// malformedMessages are the messages the suite sends quarry mcp, each answered with an
// error; the last is a 20 MB line (over the 4 MiB limit).
func malformedMessages() []malformed {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	return []malformed{
		{"plain text", "hello server", -32700},
		{"header line", "Content-Length: 52", -32700},
		{"NUL bytes", "\x00\x00", -32700},
		{"batch array", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, -32600},
		{"empty array", `[]`, -32600},
		{"array of numbers", `[1,2]`, -32600},
		{"string", `"tools/list"`, -32600},
		{"number", `42`, -32600},
		{"null", `null`, -32600},
		{"empty object", `{}`, -32600},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":2,"method":"tools/list"}`, -32600},
		{"jsonrpc a number", `{"jsonrpc":2,"id":3,"method":"tools/list"}`, -32600},
		{"no jsonrpc", `{"id":4,"method":"tools/list"}`, -32600},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600},
		{"array id", `{"jsonrpc":"2.0","id":[5],"method":"tools/list"}`, -32600},
		{"boolean id", `{"jsonrpc":"2.0","id":false,"method":"tools/list"}`, -32600},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, -32600},
		{"fractional id", `{"jsonrpc":"2.0","id":6.5,"method":"tools/list"}`, -32600},
		{"method a number", `{"jsonrpc":"2.0","id":7,"method":7}`, -32600},
		{"params a string", `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":"x"}`, -32600},
		{"params an array", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[1]}`, -32600},
		{"notification with bad params", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":true}`, -32600},
		{"id alone", `{"jsonrpc":"2.0","id":10}`, -32600},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, -32600},
		{"unknown method", `{"jsonrpc":"2.0","id":11,"method":"tools/destroy"}`, -32601},
		{"two objects", `{"jsonrpc":"2.0","id":12,"method":"tools/list"}{"jsonrpc":"2.0","id":13,"method":"tools/list"}`, -32700},
		{"truncated, then another message", `{"jsonrpc":"2.0","id":14,"meth{"jsonrpc":"2.0","id":15,"method":"tools/list"}`, -32700},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"tools/list\",\"params\":{\"q\":\"\xc3\x28\"}}", -32700},
		{"byte order mark", "\uFEFF{\"jsonrpc\":\"2.0\",\"id\":17,\"method\":\"tools/list\"}", -32700},
		{"depth bomb", deep, -32700},
		{"20 MB message", `{"jsonrpc":"2.0","id":18,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 20<<20) + `"}}`, -32600},
	}
}

// errorCode returns the error code of the JSON-RPC answer b, or an error saying what b is.
func errorCode(b []byte) (int, error) {
	var a struct {
		JSONRPC string `json:"jsonrpc"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &a); err != nil || a.JSONRPC != "2.0" || a.Error == nil || a.Error.Message == "" {
		return 0, fmt.Errorf("not a JSON-RPC error: %.200s", b)
	}
	return a.Error.Code, nil
}

// mcpWorkspace makes a small workspace for quarry mcp.
func mcpWorkspace(t *testing.T) string {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"main.go": goFile("main", "Serve", 3)})
	return root
}

// rawMCP is a running quarry mcp whose standard input takes raw bytes (malformed messages).
type rawMCP struct {
	cmd    *exec.Cmd
	exited chan struct{}
	mu     sync.Mutex
	stderr bytes.Buffer // what it printed on standard error
}

// Write takes what the server prints on standard error.
func (p *rawMCP) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.Write(b)
}

func startRawMCP(t *testing.T, root string, args ...string) (*rawMCP, io.WriteCloser, io.Reader) {
	t.Helper()
	p := &rawMCP{cmd: exec.Command(quarryBin, append([]string{"mcp", "--no-watch"}, args...)...), exited: make(chan struct{})}
	p.cmd.Dir = root
	p.cmd.Stderr = p
	in, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		in.Close()
		p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(mcpAnswerWait):
			p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p, in, out
}

// alive fails the test if the server exited.
func (p *rawMCP) alive(t *testing.T, after string) {
	t.Helper()
	select {
	case <-p.exited:
		t.Fatalf("quarry mcp exited (%v) after %s; stderr:\n%s", p.cmd.ProcessState, after, p.stderrBytes())
	default:
	}
}

// TestMalformedStdio sends quarry mcp on its standard input each malformed message, then a
// tools/list: zero exits, each answered with its JSON-RPC error, each tools/list served.
func TestMalformedStdio(t *testing.T) {
	p, in, out := startRawMCP(t, mcpWorkspace(t))
	lines := make(chan []byte, 4)
	go func() {
		defer close(lines)
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(in, msg+"\n"); err != nil {
			p.alive(t, "a write")
			t.Fatalf("writing to quarry mcp: %v", err)
		}
	}
	next := func(after string) []byte {
		t.Helper()
		select {
		case line, ok := <-lines:
			if ok {
				return line
			}
			select { // its output ended: it exits
			case <-p.exited:
			case <-time.After(mcpAnswerWait):
			}
		case <-time.After(mcpAnswerWait):
		}
		p.alive(t, after)
		t.Fatalf("no answer to %s", after)
		return nil
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if line := next("initialize"); !bytes.Contains(line, []byte(`"serverInfo"`)) {
		t.Fatalf("initialize: %.300s", line)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	answered := 0
	for i, m := range malformedMessages() {
		send(m.msg)
		code, err := errorCode(next(m.name))
		if err != nil || code != m.code {
			t.Errorf("%s: answered code %d, want %d: %v", m.name, code, m.code, err)
		} else {
			answered++
		}
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"list-%d","method":"tools/list"}`, i))
		if line := next("tools/list after " + m.name); !bytes.Contains(line, []byte(fmt.Sprintf(`"id":"list-%d"`, i))) || !bytes.Contains(line, []byte(`"fast_search"`)) {
			t.Fatalf("tools/list after %s: %.300s", m.name, line)
		}
		p.alive(t, m.name)
	}
	t.Logf("stdio: %d of %d malformed messages answered with their JSON-RPC error, 0 exits", answered, len(malformedMessages()))
	in.Close()
	select {
	case <-p.exited:
		if !p.cmd.ProcessState.Success() {
			t.Errorf("quarry mcp when its input ended: %v; stderr:\n%s", p.cmd.ProcessState, p.stderrBytes())
		}
	case <-time.After(mcpAnswerWait):
		t.Errorf("quarry mcp still running %v after its input ended", mcpAnswerWait)
	}
}

// servingLine is what quarry mcp --http prints when it listens.
var servingLine = regexp.MustCompile(`serving .* on (http://\S+)/`)

// TestMalformedHTTP posts quarry mcp --http each malformed message, then a tools/list:
// zero exits, each answered with its JSON-RPC error in a JSON body (413 for the 20 MB one,
// read to its end rather than reset), each tools/list served.
func TestMalformedHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p, _, _ := startRawMCP(t, mcpWorkspace(t), "--http", addr)
	var base string
	for deadline := time.Now().Add(mcpAnswerWait); base == ""; time.Sleep(50 * time.Millisecond) {
		p.alive(t, "start")
		if m := servingLine.FindSubmatch(p.stderrBytes()); m != nil {
			base = string(m[1])
		} else if time.Now().After(deadline) {
			t.Fatalf("quarry mcp --http did not say it serves; stderr:\n%s", p.stderrBytes())
		}
	}
	var session string
	post := func(body string) (int, []byte) {
		t.Helper()
		req, err := http.NewRequest("POST", base+"/", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		}
		resp, err := (&http.Client{Timeout: mcpAnswerWait}).Do(req)
		if err != nil {
			p.alive(t, "a request")
			t.Fatalf("POST %.40q: %v", body, err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("reading the answer to %.40q: %v", body, err)
		}
		if session == "" {
			session = resp.Header.Get("Mcp-Session-Id")
		}
		return resp.StatusCode, b
	}
	if status, b := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`); status != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d, session %q: %.300s", status, session, b)
	}
	if status, b := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
		t.Fatalf("initialized: %d: %.300s", status, b)
	}
	answered := 0
	for i, m := range malformedMessages() {
		status, b := post(m.msg)
		want := http.StatusBadRequest
		if len(m.msg) > 4<<20 {
			want = http.StatusRequestEntityTooLarge
		}
		code, err := errorCode(b)
		if err != nil || code != m.code || status != want {
			t.Errorf("%s: status %d code %d, want %d and %d: %v", m.name, status, code, want, m.code, err)
		} else {
			answered++
		}
		if status, b := post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, 100+i)); status != http.StatusOK || !bytes.Contains(b, []byte(`"fast_search"`)) {
			t.Fatalf("tools/list after %s: %d: %.300s", m.name, status, b)
		}
		p.alive(t, m.name)
	}
	t.Logf("HTTP: %d of %d malformed messages answered with their JSON-RPC error, 0 exits", answered, len(malformedMessages()))
}

// stderrBytes returns what the server printed on standard error so far.
func (p *rawMCP) stderrBytes() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Clone(p.stderr.Bytes())
}
