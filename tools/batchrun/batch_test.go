package batchrun

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/tools"
)

// The batch language over the search fixture (testdata/search/repo): every expected path
// and line below was read from the fixture's files.

// runBatch runs a batch in the json format and returns its entries, decoded.
func runBatch(t *testing.T, s *tools.Service, text string) []map[string]any {
	t.Helper()
	ans, err := Run(context.Background(), s, tools.BatchRequest{Batch: text, Format: tools.BatchJSON})
	if err != nil {
		t.Fatalf("batch %q: %v", text, err)
	}
	var out []map[string]any
	if err := json.Unmarshal(ans.JSON(), &out); err != nil {
		t.Fatalf("batch %q: the json format is not an array of objects: %v\n%s", text, err, ans.JSON())
	}
	if len(out) != len(ans.Entries) {
		t.Fatalf("batch %q: %d entries for %d statements", text, len(out), len(ans.Entries))
	}
	return out
}

// list returns an entry's list (results, nodes, values) as objects.
func list(t *testing.T, e map[string]any, key string) []map[string]any {
	t.Helper()
	raw, ok := e[key].([]any)
	if !ok {
		t.Fatalf("entry %v has no list %s", e, key)
	}
	out := make([]map[string]any, len(raw))
	for i, x := range raw {
		out[i], _ = x.(map[string]any)
	}
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestBatchOperations: one batch runs every operation, and each entry is that operation's
// answer (projected where asked), in the order written.
func TestBatchOperations(t *testing.T) {
	s := exprRepo(t, nil)
	got := runBatch(t, s, `search(q="ServeHTTP", kind=method) { name path line };
		files(q=handlers) { path };
		goto(Server) { brief };
		refs(symbol=Server, take=2) { path line kind };
		callers(symbol=adapt) { depth name path };
		callees(routes) { name };
		explain(symbol=Server) { brief };
		symbols(file=go/server/server.go) { name line };
		health() { status files };
		count(refs, symbol=Server);
		distinct(search, field=language, q=User);
		schema()`)
	if len(got) != 12 {
		t.Fatalf("%d entries, want 12", len(got))
	}
	for i, e := range got {
		if e["ok"] == false {
			t.Fatalf("statement %d failed: %v", i+1, e["error"])
		}
	}
	first := func(i int, key string) map[string]any {
		l := list(t, got[i], key)
		if len(l) == 0 {
			t.Fatalf("statement %d: no results: %v", i+1, got[i])
		}
		return l[0]
	}
	if r := first(0, "results"); !reflect.DeepEqual(keys(r), []string{"line", "name", "path"}) || r["name"] != "ServeHTTP" || r["path"] != "go/server/server.go" || r["line"] != 41.0 {
		t.Errorf("search: %v, want ServeHTTP at go/server/server.go:41 with only name, path and line", r)
	}
	if r := first(1, "results"); r["path"] != "go/server/handlers.go" || len(r) != 1 {
		t.Errorf("files: %v", r)
	}
	if r := first(2, "results"); !reflect.DeepEqual(keys(r), []string{"kind", "line", "name", "path"}) || r["line"] != 17.0 {
		t.Errorf("goto { brief }: %v, want Server at line 17 with path, line, name and kind", r)
	}
	refs := list(t, got[3], "results")
	if len(refs) != 2 || got[3]["truncated"] != true {
		t.Errorf("refs take=2: %v, want 2 uses, truncated", got[3])
	}
	if _, ok := got[3]["total"]; !ok {
		t.Errorf("refs: the contract's total is kept: %v", got[3])
	}
	if r := first(4, "nodes"); r["name"] != "adapt" || r["depth"] != 0.0 || r["path"] != "go/server/handlers.go" {
		t.Errorf("callers: the root %v, want adapt at depth 0 with its path", r)
	}
	if l := list(t, got[5], "nodes"); len(l) < 2 {
		t.Errorf("callees(routes): %v, want the root and its callees", l)
	}
	if e := got[6]; !reflect.DeepEqual(keys(e), []string{"kind", "line", "name", "path"}) || e["name"] != "Server" || e["kind"] != "struct" {
		t.Errorf("explain { brief }: %v", e)
	}
	syms := list(t, got[7], "results")
	if len(syms) == 0 || !slices.ContainsFunc(syms, func(m map[string]any) bool { return m["name"] == "ServeHTTP" && m["line"] == 41.0 }) {
		t.Errorf("symbols: %v", syms)
	}
	if e := got[8]; !reflect.DeepEqual(keys(e), []string{"files", "status"}) || e["files"].(float64) < 40 {
		t.Errorf("health { status files }: %v", e)
	}
	if n, ok := got[9]["count"].(float64); !ok || n < 3 || n != got[3]["total"] {
		t.Errorf("count(refs): %v, want the refs' total %v", got[9], got[3]["total"])
	}
	vals := list(t, got[10], "values")
	if got[10]["field"] != "language" || len(vals) < 2 || vals[0]["count"].(float64) < vals[len(vals)-1]["count"].(float64) {
		t.Errorf("distinct: %v, want several languages, most first", got[10])
	}
	ops := list(t, got[11], "operations")
	if len(ops) != len(batchOps) {
		t.Errorf("schema(): %d operations, want %d", len(ops), len(batchOps))
	}
}

// TestBatchOperators: each operator on each kind of parameter: a query-language field (into
// the query), a result field (a predicate), the page and the order.
func TestBatchOperators(t *testing.T) {
	s := exprRepo(t, nil)
	cases := []struct {
		batch string
		ok    func(r map[string]any) bool
		want  string
	}{
		{`search(q=user, lang!=python, take=50)`, func(r map[string]any) bool { return r["language"] != "python" }, "no Python"},
		{`search(q=user, lang=python, take=50)`, func(r map[string]any) bool { return r["language"] == "python" }, "only Python"},
		{`search(q=user, kind=method, take=50)`, func(r map[string]any) bool { return r["kind"] == "method" }, "only methods"},
		{`search(q=user, kind!=method, take=50)`, func(r map[string]any) bool { return r["kind"] != "method" }, "no methods"},
		{`search(q=user, line>=40, take=50)`, func(r map[string]any) bool { return r["line"].(float64) >= 40 }, "lines from 40"},
		{`search(q=user, line>40, take=50)`, func(r map[string]any) bool { return r["line"].(float64) > 40 }, "lines after 40"},
		{`search(q=user, line<=20, take=50)`, func(r map[string]any) bool { return r["line"].(float64) <= 20 }, "lines to 20"},
		{`search(q=user, line<20, take=50)`, func(r map[string]any) bool { return r["line"].(float64) < 20 }, "lines before 20"},
		{`search(q=user, name~="^get", take=50)`, func(r map[string]any) bool { return strings.HasPrefix(r["name"].(string), "get") }, "names starting get"},
		{`search(q=user, path~="\.ts$", take=50)`, func(r map[string]any) bool { return strings.HasSuffix(r["path"].(string), ".ts") }, "TypeScript paths"},
		{`search(q=user, score>0, hit=definition, take=50)`, func(r map[string]any) bool { return r["hit"] == "definition" }, "definitions"},
		{`search(q=user, hit!=definition, take=50)`, func(r map[string]any) bool { return r["hit"] != "definition" }, "no definitions"},
		{`search(q=user, stale=false, take=50)`, func(r map[string]any) bool { return r["stale"] == nil }, "nothing stale"},
		{`refs(Server, kind=type_usage)`, func(r map[string]any) bool { return r["kind"] == "type_usage" }, "type usages"},
		{`refs(Server, include_definition=true, kind!=type_usage)`, func(r map[string]any) bool { return r["kind"] == "definition" }, "the definition"},
		{`refs(Server, line>26, line<=47)`, func(r map[string]any) bool { l := r["line"].(float64); return l > 26 && l <= 47 }, "lines 27 to 47"},
		{`symbols(go/server/handlers.go, kind=method, line!=24)`, func(r map[string]any) bool { return r["kind"] == "method" && r["line"] != 24.0 }, "methods but adapt"},
	}
	for _, c := range cases {
		e := runBatch(t, s, c.batch)[0]
		if e["ok"] == false {
			t.Errorf("%s: %v", c.batch, e["error"])
			continue
		}
		rs := list(t, e, "results")
		if len(rs) == 0 {
			t.Errorf("%s: no results, want %s", c.batch, c.want)
		}
		for _, r := range rs {
			if !c.ok(r) {
				t.Errorf("%s: %v is not %s", c.batch, r, c.want)
				break
			}
		}
	}
	// The predicates are not silently dropped: the same search without them has what they
	// leave out.
	all := list(t, runBatch(t, s, `search(q=user, take=50)`)[0], "results")
	if !slices.ContainsFunc(all, func(r map[string]any) bool { return r["language"] == "python" }) {
		t.Fatalf("search(q=user) has no Python result: the lang!= case proves nothing")
	}
	// sort, skip and take.
	sorted := list(t, runBatch(t, s, `refs(Server, sort=-line)`)[0], "results")
	for i := 1; i < len(sorted); i++ {
		if sorted[i]["line"].(float64) > sorted[i-1]["line"].(float64) {
			t.Fatalf("sort=-line: %v", sorted)
		}
	}
	skipped := list(t, runBatch(t, s, `refs(Server, sort=-line, skip=1, take=1)`)[0], "results")
	if len(sorted) < 2 || len(skipped) != 1 || !reflect.DeepEqual(skipped[0], sorted[1]) {
		t.Errorf("skip=1 take=1: %v, want the second of %v", skipped, sorted)
	}
}

// TestBatchErrors: a syntax error, an unknown operation, parameter or field, or an operator
// a parameter does not accept rejects the whole batch: BAD_QUERY with the line, the column
// and a suggestion.
func TestBatchErrors(t *testing.T) {
	s := exprRepo(t, nil)
	cases := []struct{ batch, want string }{
		{`serch(q=x)`, "line 1, column 1: unknown operation serch; did you mean search?"},
		{`search(q=x); refs(symbl=Server)`, "line 1, column 19: refs has no parameter symbl; did you mean symbol?"},
		{`search(q=x, limt=3)`, "line 1, column 13: search has no parameter limt; did you mean limit?"},
		{`search(q=x, kind>method)`, "line 1, column 17: kind does not take >: the query language's enum field kind takes = !="},
		{`search(q=x, name>3)`, "line 1, column 17: name does not take >"},
		{`refs(Server, limit!=3)`, "line 1, column 19: limit takes = only"},
		{`refs(Server, take>=3)`, "line 1, column 18: take takes = only"},
		{`search(q="x)`, `line 1, column 10: unclosed string: add a closing "`},
		{`search(q=x`, `expected "," or ")"`},
		{"search(q=x);\nrefs(Server) { pth }", "line 2, column 16: refs's results have no field pth; did you mean path?"},
		{`search(q=x) { brief name }`, "{ brief } is a preset: write it alone"},
		{`count(explain, symbol=Server)`, `count of "explain": want a list operation`},
		{`distinct(search, q=x)`, "distinct needs field=F"},
		{`distinct(search, field=lnag, q=x)`, "did you mean lang"},
		{`search(q=x, line>=ten)`, "line>=ten: want a whole number"},
		{`search(q=x, name~="(")`, `is not an RE2 regular expression`},
		{`search(q=x, take=0)`, "take=0: want a whole number, 1 or more"},
		{`search(x, y)`, "a second value without a key"},
		{`health(w, x)`, "a second value without a key"},
		{`schema(x)`, "schema() takes no parameters"},
		{`refs(Server, sort=nme)`, "sort=nme: refs's results have no field nme to sort by"},
	}
	for _, c := range cases {
		_, err := Run(context.Background(), s, tools.BatchRequest{Batch: c.batch})
		var e *tools.Error
		if !errors.As(err, &e) || e.Code != tools.CodeBadQuery || e.Path != "batch" || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: %v, want BAD_QUERY saying %q", c.batch, err, c.want)
		}
	}
	for _, c := range []struct{ req tools.BatchRequest }{{tools.BatchRequest{Batch: "health()", Format: "jsn"}}, {tools.BatchRequest{Batch: "health()", MaxBytes: -1}}} {
		_, err := Run(context.Background(), s, c.req)
		var e *tools.Error
		if !errors.As(err, &e) || e.Code != tools.CodeBadValue {
			t.Errorf("%+v: %v, want BAD_VALUE", c.req, err)
		}
	}
}

// TestBatchStatementFailure: a statement that fails answers its error in its place; the
// others still run.
func TestBatchStatementFailure(t *testing.T) {
	s := exprRepo(t, nil)
	got := runBatch(t, s, `goto(Server, take=1) { name }; explain(NoSuchThing); explain(ServeHTTP) { name }`)
	if got[0]["ok"] == false || got[2]["ok"] == false {
		t.Fatalf("the other statements failed: %v", got)
	}
	env, _ := got[1]["error"].(map[string]any)
	if got[1]["ok"] != false || env["code"] != string(tools.CodeNotFound) {
		t.Errorf("explain(NoSuchThing): %v, want its NOT_FOUND envelope", got[1])
	}
	ans, err := Run(context.Background(), s, tools.BatchRequest{Batch: `goto(Server, take=1) { name }; explain(NoSuchThing)`})
	if err != nil {
		t.Fatal(err)
	}
	if text := ans.Compact(); !strings.Contains(text, "# explain(NoSuchThing): error NOT_FOUND: ") || !strings.HasPrefix(text, "# goto(Server, take=1) { name }: 1 result\nname\nServer\n") {
		t.Errorf("compact:\n%s", text)
	}
}

// TestBatchCompact: a header, the columns and one tab-separated row per result; a count is
// its header alone; without a projection the brief columns.
func TestBatchCompact(t *testing.T) {
	s := exprRepo(t, nil)
	ans, err := Run(context.Background(), s, tools.BatchRequest{Batch: `search(q="ServeHTTP", kind=method, take=1) { name path line }; count(refs, symbol=HandlerFunc); goto(Server)`})
	if err != nil {
		t.Fatal(err)
	}
	text := ans.Compact()
	lines := strings.Split(text, "\n")
	want := []string{
		`# search(q="ServeHTTP", kind=method, take=1) { name path line }: 1 result`,
		"name\tpath\tline",
		"ServeHTTP\tgo/server/server.go\t41",
	}
	if len(lines) < 6 || !reflect.DeepEqual(lines[:3], want) || !strings.HasPrefix(lines[3], "# count(refs, symbol=HandlerFunc): ") ||
		!strings.HasPrefix(lines[4], "# goto(Server): ") || lines[5] != "path\tline\tname\tkind" || !strings.HasPrefix(lines[6], "go/server/server.go\t17\tServer\tstruct") {
		t.Errorf("compact:\n%s", text)
	}
	if ans.Text() != text {
		t.Errorf("Text of a compact answer is not its compact text")
	}
	// { full }: every field a column; an error's lines all start with #.
	ans, err = Run(context.Background(), s, tools.BatchRequest{Batch: `goto(Server, take=1) { full }; explain(New)`})
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSuffix(ans.Compact(), "\n"), "\n")
	if cols := strings.Split(lines[1], "\t"); !slices.Contains(cols, "signature") || !slices.Contains(cols, "symbol_id") || len(strings.Split(lines[2], "\t")) != len(cols) {
		t.Errorf("{ full }: columns %q, row %q", lines[1], lines[2])
	}
	for _, l := range lines[3:] {
		if !strings.HasPrefix(l, "#") {
			t.Errorf("an error's line %q does not start with #:\n%s", l, ans.Compact())
		}
	}
	if len(lines) < 5 {
		t.Errorf("explain(New) is ambiguous in the fixture: want its error with the candidates on several lines:\n%s", ans.Compact())
	}
}

// TestBatchBudget: the statements share max_bytes in order: a list past it is cut from its
// end and marked; a statement with nothing left is its mark alone.
func TestBatchBudget(t *testing.T) {
	s := exprRepo(t, nil)
	text := `search(q=user, take=30); search(q=server, take=30)`
	full, err := Run(context.Background(), s, tools.BatchRequest{Batch: text, Format: tools.BatchJSON})
	if err != nil {
		t.Fatal(err)
	}
	var whole []json.RawMessage
	if err := json.Unmarshal(full.JSON(), &whole); err != nil || len(whole) != 2 {
		t.Fatalf("the answer: %v, %d statements", err, len(whole))
	}
	// Budgets that cut the first statement: the answer never passes max_bytes, the first
	// keeps some results and is marked, and the second is cut and marked too, or is its mark
	// alone when nothing is left (at least one budget leaves nothing).
	alone := 0
	for budget := len(whole[0]) * 2 / 3; budget > len(whole[0])/3; budget -= 32 {
		cut, err := Run(context.Background(), s, tools.BatchRequest{Batch: text, Format: tools.BatchJSON, MaxBytes: budget})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(cut.JSON()); n > budget {
			t.Errorf("max_bytes %d: the answer is %d bytes", budget, n)
		}
		var got []map[string]any
		if err := json.Unmarshal(cut.JSON(), &got); err != nil || len(got) != 2 {
			t.Fatalf("max_bytes %d: %v, %d statements", budget, err, len(got))
		}
		if got[0]["truncated_reason"] != "max_bytes" || len(list(t, got[0], "results")) == 0 {
			t.Errorf("max_bytes %d: the first statement: %v, want some results, cut by max_bytes", budget, got[0])
		}
		env, _ := got[1]["error"].(map[string]any)
		switch {
		case env != nil && strings.Contains(env["message"].(string), "max_bytes"):
			alone++
		case got[1]["truncated_reason"] != "max_bytes":
			t.Errorf("max_bytes %d: the second statement: %v, want its cut mark", budget, got[1])
		}
	}
	if alone == 0 {
		t.Error("no budget left the second statement its mark alone")
	}
}

// TestBatchSchemaFromRegistries: schema() and the help are generated from the contract's
// request types and the query language's registry: every request field is a parameter
// (but search's query document list and the cursors), and every field of the query language
// is one of search's.
func TestBatchSchemaFromRegistries(t *testing.T) {
	l := BatchSchema()
	help := BatchHelp()
	for _, o := range l.Operations {
		if !strings.Contains(help, "  "+o.Name+": ") || !strings.Contains(help, o.Example) {
			t.Errorf("quarry help batch lacks %s or its example", o.Name)
		}
		bo, _ := batchOpNamed(o.Name)
		if bo.Base == "" || bo.Base == "health" {
			continue
		}
		op, _ := tools.OperationNamed(bo.Base)
		for _, f := range tools.RequestFields(op.Request) {
			if f == "searches" || f == "cursor" || bo.Fixed[f] != nil {
				continue
			}
			if !slices.ContainsFunc(o.Parameters, func(p BatchParam) bool { return p.Name == f }) {
				t.Errorf("%s: the request field %s is not a parameter", o.Name, f)
			}
		}
	}
	search := l.Operations[0]
	for _, name := range []string{"lang", "kind", "line", "path", "name", "doc", "body", "content"} {
		if !slices.ContainsFunc(search.Parameters, func(p BatchParam) bool { return p.Name == name && len(p.Operators) > 0 }) {
			t.Errorf("search has no parameter %s with its operators", name)
		}
	}
	for _, p := range search.Parameters {
		if p.Name == "line" && !slices.Equal(p.Operators, []string{"=", "!=", ">", "<", ">=", "<="}) {
			t.Errorf("search's line takes %v", p.Operators)
		}
	}
}

// A batch's symbols takes path, the query language's name of a file, as it takes file and
// file_path, where path used to be refused; schema() lists both aliases.
func TestBatchSymbolsTakesPath(t *testing.T) {
	s := smallRepo(t, map[string]string{"a.go": serverGo})
	var texts []string
	for _, key := range []string{"file_path", "file", "path"} {
		a, err := Run(context.Background(), s, tools.BatchRequest{Batch: "symbols(" + key + "=a.go, kind=method) { name line }"})
		if err != nil {
			t.Fatalf("symbols(%s=a.go): %v", key, err)
		}
		text := a.Text()
		texts = append(texts, strings.SplitN(text, "\n", 2)[1])
		if !strings.Contains(text, "Start\t5") || strings.Contains(text, "error") {
			t.Errorf("symbols(%s=a.go) = %q, want a.go's methods", key, text)
		}
	}
	if texts[0] != texts[1] || texts[1] != texts[2] {
		t.Errorf("symbols by file_path, file and path differ: %q", texts)
	}
	for _, op := range BatchSchema().Operations {
		if op.Name != "symbols" {
			continue
		}
		for _, p := range op.Parameters {
			if p.Name == "file_path" && !slices.Equal(p.Aliases, []string{"file", "path"}) {
				t.Errorf("schema(): symbols' file_path has aliases %v, want [file path]", p.Aliases)
			}
		}
	}
}
