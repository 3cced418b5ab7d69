package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testWorkspace writes a small workspace and returns its service.
func testWorkspace(t *testing.T) *Service {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"server.go": "package main\n\n// Server serves.\ntype Server struct{}\n\n// ServeHTTP answers.\nfunc (s *Server) ServeHTTP() { helper() }\n\nfunc helper() {}\n\nfunc main() { s := &Server{}; s.ServeHTTP(); helper() }\n",
		"pool.py":   "class Pool:\n    def acquire(self):\n        return helper()\n",
	}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call runs op and checks its result against the operation's result schema.
func call(t *testing.T, s *Service, op, args string, into any) {
	t.Helper()
	res, err := s.Call(context.Background(), op, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Call(%s, %s): %v", op, args, err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := OperationNamed(op)
	if err := Validate(o.Name+".result", data); err != nil {
		t.Errorf("%s result does not validate: %v\n%s", op, err, data)
	}
	v := reflect.ValueOf(into).Elem()
	v.Set(reflect.Zero(v.Type())) // a result reused from a previous call must not keep its fields
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatal(err)
	}
}

func TestOperations(t *testing.T) {
	s := testWorkspace(t)
	var search SearchResult
	call(t, s, "fast_search", `{"query":"ServeHTTP"}`, &search)
	if len(search.Results) == 0 || search.Results[0].Name != "ServeHTTP" || search.Results[0].Path != "server.go" || search.TotalFilesSearched != 2 {
		t.Errorf("fast_search ServeHTTP: %+v", search)
	}
	var g GotoResult
	call(t, s, "fast_goto", `{"symbol":"helper","context_file":"server.go"}`, &g)
	if len(g.Results) != 1 || g.Results[0].Line != 9 {
		t.Errorf("fast_goto helper: %+v", g)
	}
	var sym SymbolsResult
	call(t, s, "get_symbols", `{"file_path":"server.go","mode":"full","limit":2}`, &sym)
	if sym.Language != "go" || len(sym.Results) != 2 || !sym.Truncated || sym.NextCursor != "2" || sym.Results[1].Name != "Server" || sym.Total < 4 {
		t.Errorf("get_symbols page 1: %+v", sym)
	}
	call(t, s, "get_symbols", `{"file_path":"server.go","cursor":"2","mode":"minimal"}`, &sym)
	if len(sym.Results) == 0 || sym.Truncated || sym.Results[0].Signature != "" {
		t.Errorf("get_symbols page 2 (minimal): %+v", sym)
	}
	call(t, s, "get_symbols", `{"file_path":"pool.py","target":"acq","mode":"full"}`, &sym)
	if len(sym.Results) != 1 || sym.Results[0].Parent != "Pool" || !strings.Contains(sym.Results[0].Body, "return helper()") {
		t.Errorf("get_symbols target acq: %+v", sym)
	}
	var refs RefsResult
	// helper is defined once, in Go: its uses are the Go calls (resolved in the file's
	// scope); pool.py's helper() is Python, another language's name.
	call(t, s, "fast_refs", `{"symbol":"helper","limit":1}`, &refs)
	if refs.Total != 2 || len(refs.Results) != 1 || refs.NextCursor != "1" || refs.Definition == nil || refs.Definition.Line != 9 ||
		refs.Results[0].Path != "server.go" || refs.Results[0].Container != "ServeHTTP" || refs.Results[0].Resolution != "scope" {
		t.Errorf("fast_refs helper: %+v", refs)
	}
	call(t, s, "fast_refs", `{"symbol":"helper","cursor":"1","kind":["call"]}`, &refs)
	if len(refs.Results) != 1 || refs.Truncated || refs.Results[0].Container != "main" || !strings.Contains(refs.Results[0].Text, "helper()") {
		t.Errorf("fast_refs helper page 2: %+v", refs)
	}
	// include_definition: the definition first, counted, paged with the uses.
	call(t, s, "fast_refs", `{"symbol":"helper","include_definition":true,"limit":2}`, &refs)
	if refs.Total != 3 || len(refs.Results) != 2 || refs.Results[0].Kind != "definition" || refs.Results[0].Line != 9 || refs.Results[1].Line != 7 || refs.NextCursor != "2" {
		t.Errorf("fast_refs helper include_definition: %+v", refs)
	}
	call(t, s, "fast_refs", `{"symbol":"helper","include_definition":true,"cursor":"2"}`, &refs)
	if len(refs.Results) != 1 || refs.Results[0].Line != 11 {
		t.Errorf("fast_refs helper include_definition page 2: %+v", refs)
	}
	// By id and by path:line, the same definition.
	defID := refs.Definition.ID
	for _, sym := range []string{defID, "server.go:9"} {
		call(t, s, "fast_refs", `{"symbol":"`+sym+`"}`, &refs)
		if refs.Total != 2 || refs.Definition == nil || refs.Definition.ID != defID {
			t.Errorf("fast_refs %s: %+v", sym, refs)
		}
	}
	// s.ServeHTTP() in main: s's type is not known there (a local), so the call is not
	// resolved, even though ServeHTTP is defined once: listed with unresolved only.
	call(t, s, "fast_refs", `{"symbol":"ServeHTTP"}`, &refs)
	if refs.Total != 0 {
		t.Errorf("fast_refs ServeHTTP: %+v", refs)
	}
	call(t, s, "fast_refs", `{"symbol":"ServeHTTP","unresolved":true}`, &refs)
	if refs.Total != 1 || refs.Results[0].Resolution != "" || refs.Results[0].Container != "main" {
		t.Errorf("fast_refs ServeHTTP unresolved: %+v", refs)
	}
	// A type: its uses in the file that defines it.
	call(t, s, "fast_refs", `{"symbol":"Server"}`, &refs)
	if refs.Definition == nil || refs.Total == 0 || refs.Results[0].Resolution != "scope" {
		t.Errorf("fast_refs Server: %+v", refs)
	}

	ref := filepath.Join(t.TempDir(), "lib")
	if err := os.MkdirAll(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ref, "lib.go"), []byte("package lib\n\nfunc ServeHTTP() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ws WorkspaceResult
	call(t, s, "manage_workspace", `{"operation":"add","path":`+jsonString(ref)+`,"name":"lib"}`, &ws)
	if len(ws.Indexed) != 1 || ws.Indexed[0].Files != 1 || len(ws.Workspaces) != 1 {
		t.Fatalf("add: %+v", ws)
	}
	id := ws.Workspaces[0].ID
	call(t, s, "manage_workspace", `{"operation":"list"}`, &ws)
	if len(ws.Workspaces) != 2 || !ws.Workspaces[0].Primary || ws.Workspaces[1].ID != id || !ws.Workspaces[1].Indexed {
		t.Errorf("list: %+v", ws)
	}
	call(t, s, "fast_search", `{"query":"ServeHTTP","workspace":"all","target":"definitions"}`, &search)
	if len(search.Results) < 2 || search.Results[0].Name != "ServeHTTP" || search.Results[1].Name != "ServeHTTP" ||
		search.Results[0].Workspace == search.Results[1].Workspace || search.TotalFilesSearched != 3 {
		t.Errorf("search all workspaces: %+v", search)
	}
	call(t, s, "manage_workspace", `{"operation":"health","id":"`+id+`"}`, &ws)
	if h := ws.Health; h == nil || h.Status != "healthy" {
		t.Errorf("health: %+v", ws.Health)
	}
	call(t, s, "manage_workspace", `{"operation":"stats","id":"`+id+`"}`, &ws)
	if len(ws.Workspaces) != 1 || ws.Workspaces[0].Files != 1 || ws.Health == nil || ws.Health.Status != "healthy" {
		t.Errorf("stats: %+v", ws)
	}
	call(t, s, "manage_workspace", `{"operation":"remove","id":"`+id+`","keep_index":true}`, &ws)
	if len(ws.Workspaces) != 1 || len(ws.Removed) != 0 {
		t.Errorf("remove keep_index: %+v", ws)
	}
	call(t, s, "manage_workspace", `{"operation":"clean"}`, &ws)
	if len(ws.Removed) != 1 || ws.Removed[0] != id {
		t.Errorf("clean after remove keep_index: %+v", ws)
	}
	call(t, s, "manage_workspace", `{"operation":"add","path":`+jsonString(ref)+`}`, &ws)
	call(t, s, "manage_workspace", `{"operation":"remove","id":"`+id+`"}`, &ws)
	if len(ws.Removed) != 1 || ws.Removed[0] != id {
		t.Errorf("remove: %+v", ws)
	}
	if _, err := os.Stat(filepath.Join(s.Root(), ".quarry", "indexes", id)); !os.IsNotExist(err) {
		t.Errorf("remove left the index directory: %v", err)
	}
	if _, err := s.Call(context.Background(), "manage_workspace", json.RawMessage(`{"operation":"lst"}`)); err == nil || AsError(err).Code != CodeBadValue || !strings.Contains(err.Error(), "did you mean list?") {
		t.Errorf("operation lst: %v", err)
	}
	if _, err := s.Call(context.Background(), "get_symbols", json.RawMessage(`{"file_path":"../outside.go"}`)); err == nil || AsError(err).Code != CodePathOutsideWorkspace {
		t.Errorf("get_symbols outside: %v", err)
	}
	if _, err := s.Call(context.Background(), "get_symbols", json.RawMessage(`{"file_path":"missing.go"}`)); err == nil || AsError(err).Code != CodeNotFound {
		t.Errorf("get_symbols missing: %v", err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestMaxBytes(t *testing.T) {
	s := testWorkspace(t)
	var full, cut SearchResult
	call(t, s, "fast_search", `{"query":"helper","target":"content"}`, &full)
	if len(full.Results) < 2 {
		t.Fatalf("helper: %d results, want several", len(full.Results))
	}
	one, _ := json.Marshal(full.Results[0])
	call(t, s, "fast_search", `{"query":"helper","target":"content","max_bytes":`+strconv.Itoa(len(one)+10)+`}`, &cut)
	if len(cut.Results) != 1 || !cut.Truncated || cut.TruncatedReason != TruncatedMaxBytes {
		t.Errorf("max_bytes of one result: %d results, truncated %v (%s)", len(cut.Results), cut.Truncated, cut.TruncatedReason)
	}
	s.MaxBytes = len(one) + 10 // the service's default budget applies to refs and outlines too
	var refs RefsResult
	call(t, s, "fast_refs", `{"symbol":"helper"}`, &refs)
	if len(refs.Results) >= 3 || refs.TruncatedReason != TruncatedMaxBytes || refs.NextCursor != strconv.Itoa(len(refs.Results)) {
		t.Errorf("refs under a budget: %+v", refs)
	}
}

// TestKeepOpen proves a kept index is reused by a burst of calls, closed once idle (so an
// index run can write), and dropped before a workspace operation re-indexes.
func TestKeepOpen(t *testing.T) {
	s := testWorkspace(t)
	s.Keep = 50 * time.Millisecond
	var res SearchResult
	call(t, s, "fast_search", `{"query":"ServeHTTP"}`, &res) // indexes, then keeps it open
	s.mu.Lock()
	first := len(s.open)
	var x any
	for k := range s.open {
		x = k
	}
	s.mu.Unlock()
	call(t, s, "fast_search", `{"query":"helper"}`, &res)
	s.mu.Lock()
	same := len(s.open) == 1
	for k := range s.open {
		same = same && any(k) == x
	}
	s.mu.Unlock()
	if first != 1 || !same {
		t.Fatalf("a burst of calls opened %d, then reused the index: %v", first, same)
	}
	var ws WorkspaceResult
	call(t, s, "manage_workspace", `{"operation":"index"}`, &ws) // would fail if the index stayed open
	if len(ws.Indexed) != 1 {
		t.Fatalf("index while kept open: %+v", ws)
	}
	call(t, s, "fast_search", `{"query":"helper"}`, &res)
	deadline := time.Now().Add(2 * time.Second)
	for {
		s.mu.Lock()
		n := len(s.open)
		s.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d indexes still open long after Keep", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Concurrent calls share and release the index safely.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := s.Search(context.Background(), SearchRequest{Query: "helper"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.open) != 0 {
		t.Errorf("Close left %d indexes open", len(s.open))
	}
}
