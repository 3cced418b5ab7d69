package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
)

// TestNavigationJSONIsTheAgentAnswer checks that refs, callers, callees, explain and goto
// with a context file print, with --json, what the agent's tools answer (elapsed time
// aside), each valid against its schema.
func TestNavigationJSONIsTheAgentAnswer(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	writeFiles(t, root, map[string]string{
		"server.go": "package main\n\n// Server serves.\ntype Server struct{}\n\n// ServeHTTP answers.\nfunc (s *Server) ServeHTTP() { helper() }\n\nfunc helper() { ping() }\n\nfunc ping() { helper() }\n\nfunc main() { s := &Server{}; s.ServeHTTP(); helper() }\n",
		"pool.py":   "class Pool:\n    def acquire(self):\n        return self.release()\n\n    def release(self):\n        pass\n",
	})
	tests := []struct {
		cli    string
		tool   string
		args   string
		schema string
	}{
		{"refs helper --json", "fast_refs", `{"symbol":"helper"}`, "refs.result"},
		{"refs server.go:11 --include-definition --unresolved --json", "fast_refs", `{"symbol":"server.go:11","include_definition":true,"unresolved":true}`, "refs.result"},
		{"callers helper --depth 3 --json", "trace_calls", `{"symbol":"helper","direction":"callers","depth":3}`, "calls.result"},
		{"callees main --depth 2 --json", "trace_calls", `{"symbol":"main","direction":"callees","depth":2}`, "calls.result"},
		{"explain release --json", "deep_dive", `{"symbol":"release"}`, "explain.result"},
		{"explain Server --depth full --json", "deep_dive", `{"symbol":"Server","depth":"full"}`, "explain.result"},
		{"goto helper --context-file server.go --line 11 --json", "fast_goto", `{"symbol":"helper","context_file":"server.go","line":11}`, "goto.result"},
	}
	svc, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for _, tt := range tests {
		got := withoutElapsed(t, cliJSON(t, root, tt.schema, strings.Fields(tt.cli)...))
		res, err := svc.Call(context.Background(), tt.tool, json.RawMessage(tt.args))
		if err != nil {
			t.Fatalf("%s %s: %v", tt.tool, tt.args, err)
		}
		data, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if want := withoutElapsed(t, data); !reflect.DeepEqual(got, want) {
			t.Errorf("quarry %s = %v\n%s %s = %v", tt.cli, got, tt.tool, tt.args, want)
		}
	}
}
