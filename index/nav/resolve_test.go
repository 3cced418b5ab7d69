package nav

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/golang"
	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/storetest"
	"github.com/quarrysearch/quarry/languages"
)

// extractedStore returns a store holding files (path: source) as the extractors give them.
func extractedStore(t *testing.T, files map[string]string) *store.Store {
	t.Helper()
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	ex := extract.New(reg, extract.Options{})
	s := storetest.Open(t)
	var recs []*store.FileRecord
	for p, src := range files {
		f, err := ex.Extract(context.Background(), p, []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, &store.FileRecord{Path: p, Language: f.Language, Hash: "h-" + p, Size: int64(len(src)), MTime: 1, Content: []byte(src), Extract: f})
	}
	storetest.Put(t, s, recs...)
	return s
}

// usesOf returns the uses of the definition of name in the file at p as "path:line
// resolution" ("unresolved" for a use no rule ties to a definition).
func usesOf(t *testing.T, s *store.Store, name, p string) []string {
	t.Helper()
	return usesAt(t, s, name, p, 0)
}

// TestResolveFunctionLiteralParams: a parameter of a function literal has the type its
// list declares for the uses inside the literal (gin's engine.Use(func(c *Context) {
// c.Next() })), in Go, TypeScript and Java; outside the literal, or in a literal that does
// not bind the name, the name is what it is around the literal.
func TestResolveFunctionLiteralParams(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"web/context.go": "package web\n\ntype Context struct{}\n\nfunc (c *Context) Next() {}\n\ntype Other struct{}\n\nfunc (o *Other) Next() {}\n",
		"web/use.go": `package web

func Use(h func(c *Context)) {}

func setup(c *Other) {
	Use(func(c *Context) { c.Next() })
	Use(func(c *Context) {
		if true {
			c.Next()
		}
	})
	c.Next()
	defer func() { c.Next() }()
	Use(func(x *Context) { c.Next() })
}
`,
		"ts/ctx.ts": "export class Context {\n  next() {}\n}\n\nexport class Other {\n  next() {}\n}\n",
		"ts/app.ts": `import { Context, Other } from "./ctx";

export function setup(o: Other) {
  use((c: Context) => c.next());
  use(async (c: Context): Promise<void> => {
    c.next();
  });
  o.next();
}
`,
		"java/com/a/Context.java": "package com.a;\n\npublic class Context {\n    public void next() {}\n}\n",
		"java/com/a/Other.java":   "package com.a;\n\npublic class Other {\n    public void next() {}\n}\n",
		"java/com/a/App.java": `package com.a;

class App {
    void setup(Other c) {
        use((Context c) -> c.next());
        use((Context c) -> {
            c.next();
        });
        c.next();
    }
}
`,
		"py/ctx.py": "class Context:\n    def next(self):\n        pass\n\n\nclass Other:\n    def next(self):\n        pass\n",
		"py/app.py": "from .ctx import Context, Other\n\n\ndef setup(c: Other):\n    def handler(c: Context):\n        c.next()\n    c.next()\n",
	})
	cases := []struct {
		name, path, parent string
		want               []string
	}{
		// Context's: inside the literals that declare c *Context, on one line and across lines.
		{"Next", "web/context.go", "Context", []string{"web/use.go:6 receiver", "web/use.go:9 receiver"}},
		{"next", "ts/ctx.ts", "Context", []string{"ts/app.ts:4 receiver", "ts/app.ts:6 receiver"}},
		{"next", "java/com/a/Context.java", "", []string{"java/com/a/App.java:5 receiver", "java/com/a/App.java:7 receiver"}},
		{"next", "py/ctx.py", "Context", []string{"py/app.py:6 receiver"}}, // a nested def's own parameter
		// Other's: setup's parameter, after the literals closed and in literals that do not
		// bind c.
		{"Next", "web/context.go", "Other", []string{"web/use.go:12 receiver", "web/use.go:13 receiver", "web/use.go:14 receiver"}},
		{"next", "ts/ctx.ts", "Other", []string{"ts/app.ts:8 receiver"}},
		{"next", "java/com/a/Other.java", "", []string{"java/com/a/App.java:9 receiver"}},
		{"next", "py/ctx.py", "Other", []string{"py/app.py:7 receiver"}},
	}
	for _, c := range cases {
		if got := usesOfParent(t, s, c.name, c.path, c.parent); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s.%s (%s):\n got %q\nwant %q", c.parent, c.name, c.path, got, c.want)
		}
	}
}

// usesOfParent is usesOf for the definition of name in p that is a member of the type
// parent ("": the only one in p).
func usesOfParent(t *testing.T, s *store.Store, name, p, parent string) []string {
	t.Helper()
	defs, err := NewReader(s).Definitions(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		if d.Path != p {
			continue
		}
		if parent != "" {
			pd, err := NewReader(s).Definition(context.Background(), d.ParentID)
			if err != nil {
				t.Fatal(err)
			}
			if (pd == nil || pd.Name != parent) && !(d.Language == "go" && d.Signature != "" && goRecv(d.Signature) == parent) {
				continue
			}
		}
		refs, _, err := NewReader(s).SymbolRefs(context.Background(), d, RefsQuery{Limit: 100, NoText: true})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range refs {
			out = append(out, r.Path+":"+strconv.Itoa(r.Line)+" "+r.Resolution)
		}
		return out
	}
	t.Fatalf("no definition of %s in %s (member of %q) among %+v", name, p, parent, defs)
	return nil
}

func goRecv(sig string) string {
	_, typ := resolve.GoReceiver(sig)
	return typ
}

// TestResolvePythonReexports: a name a package's __init__.py imports is a name of the
// package (from flask import jsonify, flask.jsonify, through from .json import jsonify as
// jsonify), through relative imports up (..json), wildcards and chains; a cycle of
// re-exports ends, unresolved.
func TestResolvePythonReexports(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"pkg/flaskish/__init__.py":        "from .json import jsonify as jsonify\nfrom .util.helpers import *\n",
		"pkg/flaskish/json/__init__.py":   "def jsonify(*args):\n    return args\n",
		"pkg/flaskish/util/helpers.py":    "def url_for(endpoint):\n    return endpoint\n",
		"pkg/flaskish/compat/__init__.py": "from ..json import jsonify\n",
		"other/json.py":                   "def jsonify(x):\n    return x\n",
		"pkg/cyc/__init__.py":             "from .m import g\n",
		"pkg/cyc/m.py":                    "from cyc import g\n",
		"other/g.py":                      "def g():\n    pass\n",
		"app.py": `import flaskish
from flaskish import jsonify, url_for
from cyc import g


def view():
    jsonify(1)
    flaskish.jsonify(2)
    url_for("x")
    flaskish.url_for("y")
    g()
`,
		"app2.py": "from flaskish.compat import jsonify\n\njsonify(3)\n",
	})
	cases := []struct {
		name, path string
		want       []string
	}{
		{"jsonify", "pkg/flaskish/json/__init__.py", []string{"app.py:2 import", "app.py:7 import", "app.py:8 import",
			"app2.py:1 import", "app2.py:3 import", "pkg/flaskish/__init__.py:1 import", "pkg/flaskish/compat/__init__.py:1 import"}},
		{"jsonify", "other/json.py", nil},
		{"url_for", "pkg/flaskish/util/helpers.py", []string{"app.py:2 import", "app.py:9 import", "app.py:10 import"}},
		{"g", "other/g.py", []string{"app.py:3 unresolved", "app.py:11 unresolved", "pkg/cyc/__init__.py:1 unresolved", "pkg/cyc/m.py:1 unresolved"}},
	}
	for _, c := range cases {
		if got := usesOf(t, s, c.name, c.path); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s):\n got %q\nwant %q", c.name, c.path, got, c.want)
		}
		// Without the unresolved uses, the files that cannot reach the definition are
		// skipped unread (reachable): a re-export reaches it.
		resolved := slices.DeleteFunc(slices.Clone(c.want), func(u string) bool { return strings.HasSuffix(u, " unresolved") })
		if got := usesOfParent(t, s, c.name, c.path, ""); !slices.Equal(got, resolved) {
			t.Errorf("resolved uses of %s (%s):\n got %q\nwant %q", c.name, c.path, got, resolved)
		}
	}
}

// TestResolveGoModuleRoot: an import of the workspace's module path names its root package
// (gin.Context in gin's ginS/), and an import under it names that directory exactly, not
// another one whose path ends alike.
func TestResolveGoModuleRoot(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"go.mod":     "module example.com/app // the module\n\ngo 1.22\n",
		"context.go": "package app\n\ntype Context struct{}\n\nfunc (c *Context) Next() {}\n\nfunc New() *Context { return nil }\n",
		"app/new.go": "package app\n\nfunc New() int { return 0 }\n", // example.com/app/app
		"sub/sub.go": `package sub

import "example.com/app"

func Register(x *app.Context) {
	use(func(c *app.Context) { c.Next() })
	_ = app.New()
}
`,
	})
	cases := []struct {
		name, path string
		want       []string
	}{
		{"New", "context.go", []string{"sub/sub.go:7 import"}},
		{"New", "app/new.go", nil},
		{"Next", "context.go", []string{"sub/sub.go:6 receiver"}},
		{"Context", "context.go", []string{"context.go:5 scope", "context.go:7 scope", "sub/sub.go:5 import", "sub/sub.go:6 import"}},
	}
	for _, c := range cases {
		if got := usesOfParent(t, s, c.name, c.path, ""); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s):\n got %q\nwant %q", c.name, c.path, got, c.want)
		}
	}
	if got := golang.ModDirective([]byte("// c\nmodule \"example.com/q\"\n")); got != "example.com/q" {
		t.Errorf("goModDirective = %q, want example.com/q", got)
	}
}
