package main

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/mcpserver"
)

// mcpSession connects an in-memory MCP client to the server of svc, as quarry mcp serves it.
func mcpSession(t *testing.T, svc *tools.Service) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := mcpserver.NewMCPServer(svc, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "quarry-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// varying lists, by JSON path ("*" any element of a list), the fields of an answer that
// legitimately differ between two runs of the same request; each must be present on both
// sides, and is then left out of the comparison. Every other field must be equal.
var varying = map[string][]string{
	// Every answer times its own run.
	"": {"elapsed_ms"},
	// manage_workspace index and quarry index each run the index: the run's own time.
	// Nothing else differs, as both runs find the workspace unchanged.
	"index": {"indexed.*.elapsed_ms"},
}

// TestJSONIsTheMCPAnswer runs each command with --json and the MCP tool of the same
// operation with the same request, through an MCP client session on mcpserver.NewMCPServer,
// and checks the two documents are equal field for field (only the fields of varying
// aside): a field renamed, added or missing on either side fails.
//
// quarry symbols is get_symbols (FILE from the current directory: {root} is the workspace);
// quarry outline, the outline of any file with every field, has no MCP tool.
func TestJSONIsTheMCPAnswer(t *testing.T) {
	root := smallRoot(t, map[string]string{
		"server.go": "package main\n\n// Server serves.\ntype Server struct{}\n\n// ServeHTTP answers.\nfunc (s *Server) ServeHTTP() { helper() }\n\nfunc helper() { ping() }\n\nfunc ping() { helper() }\n\nfunc main() { s := &Server{}; s.ServeHTTP(); helper() }\n",
		"pool.py":   "class Pool:\n    \"\"\"A pool of connections.\"\"\"\n\n    def acquire(self):\n        return self.release()\n\n    def release(self):\n        pass\n",
	})
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	svc.MaxBytes = tools.AgentMaxBytes // as quarry mcp serves agents
	cs := mcpSession(t, svc)
	tests := []struct {
		op   string // the contract's operation
		cli  string
		tool string
		args string
	}{
		{"search", "search helper --json", "fast_search", `{"query":"helper"}`},
		{"search", "search acquire --lang python --kind method --json", "fast_search", `{"query":"acquire","language":"python","kind":["method"]}`},
		{"search", "search connections --target content --context 1 --json", "fast_search", `{"query":"connections","target":"content","context_lines":1}`},
		{"goto", "goto helper --json", "fast_goto", `{"symbol":"helper"}`},
		{"goto", "goto helper --context-file server.go --line 11 --json", "fast_goto", `{"symbol":"helper","context_file":"server.go","line":11}`},
		{"refs", "refs helper --json", "fast_refs", `{"symbol":"helper"}`},
		{"refs", "refs release --include-definition --unresolved --json", "fast_refs", `{"symbol":"release","include_definition":true,"unresolved":true}`},
		{"calls", "callers helper --depth 3 --json", "trace_calls", `{"symbol":"helper","direction":"callers","depth":3}`},
		{"calls", "callees main --json", "trace_calls", `{"symbol":"main","direction":"callees","depth":1}`},
		{"explain", "explain release --json", "deep_dive", `{"symbol":"release"}`},
		{"explain", "explain Server --depth full --json", "deep_dive", `{"symbol":"Server","depth":"full"}`},
		{"symbols", "symbols {root}/server.go --json", "get_symbols", `{"file_path":"server.go"}`},
		{"symbols", "symbols {root}/pool.py --mode full --target acq --json", "get_symbols", `{"file_path":"pool.py","mode":"full","target":"acq"}`},
		{"symbols", "symbols {root}/server.go --mode minimal --limit 2 --cursor 1 --json", "get_symbols", `{"file_path":"server.go","mode":"minimal","limit":2,"cursor":"1"}`},
		{"index", "index --json", "manage_workspace", `{"operation":"index"}`},
		{"health", "health --json", "manage_workspace", `{"operation":"health"}`},
	}
	for _, tt := range tests {
		t.Run(tt.cli, func(t *testing.T) {
			cli := cliJSON(t, root, tt.op+".result", strings.Fields(strings.ReplaceAll(tt.cli, "{root}", root))...)
			res := callTool(t, cs, tt.tool, json.RawMessage(tt.args))
			if res.IsError {
				t.Fatalf("%s %s: %s", tt.tool, tt.args, textOf(res))
			}
			answer, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			got, want := decodeAny(t, "quarry "+tt.cli, cli), decodeAny(t, tt.tool+" "+tt.args, answer)
			for _, path := range append(varying[""], varying[tt.op]...) {
				leaveOut(t, "quarry "+tt.cli, got, path)
				leaveOut(t, tt.tool+" "+tt.args, want, path)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.MarshalIndent(got, "", "  ")
				w, _ := json.MarshalIndent(want, "", "  ")
				t.Errorf("quarry %s differs from %s %s:\nCLI %s\nMCP %s", tt.cli, tt.tool, tt.args, g, w)
			}
		})
	}
}

// callTool calls an MCP tool and returns its result.
func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", tool, err)
	}
	return res
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// decodeAny decodes the JSON document of what as generic JSON.
func decodeAny(t *testing.T, what string, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, data)
	}
	return v
}

// leaveOut deletes the field at the dotted path from v ("*": each element of a list),
// failing the test if it is not there: a field left out of the comparison must still exist.
func leaveOut(t *testing.T, what string, v any, path string) {
	t.Helper()
	parts := strings.Split(path, ".")
	var walk func(v any, i int, at string)
	walk = func(v any, i int, at string) {
		if parts[i] == "*" {
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				t.Errorf("%s: %s is not a list with elements", what, at)
				return
			}
			for _, e := range list {
				walk(e, i+1, at+".*")
			}
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			t.Errorf("%s: %s is not an object", what, at)
			return
		}
		next, ok := m[parts[i]]
		if !ok {
			t.Errorf("%s: no field %s", what, strings.TrimPrefix(at+"."+parts[i], "."))
			return
		}
		if i == len(parts)-1 {
			delete(m, parts[i])
			return
		}
		walk(next, i+1, strings.TrimPrefix(at+"."+parts[i], "."))
	}
	walk(v, 0, "")
}
