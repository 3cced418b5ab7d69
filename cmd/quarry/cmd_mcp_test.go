package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	binaryOnce sync.Once
	binaryDir  string
	binaryPath string
	binaryErr  error
)

func TestMain(m *testing.M) {
	// the commands these tests run never leave a watcher behind; TestAutoWatch turns it on
	os.Setenv("QUARRY_AUTOWATCH", "0")
	code := m.Run()
	if binaryDir != "" {
		os.RemoveAll(binaryDir)
	}
	os.Exit(code)
}

// quarryBinary builds the quarry binary once for the tests that run it as a process.
func quarryBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: cannot build the quarry binary to test MCP over stdio")
	}
	binaryOnce.Do(func() {
		if binaryDir, binaryErr = os.MkdirTemp("", "quarry-bin-"); binaryErr != nil {
			return
		}
		binaryPath = filepath.Join(binaryDir, "quarry")
		out, err := exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput()
		if err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// withoutElapsed decodes a JSON answer, leaving out its timing.
func withoutElapsed(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, data)
	}
	delete(m, "elapsed_ms")
	return m
}

// TestMCPStdioEqualsCLI starts quarry mcp as an MCP client would, lists its tools, and
// checks that fast_search and fast_goto answer what quarry search --json and quarry goto
// --json print for the same request.
func TestMCPStdioEqualsCLI(t *testing.T) {
	bin := quarryBinary(t)
	root := searchRoot(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = root
	client := mcp.NewClient(&mcp.Implementation{Name: "quarry-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "fast_search") || !slices.Contains(names, "fast_goto") {
		t.Fatalf("tools/list = %v", names)
	}
	tests := []struct {
		tool string
		args map[string]any
		cli  []string
	}{
		{"fast_search", map[string]any{"query": "ServeHTTP"}, []string{"search", "ServeHTTP"}},
		{"fast_search", map[string]any{"query": "connection pool", "target": "content", "context_lines": 1}, []string{"search", "connection pool", "--target", "content", "--context", "1"}},
		{"fast_search", map[string]any{"query": "ConnectionPool", "kind": []string{"class"}, "language": "py"}, []string{"search", "ConnectionPool", "--kind", "class", "--lang", "py"}},
		{"fast_search", map[string]any{"query": "pool", "target": "files", "file_pattern": "*.py"}, []string{"search", "pool", "--target", "files", "--file-pattern", "*.py"}},
		{"fast_goto", map[string]any{"symbol": "ServeHTTP"}, []string{"goto", "ServeHTTP"}},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %+v", tt.tool, tt.args, err, res)
		}
		got, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := quarry(t, "", append(append([]string{"--root", root}, tt.cli...), "--json")...)
		if code != exitOK {
			t.Fatalf("quarry %v --json: exit %d, %s", tt.cli, code, errOut)
		}
		if mcpRes, cliRes := withoutElapsed(t, got), withoutElapsed(t, []byte(out)); !reflect.DeepEqual(mcpRes, cliRes) {
			t.Errorf("%s %v:\n MCP %v\n CLI %v", tt.tool, tt.args, mcpRes, cliRes)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fast_search", Arguments: map[string]any{"query": "x", "limt": 3}})
	if err != nil || !res.IsError {
		t.Errorf("an unknown parameter: %v, %+v; want an error result", err, res)
	}
}

// TestMCPHTTPServe runs quarry mcp --http on a free loopback port and calls a tool over
// streamable HTTP.
func TestMCPHTTPServe(t *testing.T) {
	bin := quarryBinary(t)
	root := searchRoot(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "--root", root, "mcp", "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	addr := regexp.MustCompile(`on (http://\S+)`)
	sc := bufio.NewScanner(stderr)
	url := ""
	for url == "" && sc.Scan() {
		if m := addr.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("quarry mcp --http printed no address")
	}
	go func() { // keep reading, so the server never blocks on a full pipe
		for sc.Scan() {
		}
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "quarry-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fast_search", Arguments: map[string]any{"query": "ServeHTTP"}})
	if err != nil || res.IsError || len(res.Content) == 0 || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "server.go:4: method ServeHTTP") {
		t.Errorf("fast_search over HTTP: %v, %+v", err, res)
	}
}

func TestMCPFlags(t *testing.T) {
	root := searchRoot(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--http", "0.0.0.0:8765"}, "would listen beyond this machine"},
		{[]string{"mcp", "--http", ":8765"}, "would listen beyond this machine"},
		{[]string{"mcp", "--http", "example.com:80"}, "--allow-remote"},
		{[]string{"mcp", "--http", "8765"}, "give HOST:PORT"},
		{[]string{"mcp", "--allow-remote"}, "goes with --http"},
		{[]string{"mcp", "extra"}, "unknown command"},
		{[]string{"mcp", "--answer-form", "json"}, `--answer-form: answer form "json": want one of both, text, structured`},
	}
	for _, tt := range tests {
		code, _, errOut := quarry(t, "", append([]string{"--root", root}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("quarry %v: exit %d, %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	code, out, _ := quarry(t, "", "capabilities")
	var caps struct{ Transports []string }
	if code != exitOK || json.Unmarshal([]byte(out), &caps) != nil || !slices.Contains(caps.Transports, "mcp-stdio") || !slices.Contains(caps.Transports, "mcp-http") {
		t.Errorf("capabilities: exit %d, transports %v", code, caps.Transports)
	}
}
