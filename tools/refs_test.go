package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// navWorkspace writes a workspace whose names are defined more than once, in Go, Python,
// TypeScript, Java and Rust, and returns its service.
func navWorkspace(t *testing.T) *Service {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		// Go: two packages define Open; main imports one of them, and calls a method on a
		// receiver of a known type.
		"go.mod":           "module example.com/app\n",
		"store/store.go":   "package store\n\ntype DB struct{}\n\nfunc Open(name string) *DB { return &DB{} }\n\nfunc (d *DB) Close() error { return nil }\n\nfunc (d *DB) Reset() { d.Close() }\n",
		"cache/cache.go":   "package cache\n\ntype Cache struct{}\n\nfunc Open() *Cache { return nil }\n\nfunc (c *Cache) Close() error { return nil }\n\nfunc warm() { Open() }\n",
		"cmd/app/main.go":  "package main\n\nimport \"example.com/app/store\"\n\nfunc main() {\n\tdb := store.Open(\"x\")\n\tdefer db.Close()\n}\n",
		"cmd/app/other.go": "package main\n\nimport c \"example.com/app/cache\"\n\nfunc other() { c.Open() }\n",
		// Go: a cycle (ping and pong call each other) below main's caller chain.
		"cmd/app/cycle.go": "package main\n\nfunc ping(n int) { if n > 0 { pong(n - 1) } }\n\nfunc pong(n int) { ping(n); println(n) }\n\nfunc start() { ping(3); other() }\n",
		// Python: two modules define save; one is imported by name, one through its module.
		"py/models.py":  "class Model:\n    def save(self):\n        self.validate()\n\n    def validate(self):\n        pass\n\n\ndef save(x):\n    return x\n",
		"py/forms.py":   "def save(form):\n    return form\n",
		"py/special.py": "from .models import Model\n\n\nclass Special(Model):\n    def save(self):\n        self.validate()\n        super().save()\n",
		// An import of another module's urlencode, in a file defining its own.
		"py/util.py": "from urllib.parse import urlencode as original_urlencode\n\n\ndef urlencode(q):\n    return original_urlencode(q)\n",
		// A field named like a type (x.Reader.Peek()), in Go; a variable named like a module
		// (bytes.split_to()), in Rust: neither says which Peek or split_to is meant.
		"store/peek.go":   "package store\n\ntype Reader struct{}\n\nfunc (r *Reader) Peek() {}\n",
		"cache/peek.go":   "package cache\n\ntype Reader struct{}\n\nfunc (r *Reader) Peek() {}\n\nfunc use(x struct{ Reader *Reader }) { x.Reader.Peek() }\n",
		"rs/src/bytes.rs": "pub fn split_to(n: usize) -> usize { n }\n",
		// Declared types: a Go parameter, a Java field and parameter, a Python annotation,
		// a TypeScript parameter.
		"store/use.go": "package store\n\nfunc Flush(d *DB) { d.Close() }\n",
		// A Go import path names a directory: path/filepath/path.go is not package path.
		"path/path.go":           "package path\n\nfunc Clean(p string) string { return p }\n",
		"path/filepath/path.go":  "package filepath\n\nfunc Clean(p string) string { return p }\n",
		"cmd/app/clean.go":       "package main\n\nimport \"path\"\n\nfunc tidy() string { return path.Clean(\"x\") }\n",
		"java/com/b/Runner.java": "package com.b;\n\nimport com.a.Task;\n\npublic class Runner {\n    private final Task task = Task.make();\n    void go(Job job) { this.task.run(); job.run(); }\n}\n",
		"py/hints.py":            "from .models import Model\n\n\ndef act(m: Model):\n    m.validate()\n",
		"ts/sched.ts":            "export class Scheduler {\n  schedule(): void {}\n}\n",
		"ts/other.ts":            "export class Other {\n  schedule(): void {}\n}\n",
		"ts/run.ts":              "import { Scheduler } from './sched'\n\nexport function run(s: Scheduler) { s.schedule() }\n",
		// reduce is defined once, but keys.reduce() is the array method.
		"ts/reduce.ts": "export function reduce(f: any) { return f }\n\nexport function sum(keys: number[]) { return keys.reduce((a, b) => a + b, 0) }\n",
		// A Java method inherited from a base class, called without this.
		"java/com/a/Base.java":  "package com.a;\n\npublic class Base {\n    protected boolean cas(int a, int b) { return true; }\n}\n",
		"java/com/b/Lock.java":  "package com.b;\n\nimport com.a.Base;\n\npublic class Lock extends Base {\n    void lock() { cas(0, 1); }\n}\n",
		"java/com/b/Other.java": "package com.b;\n\npublic class Other {\n    boolean cas(int a, int b) { return false; }\n}\n",
		"rs/src/other.rs":       "pub struct B;\n\nimpl B {\n    pub fn split_to(&self) {}\n}\n\nfn f(bytes: B) { bytes.split_to(); }\n",
		"py/views.py":           "from .models import save\nfrom . import forms\n\n\ndef create():\n    save(1)\n    forms.save(2)\n",
		// TypeScript: two files export format; one is imported.
		"ts/date.ts": "export function format(d: Date): string { return '' }\n",
		// money.ts declares format with overloads: one definition.
		"ts/money.ts": "export function format(n: number): string\nexport function format(n: string): string\nexport function format(n: any): string { return '' }\n",
		"ts/ui.ts":    "import { format } from './money'\nimport * as date from './date'\n\nexport function show() { format(1); date.format(new Date()) }\n",
		// Java: two classes define run; one is imported, one is in the same package.
		"java/com/a/Task.java": "package com.a;\n\npublic class Task {\n    public void run() {}\n    public static Task make() { return new Task(); }\n}\n",
		"java/com/b/Job.java":  "package com.b;\n\npublic class Job {\n    public void run() {}\n    public void again() { run(); }\n}\n",
		"java/com/b/Main.java": "package com.b;\n\nimport com.a.Task;\n\npublic class Main {\n    void go() { Task t = Task.make(); t.run(); }\n}\n",
		// Rust: two modules define parse; one is brought in with use.
		"rs/src/json.rs": "pub fn parse(s: &str) -> i32 { 0 }\n",
		"rs/src/toml.rs": "pub fn parse(s: &str) -> i32 { 1 }\n",
		"rs/src/main.rs": "mod json;\nmod toml;\nuse crate::json::parse;\n\nfn main() { parse(\"a\"); toml::parse(\"b\"); }\n",
		// Local variables whose binding says their type: a call's declared result (the first
		// of Go's two), a composite literal, a field, a constructor, Rust's Self; a range
		// variable says nothing.
		"store/local.go":  "package store\n\ntype Pool struct{ db *DB }\n\nfunc NewPool() (*Pool, error) { return &Pool{}, nil }\n\nfunc (p *Pool) Get() *DB { return p.db }\n\nfunc use(dbs []*DB) {\n\tp, err := NewPool()\n\t_ = err\n\td := p.Get()\n\td.Close()\n\tq := &Pool{}\n\tx := q.db\n\tx.Close()\n\tfor _, e := range dbs {\n\t\te.Close()\n\t}\n\tnew(Pool).Get().Close()\n}\n",
		"py/local.py":     "from .models import Model\n\n\ndef run(items):\n    m = Model()\n    m.validate()\n    for k in items:\n        k.validate()\n",
		"ts/local.ts":     "import { Scheduler } from './sched'\n\nexport function go() {\n  const s = new Scheduler()\n  s.schedule()\n}\n",
		"rs/src/local.rs": "pub struct Counter { n: i32 }\n\nimpl Counter {\n    pub fn new() -> Self { Counter { n: 0 } }\n    pub fn split_to(&self) {}\n}\n\nfn g() {\n    let c = Counter::new();\n    c.split_to();\n}\n",
		// Java: a field and a method named alike; a use called is the method, one not the field.
		"java/com/b/Holder.java": "package com.b;\n\npublic class Holder {\n    private final Job job = new Job();\n    Job job() { return job; }\n    void go() { job.run(); job(); }\n}\n",
		"java/com/b/Pool.java":   "package com.b;\n\nimport com.a.Task;\n\npublic class Pool {\n    private Task current = new Task();\n    void go() {\n        var j = new Job();\n        j.run();\n        current.run();\n    }\n}\n",
	}
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// refLines returns the uses of symbol as "path:line resolution", in order.
func refLines(t *testing.T, s *Service, symbol string, unresolved bool) []string {
	t.Helper()
	var refs RefsResult
	args := `{"symbol":"` + symbol + `"`
	if unresolved {
		args += `,"unresolved":true`
	}
	call(t, s, "fast_refs", args+`}`, &refs)
	var out []string
	for _, r := range refs.Results {
		res := r.Resolution
		if res == "" {
			res = "unresolved"
		}
		out = append(out, r.Path+":"+strconv.Itoa(r.Line)+" "+res)
	}
	return out
}

// TestRefsResolveSameNamedDefinitions: uses of a name defined more than once are told apart
// by scope, receiver, import and package, in Go, Python, TypeScript, Java and Rust.
func TestRefsResolveSameNamedDefinitions(t *testing.T) {
	s := navWorkspace(t)
	cases := []struct {
		symbol string
		want   []string
	}{
		// Go: store.Open through the import; cache.Open in its own package and through an
		// aliased import; d.Close() on the method's receiver.
		{"store/store.go:5", []string{"cmd/app/main.go:6 import"}},
		{"cache/cache.go:5", []string{"cache/cache.go:9 scope", "cmd/app/other.go:5 import"}},
		// Python: save imported by name from .models; forms.save through the module.
		{"py/models.py:9", []string{"py/views.py:1 import", "py/views.py:6 import"}},
		{"py/forms.py:1", []string{"py/views.py:7 import"}},
		{"py/models.py:5", []string{"py/hints.py:5 receiver", "py/local.py:6 receiver", "py/models.py:3 receiver", "py/special.py:6 receiver"}}, // m: Model; m = Model(); inherited by Special
		{"py/models.py:2", []string{"py/special.py:7 receiver"}},                                                                                // super().save()
		{"py/util.py:4", nil}, // not the import of urllib's
		{"store/peek.go:5", nil},
		{"rs/src/bytes.rs:1", nil},
		// TypeScript: format imported from ./money; date.format through the namespace.
		{"ts/money.ts:1", []string{"ts/ui.ts:1 import", "ts/ui.ts:4 import"}},
		{"ts/money.ts:3", []string{"ts/ui.ts:1 import", "ts/ui.ts:4 import"}}, // another overload, the same uses
		{"ts/date.ts:1", []string{"ts/ui.ts:4 import"}},
		// Java: Task.make() by the type; run() in Job's own class.
		{"java/com/a/Task.java:5", []string{"java/com/b/Main.java:6 qualified", "java/com/b/Runner.java:6 qualified"}},
		{"java/com/b/Job.java:4", []string{"java/com/b/Holder.java:6 receiver", "java/com/b/Job.java:5 scope", "java/com/b/Pool.java:9 receiver", "java/com/b/Runner.java:7 receiver"}}, // var j = new Job(); job.run(), Job job
		{"java/com/a/Task.java:4", []string{"java/com/b/Main.java:6 receiver", "java/com/b/Pool.java:10 receiver", "java/com/b/Runner.java:7 receiver"}},                                // Task t = ...; t.run() on one line; a Task field with and without this
		// db := store.Open(), d := p.Get() (p, err := NewPool()), x := q.db (q := &Pool{}); d.Close(), d *DB;
		// e.Close() on a range variable over []*DB; new(Pool).Get().Close() through Get's declared result
		{"store/store.go:7", []string{"cmd/app/main.go:7 receiver", "store/local.go:13 receiver", "store/local.go:16 receiver", "store/local.go:18 receiver", "store/local.go:20 receiver", "store/store.go:9 receiver", "store/use.go:3 receiver"}},
		{"path/path.go:3", []string{"cmd/app/clean.go:5 import"}},
		{"ts/reduce.ts:1", nil},
		{"java/com/a/Base.java:4", []string{"java/com/b/Lock.java:6 receiver"}},
		{"path/filepath/path.go:3", nil},                                              // d.Close(), d *DB
		{"ts/sched.ts:2", []string{"ts/local.ts:5 receiver", "ts/run.ts:3 receiver"}}, // s.schedule(), s: Scheduler, s = new Scheduler()
		{"java/com/b/Holder.java:5", []string{"java/com/b/Holder.java:6 scope"}},      // job(), not job
		{"rs/src/local.rs:5", []string{"rs/src/local.rs:10 receiver"}},                // let c = Counter::new() -> Self
		// Rust: parse brought in by use crate::json::parse; toml::parse through the module.
		{"rs/src/json.rs:1", []string{"rs/src/main.rs:3 import", "rs/src/main.rs:5 import"}},
		{"rs/src/toml.rs:1", []string{"rs/src/main.rs:5 qualified"}},
	}
	for _, c := range cases {
		got := refLines(t, s, c.symbol, false)
		if !slices.Equal(got, c.want) {
			t.Errorf("refs %s:\n got %q\nwant %q", c.symbol, got, c.want)
		}
	}
	// k.validate() on a loop variable: its binding does not say the type, so it is
	// unresolved, listed only with unresolved, though validate is defined once.
	for symbol, want := range map[string][]string{"py/models.py:5": {"py/local.py:8 unresolved"}} {
		got := refLines(t, s, symbol, true)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("refs --unresolved %s: %q, want %s among them", symbol, got, w)
			}
		}
	}
}

// TestRefsAmbiguousAndUnknown: a name defined more than once is an error listing the
// definitions and how to pick one; a path:line inside no definition is not found.
func TestRefsAmbiguousAndUnknown(t *testing.T) {
	s := navWorkspace(t)
	_, err := s.Refs(t.Context(), RefsRequest{Symbol: "Open"})
	e, ok := err.(*Error)
	if !ok || e.Code != CodeBadValue || !strings.Contains(e.Message, "Open is defined 2 times") ||
		!strings.Contains(e.Message, "store/store.go:5") || !strings.Contains(e.Message, "cache/cache.go:5") || !strings.Contains(e.Message, "path:line") {
		t.Errorf("refs Open: %v", err)
	}
	_, err = s.Refs(t.Context(), RefsRequest{Symbol: "go.mod:1"})
	if e, ok := err.(*Error); !ok || e.Code != CodeNotFound {
		t.Errorf("refs go.mod:1: %v, want NOT_FOUND", err)
	}
}

// TestGotoResolvesFromTheContextFile: goto with a context file puts the definition the file
// sees first, with the reason, and marks the others name-only.
func TestGotoResolvesFromTheContextFile(t *testing.T) {
	s := navWorkspace(t)
	cases := []struct {
		args, wantPath, wantWhy string
	}{
		{`{"symbol":"store.Open","context_file":"cmd/app/main.go","line":6}`, "store/store.go", "import"},
		{`{"symbol":"c.Open","context_file":"cmd/app/other.go","line":5}`, "cache/cache.go", "import"},
		{`{"symbol":"Open","context_file":"cache/cache.go","line":9}`, "cache/cache.go", "scope"},
		{`{"symbol":"save","context_file":"py/views.py","line":6}`, "py/models.py", "import"},
		{`{"symbol":"forms.save","context_file":"py/views.py","line":7}`, "py/forms.py", "import"},
		{`{"symbol":"format","context_file":"ts/ui.ts","line":4}`, "ts/money.ts", "import"},
		{`{"symbol":"parse","context_file":"rs/src/main.rs","line":5}`, "rs/src/json.rs", "import"},
	}
	for _, c := range cases {
		var g GotoResult
		call(t, s, "fast_goto", c.args, &g)
		if len(g.Results) < 2 || g.Results[0].Path != c.wantPath || g.Results[0].Resolution != c.wantWhy || g.Results[1].Resolution != "name-only" {
			var got []string
			for _, h := range g.Results {
				got = append(got, h.Path+" "+h.Resolution)
			}
			t.Errorf("goto %s: %q, want %s [%s] first and the others name-only", c.args, got, c.wantPath, c.wantWhy)
		}
	}
	if _, err := s.Call(t.Context(), "fast_goto", []byte(`{"symbol":"Open","line":3}`)); err == nil {
		t.Error("goto with a line and no context_file: no error")
	}
}

// TestNavigationFollowsEdits: re-indexing after an edit that adds a caller shows it in the
// callers; deleting a definition leaves its former uses unresolved, and a use's resolution
// moves with an import that changes.
func TestNavigationFollowsEdits(t *testing.T) {
	s := navWorkspace(t)
	ctx := t.Context()
	callers := func(symbol string) []string {
		t.Helper()
		res, err := s.Calls(ctx, CallsRequest{Symbol: symbol, Direction: CallsCallers})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range res.Nodes[1:] {
			out = append(out, n.Name)
		}
		return out
	}
	if got := callers("store/store.go:5"); !slices.Equal(got, []string{"main"}) {
		t.Fatalf("callers of store's Open before the edit: %q", got)
	}
	write := func(p, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(s.Root(), filepath.FromSlash(p)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Index(ctx, IndexRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	// other.go switches from cache to store: its Open call moves with the import.
	write("cmd/app/other.go", "package main\n\nimport \"example.com/app/store\"\n\nfunc other() { store.Open(\"y\") }\n")
	if got := callers("store/store.go:5"); !slices.Equal(got, []string{"other", "main"}) && !slices.Equal(got, []string{"main", "other"}) {
		t.Errorf("callers of store's Open after other.go imports store: %q", got)
	}
	if got := callers("cache/cache.go:5"); !slices.Equal(got, []string{"warm"}) {
		t.Errorf("callers of cache's Open after other.go stopped importing cache: %q", got)
	}
	// Deleting store's Open: main's call resolves to nothing (cache's Open is not imported).
	write("store/store.go", "package store\n\ntype DB struct{}\n\nfunc (d *DB) Close() error { return nil }\n")
	var refs RefsResult
	call(t, s, "fast_refs", `{"symbol":"cache/cache.go:5","unresolved":true}`, &refs)
	var unresolved []string
	for _, r := range refs.Results {
		if r.Resolution == "" {
			unresolved = append(unresolved, r.Path+":"+strconv.Itoa(r.Line))
		}
	}
	if !slices.Contains(unresolved, "cmd/app/main.go:6") {
		t.Errorf("after store's Open was deleted, main.go's call is not among the unresolved uses: %q", unresolved)
	}
}

// TestUnknownSymbolSuggests: a name that defines nothing is NOT_FOUND with the nearest
// definitions.
func TestUnknownSymbolSuggests(t *testing.T) {
	s := navWorkspace(t)
	_, err := s.Explain(t.Context(), ExplainRequest{Symbol: "pings"})
	e, ok := err.(*Error)
	if !ok || e.Code != CodeNotFound || !strings.Contains(e.Message, "the nearest: ping (function cmd/app/cycle.go:3)") {
		t.Errorf("explain pings: %v", err)
	}
}

// TestRefsAllWorkspaces: with workspace all, each workspace lists the uses of its own
// definition of the symbol, each use saying its workspace; path:line names a definition in
// whichever workspace has it; a workspace that does not define the name adds its uses by
// name only with unresolved.
func TestRefsAllWorkspaces(t *testing.T) {
	s := navWorkspace(t)
	lib := filepath.Join(t.TempDir(), "lib")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package lib\n\nfunc NewPool() {}\n\nfunc use() { NewPool() }\n\nfunc tidy() { Clean() }\n"
	if err := os.WriteFile(filepath.Join(lib, "lib.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var ws WorkspaceResult
	call(t, s, "manage_workspace", `{"operation":"add","path":`+jsonString(lib)+`,"name":"lib"}`, &ws)
	id := ws.Workspaces[0].ID
	lines := func(args string) []string {
		var refs RefsResult
		call(t, s, "fast_refs", args, &refs)
		var out []string
		for _, r := range refs.Results {
			out = append(out, r.Workspace+" "+r.Path+":"+strconv.Itoa(r.Line)+" "+r.Resolution)
		}
		return out
	}
	// NewPool: store's in the primary, lib's in lib; each resolved at home.
	got := lines(`{"symbol":"NewPool","workspace":"all"}`)
	if len(got) != 2 || !strings.HasSuffix(got[0], " store/local.go:10 scope") || strings.HasPrefix(got[0], id) || got[1] != id+" lib.go:5 scope" {
		t.Errorf("refs NewPool all: %q, want store/local.go:10 in the primary, lib.go:5 in %s", got, id)
	}
	// path:line of lib's definition: only lib defines it there.
	if got := lines(`{"symbol":"lib.go:3","workspace":"all"}`); !slices.Equal(got, []string{id + " lib.go:5 scope"}) {
		t.Errorf("refs lib.go:3 all: %q", got)
	}
	// Clean is defined twice in the primary: ambiguous, whatever the other workspaces hold.
	var e *Error
	callErr := func(args string) error {
		_, err := s.Call(context.Background(), "fast_refs", json.RawMessage(args))
		return err
	}
	if err := callErr(`{"symbol":"Clean","workspace":"all"}`); !errors.As(err, &e) || e.Code != CodeBadValue {
		t.Errorf("refs Clean all: %v, want BAD_VALUE listing the candidates", err)
	}
	// A path:line no workspace has a definition at.
	if err := callErr(`{"symbol":"nowhere.go:3","workspace":"all"}`); !errors.As(err, &e) || e.Code != CodeNotFound {
		t.Errorf("refs nowhere.go:3 all: %v, want NOT_FOUND", err)
	}
	// Open is defined in the primary only; lib's uses of a name it does not define come
	// with unresolved.
	if got := lines(`{"symbol":"path/path.go:3","workspace":"all","unresolved":true}`); !slices.Contains(got, id+" lib.go:7 ") {
		t.Errorf("refs path.Clean all unresolved: %q, want lib.go:7 by name", got)
	}
}

// TestQualifiedSymbol: a navigation request's symbol may be qualified as code writes it: a
// Go package (server.New, pool.New: the same name in two packages), an enclosing type
// (Server.ServeHTTP); a qualifier that names nothing holding it is NOT_FOUND.
func TestQualifiedSymbol(t *testing.T) {
	s := exprRepo(t, nil)
	for _, c := range []struct {
		symbol, path string
		line         int
	}{
		{"server.New", "go/server/server.go", 26},
		{"pool.New", "go/pool/pool.go", 50},
		{"Server.ServeHTTP", "go/server/server.go", 41},
	} {
		var res ExplainResult
		call(t, s, "deep_dive", `{"symbol":"`+c.symbol+`"}`, &res)
		if res.Definition.Path != c.path || res.Definition.Line != c.line {
			t.Errorf("explain %s: %s:%d, want %s:%d", c.symbol, res.Definition.Path, res.Definition.Line, c.path, c.line)
		}
	}
	for _, bad := range []string{"config.New", "New"} {
		_, err := s.Call(context.Background(), "deep_dive", json.RawMessage(`{"symbol":"`+bad+`"}`))
		var e *Error
		want := map[string]Code{"config.New": CodeNotFound, "New": CodeBadValue}[bad]
		if !errors.As(err, &e) || e.Code != want {
			t.Errorf("explain %s: %v, want %s", bad, err, want)
		}
	}
}
