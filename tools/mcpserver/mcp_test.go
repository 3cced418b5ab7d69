package mcpserver

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/httpguard"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// connect serves srv over in-memory transports and returns a connected client session.
func connect(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "quarry-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", tool, args, err)
	}
	return res
}

// generic returns v as generic JSON.
func generic(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// comparable returns v as generic JSON without elapsed_ms, for comparing answers that
// differ only in their timing.
func comparable(t *testing.T, v any) any {
	t.Helper()
	out := generic(t, v)
	if m, ok := out.(map[string]any); ok {
		delete(m, "elapsed_ms")
	}
	return out
}

// checkOutput checks the structured content of a result of tool against the schema of its
// result or of the failure envelope (the resource quarry://schema/{name} holds them).
func checkOutput(t *testing.T, tool string, res *mcp.CallToolResult) {
	t.Helper()
	op, err := tools.OperationNamed(tool)
	if err != nil {
		t.Fatal(err)
	}
	out, err := outputSchema(op)
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := out.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := resolved.Validate(generic(t, res.StructuredContent)); err != nil {
		t.Errorf("%s: the structured content does not validate against the output schema: %v", tool, err)
	}
}

// outputSchema is what a tool's structured content follows: op's result or the failure
// envelope (the resources quarry://schema/OP.result and quarry://schema/error), without
// their $schema and $id.
func outputSchema(op tools.Operation) (*jsonschema.Schema, error) {
	res, err := tools.SchemaFor(op.Name+".result", op.Result)
	if err != nil {
		return nil, err
	}
	all, err := tools.Schemas()
	if err != nil {
		return nil, err
	}
	env := all["error"]
	for _, s := range []*jsonschema.Schema{res, env} {
		s.Schema, s.ID = "", ""
		delete(s.Extra, "version")
	}
	return &jsonschema.Schema{
		Schema: tools.SchemaDialect,
		ID:     tools.SchemaBase + "v" + tools.MajorVersion() + "/" + op.Name + ".output.json",
		Title:  op.Name + ".output",
		Type:   "object",
		AnyOf:  []*jsonschema.Schema{res, env},
		Extra:  map[string]any{"version": tools.AgentVersion},
	}, nil
}

func resultText(res *mcp.CallToolResult) string {
	if len(res.Content) != 1 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func TestMCPListTools(t *testing.T) {
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		op, err := tools.OperationNamed(tool.Name)
		if err != nil {
			t.Errorf("tool %s is no operation: %v", tool.Name, err)
			continue
		}
		in, _ := tool.InputSchema.(map[string]any)
		if in["type"] != "object" || in["properties"] == nil {
			t.Errorf("tool %s: input schema %v", tool.Name, tool.InputSchema)
		}
		if !strings.HasPrefix(tool.Description, op.Summary) {
			t.Errorf("tool %s: description %q does not start with the summary", tool.Name, tool.Description)
		}
	}
	for _, op := range tools.Operations {
		if op.Tool != "" && !slices.Contains(names, op.Tool) {
			t.Errorf("tools/list = %v, lacks %s", names, op.Tool)
		}
	}
	for _, want := range []string{"fast_search", "fast_goto"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list = %v, lacks %s", names, want)
		}
	}
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "quarry" || init.ServerInfo.Version != "test" || !strings.Contains(init.Instructions, "fast_search") {
		t.Errorf("initialize: server %+v, instructions %.80q", init.ServerInfo, init.Instructions)
	}
}

// TestMCPSearchEqualsAPI proves the MCP tools answer what the Go API answers for the same
// request (structured content), with the compact text beside it.
func TestMCPSearchEqualsAPI(t *testing.T) {
	ctx := context.Background()
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	searches := []struct {
		args     string
		wantText string
	}{
		{`{"query":"ServeHTTP"}`, "server.go:4: method ServeHTTP — func (s *Server) ServeHTTP()"},
		{`{"query":"connection pool","target":"content","context_lines":1}`, "pool.py:5: "},
		{`{"query":"handler.go","target":"files"}`, "web/handler.go\n1 result"},
		{`{"query":"ConnectionPool","kind":["class"],"language":"py"}`, "pool.py:1: class ConnectionPool"},
		{`{"query":"Handle","file_pattern":"web/**","limit":1}`, "web/handler.go:4: function Handle"},
		{`{"query":"zebra"}`, "0 results ("},
	}
	for _, tt := range searches {
		res := callTool(t, cs, "fast_search", json.RawMessage(tt.args))
		if res.IsError {
			t.Errorf("fast_search %s: error %s", tt.args, resultText(res))
			continue
		}
		checkOutput(t, "fast_search", res)
		var req tools.SearchRequest
		if err := tools.DecodeStrict(json.RawMessage(tt.args), &req); err != nil {
			t.Fatal(err)
		}
		want, err := svc.Search(ctx, req)
		if err != nil {
			t.Fatalf("Search(%s): %v", tt.args, err)
		}
		if got, want := comparable(t, res.StructuredContent), comparable(t, want); !reflect.DeepEqual(got, want) {
			t.Errorf("fast_search %s:\n MCP %v\n API %v", tt.args, got, want)
		}
		if text := resultText(res); !strings.Contains(text, tt.wantText) {
			t.Errorf("fast_search %s: text %q lacks %q", tt.args, text, tt.wantText)
		}
	}

	args := `{"symbol":"ServeHTTP","context_file":"web/handler.go"}`
	res := callTool(t, cs, "fast_goto", json.RawMessage(args))
	checkOutput(t, "fast_goto", res)
	var req tools.GotoRequest
	if err := tools.DecodeStrict(json.RawMessage(args), &req); err != nil {
		t.Fatal(err)
	}
	want, err := svc.Goto(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !reflect.DeepEqual(comparable(t, res.StructuredContent), comparable(t, want)) {
		t.Errorf("fast_goto %s:\n MCP %v\n API %v", args, res.StructuredContent, want)
	}
	if text := resultText(res); text != "server.go:4: method ServeHTTP — func (s *Server) ServeHTTP()\n1 definition of ServeHTTP" {
		t.Errorf("fast_goto text = %q", text)
	}
}

// TestMCPMalformedCalls sends bad arguments of every kind: each is an error result holding
// the envelope with the right code, and the server answers a good call after all of them.
func TestMCPMalformedCalls(t *testing.T) {
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	tests := []struct {
		tool string
		args any
		code tools.Code
		path string
	}{
		{"fast_search", json.RawMessage(`{"qurey":"x"}`), tools.CodeUnknownField, "qurey"},
		{"fast_search", json.RawMessage(`{"query":"x","limt":3}`), tools.CodeUnknownField, "limt"},
		{"fast_search", json.RawMessage(`{"query":"x","filePattern":"*.go"}`), tools.CodeUnknownField, "filePattern"},
		{"fast_search", json.RawMessage(`{"query":3}`), tools.CodeBadValue, "query"},
		{"fast_search", json.RawMessage(`{"query":"x","limit":"ten"}`), tools.CodeBadValue, "limit"},
		{"fast_search", json.RawMessage(`{"query":"x","kind":"class"}`), tools.CodeBadValue, "kind"},
		{"fast_search", json.RawMessage(`{"query":"x","include_tests":"yes"}`), tools.CodeBadValue, "include_tests"},
		{"fast_search", json.RawMessage(`[1,2]`), tools.CodeBadValue, ""},
		{"fast_search", json.RawMessage(`"ServeHTTP"`), tools.CodeBadValue, ""},
		{"fast_search", json.RawMessage(`42`), tools.CodeBadValue, ""},
		{"fast_search", json.RawMessage(`{}`), tools.CodeBadQuery, "query"},
		{"fast_search", nil, tools.CodeBadQuery, "query"},
		{"fast_search", json.RawMessage(`{"query":""}`), tools.CodeBadQuery, "query"},
		{"fast_search", json.RawMessage(`{"query":"   "}`), tools.CodeBadQuery, "query"},
		{"fast_search", json.RawMessage(`{"query":"(*&)","target":"definitions"}`), tools.CodeBadQuery, "query"},
		{"fast_search", json.RawMessage(`{"query":"x","target":"defs"}`), tools.CodeBadValue, "target"},
		{"fast_search", json.RawMessage(`{"query":"x","limit":100000}`), tools.CodeBadValue, "limit"},
		{"fast_search", json.RawMessage(`{"query":"x","limit":-1}`), tools.CodeBadValue, "limit"},
		{"fast_search", json.RawMessage(`{"query":"x","limit":1e12}`), tools.CodeBadValue, "limit"},
		{"fast_search", json.RawMessage(`{"query":"x","context_lines":-2}`), tools.CodeBadValue, ""},
		{"fast_search", json.RawMessage(`{"query":"x","language":"cobol"}`), tools.CodeBadValue, "language"},
		{"fast_search", json.RawMessage(`{"query":"x","kind":["klass"]}`), tools.CodeBadValue, "kind"},
		{"fast_search", json.RawMessage(`{"query":"x","file_pattern":"src/[ab"}`), tools.CodeBadValue, "file_pattern"},
		{"fast_search", json.RawMessage(`{"query":"x","workspace":"nope"}`), tools.CodeUnknownWorkspace, "workspace"},
		{"fast_search", json.RawMessage(`{"query":"x","max_bytes":-1}`), tools.CodeBadValue, "max_bytes"},
		{"fast_search", json.RawMessage(`{"query":"x","include_tests":true,"exclude_tests":true}`), tools.CodeBadValue, "exclude_tests"},
		{"fast_goto", json.RawMessage(`{}`), tools.CodeBadQuery, "symbol"},
		{"fast_goto", json.RawMessage(`{"symbol":""}`), tools.CodeBadQuery, "symbol"},
		{"fast_goto", json.RawMessage(`{"sym":"X"}`), tools.CodeUnknownField, "sym"},
		{"fast_goto", json.RawMessage(`{"symbol":["X"]}`), tools.CodeBadValue, "symbol"},
		{"fast_goto", json.RawMessage(`{"symbol":"X","context_file":"../../etc/passwd"}`), tools.CodePathOutsideWorkspace, "context_file"},
		{"fast_goto", json.RawMessage(`{"symbol":"X","context_file":"/etc/passwd"}`), tools.CodePathOutsideWorkspace, "context_file"},
		{"fast_goto", json.RawMessage(`{"symbol":"X","limit":-3}`), tools.CodeBadValue, "limit"},
		{"fast_goto", json.RawMessage(`{"symbol":"X","limit":501}`), tools.CodeBadValue, "limit"},
		{"fast_goto", json.RawMessage(`{"symbol":"X","workspace":"nope"}`), tools.CodeUnknownWorkspace, "workspace"},
	}
	for _, tt := range tests {
		res := callTool(t, cs, tt.tool, tt.args)
		var env struct {
			OK    *bool        `json:"ok"`
			Error *tools.Error `json:"error"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &env); err != nil || !res.IsError || env.OK == nil || *env.OK || env.Error == nil {
			t.Errorf("%s %s: isError %v, structured %s; want the failure envelope", tt.tool, tt.args, res.IsError, b)
			continue
		}
		if env.Error.Code != tt.code || tt.path != "" && env.Error.Path != tt.path || env.Error.Message == "" {
			t.Errorf("%s %s: %s at %q (%s), want %s at %q", tt.tool, tt.args, env.Error.Code, env.Error.Path, env.Error.Message, tt.code, tt.path)
		}
		var text any
		if err := json.Unmarshal([]byte(resultText(res)), &text); err != nil || !reflect.DeepEqual(text, comparable(t, res.StructuredContent)) {
			t.Errorf("%s %s: text %q, want the envelope %s", tt.tool, tt.args, resultText(res), b)
		}
		checkOutput(t, tt.tool, res)
		if err := tools.Validate("error", b); err != nil {
			t.Errorf("%s %s: the envelope does not validate: %v", tt.tool, tt.args, err)
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fast_nothing"}); err == nil {
		t.Errorf("calling an unknown tool succeeded")
	}
	res := callTool(t, cs, "fast_search", map[string]any{"query": "ServeHTTP"})
	if res.IsError || !strings.HasPrefix(resultText(res), "server.go:4: method ServeHTTP") {
		t.Errorf("a good call after the bad ones: isError %v, %q", res.IsError, resultText(res))
	}
}

// TestMCPPanicIsInternal proves a panic in an operation is an INTERNAL failure, and the
// server goes on serving.
func TestMCPPanicIsInternal(t *testing.T) {
	calls := 0
	call := func(ctx context.Context, op string, args json.RawMessage) (any, error) {
		calls++
		if calls == 1 {
			panic("boom")
		}
		return &tools.GotoResult{Symbol: "X", Results: []tools.Hit{}, Errors: []tools.ErrorInfo{}}, nil
	}
	cs := connect(t, newMCPServer(call, "test", ""))
	res := callTool(t, cs, "fast_goto", map[string]any{"symbol": "X"})
	env, _ := res.StructuredContent.(map[string]any)
	e, _ := env["error"].(map[string]any)
	if !res.IsError || e["code"] != string(tools.CodeInternal) || !strings.Contains(e["message"].(string), "boom") {
		t.Errorf("a panicking call: isError %v, %v", res.IsError, res.StructuredContent)
	}
	if res := callTool(t, cs, "fast_goto", map[string]any{"symbol": "X"}); res.IsError || resultText(res) != "0 definitions of X" {
		t.Errorf("the call after the panic: isError %v, %q", res.IsError, resultText(res))
	}
}

func TestMCPCapabilitiesResource(t *testing.T) {
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: CapabilitiesURI})
	if err != nil {
		t.Fatal(err)
	}
	var caps tools.Capabilities
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" || json.Unmarshal([]byte(res.Contents[0].Text), &caps) != nil {
		t.Fatalf("read %s: %+v", CapabilitiesURI, res.Contents)
	}
	if caps.AgentVersion != tools.AgentVersion || !slices.Contains(caps.Targets, "content") || len(caps.Operations) != len(tools.Operations) {
		t.Errorf("capabilities resource: %+v", caps)
	}
}

// TestMCPDocsGenerated proves the instructions and descriptions say what the contract
// says: the instructions name every tool with its summary and the capabilities resource,
// every description starts with its tool's summary, and every example is a valid request.
func TestMCPDocsGenerated(t *testing.T) {
	caps, err := tools.GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	ins, err := Instructions(caps)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{CapabilitiesURI}
	for _, op := range tools.Operations {
		if op.Tool == "" {
			continue
		}
		want = append(want, "- "+op.Tool+": "+strings.TrimSuffix(op.Summary, "."))
		desc, err := ToolDescription(op, caps)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(desc, op.Summary) {
			t.Errorf("the description of %s does not start with its summary:\n%s", op.Tool, desc)
		}
	}
	for _, w := range want {
		if !strings.Contains(ins, w) {
			t.Errorf("instructions lack %q", w)
		}
	}
	for name, exs := range tools.Examples {
		op, err := tools.OperationNamed(name)
		if err != nil {
			t.Errorf("examples of %s: %v", name, err)
			continue
		}
		for _, ex := range exs {
			if err := tools.DecodeStrict(json.RawMessage(ex.Args), reflect.New(op.Request).Interface()); err != nil {
				t.Errorf("example %s %s: %v", name, ex.Args, err)
			}
			if err := tools.Validate(name+".request", []byte(ex.Args)); err != nil {
				t.Errorf("example %s %s does not validate: %v", name, ex.Args, err)
			}
		}
	}
}

func TestRender(t *testing.T) {
	tests := []struct {
		res  any
		want string
	}{
		{&tools.SearchResult{Results: []tools.Hit{
			{Hit: "definition", Path: "a.go", Line: 3, Kind: "function", Name: "F", Signature: "func F(\n\tx int)"},
			{Hit: "content", Path: "b.py", Line: 7, Text: "  x = 1", Context: []tools.ContextLine{{Line: 6, Text: "def f():"}, {Line: 7, Text: "  x = 1"}, {Line: 8, Text: "  return x"}}},
			{Hit: "file", Path: "c/d.md", Workspace: "lib"},
		}, Truncated: true, TruncatedReason: "limit"},
			"a.go:3: function F — func F( x int)\nb.py-6- def f():\nb.py:7:   x = 1\nb.py-8-   return x\nlib:c/d.md\n3 results (truncated: limit; more: limit 6)"},
		{&tools.SearchResult{Results: []tools.Hit{{Hit: "content", Path: "a", Line: 1, Text: "\tx "}}, Relaxed: true},
			"a:1: x\n1 result (relaxed: no result has every word, these have some)"},
		{&tools.SearchResult{Results: []tools.Hit{{Hit: "definition", Path: "a.go", Line: 3, Kind: "function", Name: "Fetch"}}, Notice: "no definition named FetchAll; showing related"},
			"a.go:3: function Fetch\n1 result (no definition named FetchAll; showing related)"},
		{&tools.SearchResult{Results: []tools.Hit{}, TotalFilesSearched: 12, Errors: []tools.ErrorInfo{{Code: tools.CodeNotIndexed, Message: "no index", Workspace: "lib"}}},
			"error NOT_INDEXED in lib: no index\n0 results (12 files searched; try fewer words, another target or fewer filters)"},
		{tools.GotoResult{Symbol: "F", Results: []tools.Hit{{Hit: "definition", Path: "a.go", Line: 3, Kind: "function", Name: "F"}}},
			"a.go:3: function F\n1 definition of F"},
		{map[string]int{"n": 1}, `{"n":1}`},
	}
	for _, tt := range tests {
		got, err := qtext.Render(tt.res)
		if err != nil || got != tt.want {
			t.Errorf("Render(%+v) = %q, %v, want %q", tt.res, got, err, tt.want)
		}
	}
}

// TestToolSnapshots compares each tool's input schema, as tools/list shows it, with its
// snapshot under testdata/tools: a change to the contract shows as a diff. Rewrite them
// with go test ./tools -run TestToolSnapshots -update.
func TestToolSnapshots(t *testing.T) {
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		got, err := json.MarshalIndent(tool.InputSchema, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "tools", tool.Name+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("tool %s has no snapshot (%v); run: go test ./tools -run TestToolSnapshots -update", tool.Name, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("the input schema of %s differs from %s; if the change is meant, run: go test ./tools -run TestToolSnapshots -update\ngot:\n%s", tool.Name, path, got)
		}
	}
}

func TestLoopback(t *testing.T) {
	tests := []struct {
		origin string
		want   bool
	}{
		{"http://localhost:6274", true}, {"http://127.0.0.1", true}, {"http://[::1]:8080", true}, {"https://LOCALHOST", true},
		{"http://127.0.0.2:1", true}, {"https://evil.example", false}, {"http://localhost.evil.example", false},
		{"http://10.0.0.1:80", false}, {"null", false}, {"", false},
	}
	for _, tt := range tests {
		if got := httpguard.LoopbackOrigin(tt.origin); got != tt.want {
			t.Errorf("LoopbackOrigin(%q) = %v, want %v", tt.origin, got, tt.want)
		}
	}
}

// originTransport sets an Origin header on every request, as a browser would.
type originTransport struct{ origin string }

func (o originTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Origin", o.origin)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPHTTP serves the tools over streamable HTTP: a client without an Origin or with a
// loopback one is served, a cross-origin request is refused with 403.
func TestMCPHTTP(t *testing.T) {
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(MCPHandler(NewMCPServer(svc, "test")))
	defer ts.Close()
	ctx := context.Background()
	for _, origin := range []string{"", "http://localhost:6274"} {
		client := mcp.NewClient(&mcp.Implementation{Name: "quarry-test", Version: "1"}, nil)
		transport := &mcp.StreamableClientTransport{Endpoint: ts.URL}
		if origin != "" {
			transport.HTTPClient = &http.Client{Transport: originTransport{origin}}
		}
		cs, err := client.Connect(ctx, transport, nil)
		if err != nil {
			t.Fatalf("connect with Origin %q: %v", origin, err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fast_goto", Arguments: map[string]any{"symbol": "Handle"}})
		if err != nil || res.IsError || !strings.HasPrefix(resultText(res), "web/handler.go:4: function Handle") {
			t.Errorf("fast_goto over HTTP with Origin %q: %v, %v", origin, err, res)
		}
		cs.Close()
	}
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-origin request: status %d, want 403", resp.StatusCode)
	}
	// Answers come as one JSON body, not an event stream: a millisecond less a call.
	req, _ = http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "application/json") {
		t.Errorf("initialize over HTTP: status %d, Content-Type %q; want 200 and application/json", resp.StatusCode, ct)
	}
}

// TestMCPBatch: the batch tool answers in text only, compact by default and a JSON array
// with format json; a bad batch is an error result with the positioned envelope.
func TestMCPBatch(t *testing.T) {
	svc, err := tools.NewService(testkit.Workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, NewMCPServer(svc, "test"))
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "batch", Arguments: map[string]any{"batch": "goto(Server, take=1) { name line }; count(refs, symbol=helper)"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError || res.StructuredContent != nil || !strings.HasPrefix(text, "# goto(Server, take=1) { name line }: 1 result") || !strings.Contains(text, "\n# count(refs, symbol=helper): ") {
		t.Errorf("batch (compact): error %v, structured %v\n%s", res.IsError, res.StructuredContent, text)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "batch", Arguments: map[string]any{"batch": "goto(Server) { name }", "format": "json"}})
	if err != nil {
		t.Fatal(err)
	}
	var entries []map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &entries); err != nil || len(entries) != 1 || entries[0]["results"] == nil {
		t.Errorf("batch (json): %v, %v", err, entries)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "batch", Arguments: map[string]any{"batch": "goto(Server"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, `"code":"BAD_QUERY"`) || !strings.Contains(text, "line 1, column 12") {
		t.Errorf("a bad batch: error %v\n%s", res.IsError, text)
	}
}

// TestMCPAnswerForms proves quarry mcp --answer-form: both (the default) sends the
// structured content and its compact text; text the text alone; structured the structured
// content alone, with an empty content list. A failure follows the same form, and an
// unknown form is refused saying which are accepted.
func TestMCPAnswerForms(t *testing.T) {
	call := func(ctx context.Context, op string, args json.RawMessage) (any, error) {
		if strings.Contains(string(args), "bad") {
			return nil, tools.Errorf(tools.CodeBadQuery, "symbol", "bad symbol")
		}
		return &tools.GotoResult{Symbol: "X", Results: []tools.Hit{{Hit: "definition", Path: "a.go", Line: 3, Name: "X", Kind: "function"}}, Errors: []tools.ErrorInfo{}}, nil
	}
	for _, form := range append([]string{""}, AnswerForms...) {
		cs := connect(t, newMCPServer(call, "test", form))
		for _, symbol := range []string{"X", "bad"} {
			res := callTool(t, cs, "fast_goto", map[string]any{"symbol": symbol})
			hasText := len(res.Content) == 1 && resultText(res) != ""
			hasStructured := res.StructuredContent != nil
			wantText, wantStructured := form != AnswerStructured, form != AnswerText
			if hasText != wantText || hasStructured != wantStructured || res.Content == nil {
				t.Errorf("form %q, symbol %s: text %v (want %v), structured %v (want %v), content %v", form, symbol, hasText, wantText, hasStructured, wantStructured, res.Content)
			}
			if res.IsError != (symbol == "bad") {
				t.Errorf("form %q, symbol %s: isError %v", form, symbol, res.IsError)
			}
			if symbol == "X" && wantText && !strings.HasPrefix(resultText(res), "a.go:3: function X") {
				t.Errorf("form %q: text %q, want the compact line of the hit", form, resultText(res))
			}
		}
	}
	if err := CheckAnswerForm("json"); err == nil || !strings.Contains(err.Error(), "both, text, structured") {
		t.Errorf("CheckAnswerForm(json) = %v, want the accepted forms", err)
	}
}
