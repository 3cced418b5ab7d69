package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestBatchEqualsSeparateCommands: each entry of a batch's json answer is what the separate
// command prints with --json (elapsed time aside), in the order written, a failure included.
func TestBatchEqualsSeparateCommands(t *testing.T) {
	root := exprRoot(t)
	statements := []struct {
		batch  string
		cli    []string
		schema string
	}{
		{`search(q="ServeHTTP", kind=method)`, []string{"search", "ServeHTTP", "--kind", "method", "--json"}, "search.result"},
		{`search(q=users, target=files, limit=3)`, []string{"search", "users", "--target", "files", "--limit", "3", "--json"}, "search.result"},
		{`goto(Server)`, []string{"goto", "Server", "--json"}, "goto.result"},
		{`refs(symbol=Server, kind=type_usage)`, []string{"refs", "Server", "--kind", "type_usage", "--json"}, "refs.result"},
		{`callers(adapt, depth=2)`, []string{"callers", "adapt", "--depth", "2", "--json"}, "calls.result"},
		{`callees(routes)`, []string{"callees", "routes", "--json"}, "calls.result"},
		{`explain(symbol=Server)`, []string{"explain", "Server", "--json"}, "explain.result"},
	}
	var texts []string
	for _, s := range statements {
		texts = append(texts, s.batch)
	}
	code, out, errOut := quarry(t, "", "--root", root, "q", strings.Join(texts, "; ")+"; explain(NoSuchThing)", "--format", "json")
	if code != exitOK {
		t.Fatalf("quarry q: exit %d: %s", code, errOut)
	}
	var entries []json.RawMessage
	if err := json.Unmarshal([]byte(out), &entries); err != nil || len(entries) != len(statements)+1 {
		t.Fatalf("quarry q --format json: %v, %d entries\n%s", err, len(entries), out)
	}
	for i, s := range statements {
		want := cliJSON(t, root, s.schema, s.cli...)
		if got, w := withoutElapsed(t, entries[i]), withoutElapsed(t, want); !reflect.DeepEqual(got, w) {
			t.Errorf("%s in a batch = %v\nquarry %s = %v", s.batch, got, strings.Join(s.cli, " "), w)
		}
	}
	_, o, _ := quarry(t, "", "--root", root, "explain", "NoSuchThing", "--json")
	if got, w := withoutElapsed(t, entries[len(statements)]), withoutElapsed(t, []byte(o)); !reflect.DeepEqual(got, w) || got["ok"] != false {
		t.Errorf("a failing statement = %v, want the envelope quarry explain prints: %v", got, w)
	}
}

// TestBatchCommand: the compact format by default, the batch from standard input, and a bad
// batch as a positioned BAD_QUERY envelope.
func TestBatchCommand(t *testing.T) {
	root := exprRoot(t)
	code, out, errOut := quarry(t, "goto(Server, take=1) { name path line }\n", "--root", root, "q")
	if code != exitOK || out != "# goto(Server, take=1) { name path line }: 1 result\nname\tpath\tline\nServer\tgo/server/server.go\t17\n" {
		t.Errorf("quarry q from stdin: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = quarry(t, "", "--root", root, "q", "refs(symbl=Server)", "--json")
	var env struct {
		OK    bool
		Error struct{ Code, Message, Path string }
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || code == exitOK || env.Error.Code != "BAD_QUERY" ||
		env.Error.Message != "line 1, column 6: refs has no parameter symbl; did you mean symbol? (parameters: "+strings.SplitN(env.Error.Message, "(parameters: ", 2)[1] {
		t.Errorf("a bad batch: exit %d, %+v", code, env)
	}
	code, out, _ = quarry(t, "", "help", "batch")
	if code != exitOK || !strings.Contains(out, "Operators:") || !strings.Contains(out, "  callers: ") {
		t.Errorf("quarry help batch: exit %d\n%s", code, out)
	}
}
