package extract

import (
	"slices"
	"testing"
)

func TestCueSymbols(t *testing.T) {
	f := extractString(t, "a.cue", `// Package app is the app.
package app

import (
	"strings"
	k8s "k8s.io/api/apps/v1"
)

// #Port is a port.
#Port: int & >0 | *8080

#Kind: "Deployment"

// #Config is the schema.
#Config: {
	// name names it.
	name!: string
	tags?: [...string] @go(Tags)
	_cache: {}
	let upper = strings.ToUpper(name)
	db: host: string
	[string]: int
	#Inner: {x: int}
}

#Closed: close({
	a: int
})

_#Hidden: string

web: #Config & {name: "web"}
`)
	checkSymbols(t, f, []symWant{
		{"app", Module, Public, "Package app is the app.", ""},
		{"strings", Import, "", "", ""},
		{"k8s.io/api/apps/v1", Import, "", "", ""},
		{"#Port", Type, Public, "#Port is a port.", ""},
		{"#Kind", Constant, Public, "", ""},
		{"#Config", Struct, Public, "#Config is the schema.", ""},
		{"name", Field, Public, "name names it.", "#Config"},
		{"tags", Field, Public, "", "#Config"},
		{"_cache", Field, Private, "", "#Config"},
		{"upper", Variable, Private, "", "#Config"},
		{"db", Field, Public, "", "#Config"},
		{"host", Field, Public, "", "db"},
		{"#Inner", Struct, Public, "", "#Config"},
		{"x", Field, Public, "", "#Inner"},
		{"#Closed", Struct, Public, "", ""},
		{"a", Field, Public, "", "#Closed"},
		{"_#Hidden", Type, Private, "", ""},
	})
	syms := symbolsByName(f)
	for name, want := range map[string]string{
		"app":                "package app",
		"k8s.io/api/apps/v1": `import k8s "k8s.io/api/apps/v1"`,
		"#Port":              "#Port: int & >0 | *8080",
		"#Config":            "#Config",
		"#Closed":            "#Closed",
		"name":               "name!: string",
		"tags":               "tags?: [...string]",
		"upper":              "let upper = strings.ToUpper(name)",
		"db":                 "db: host: string",
		"host":               "host: string",
	} {
		if got := syms[name].Signature; got != want {
			t.Errorf("signature of %s = %q, want %q", name, got, want)
		}
	}
	for _, tt := range []struct{ sym, key, want string }{
		{"name", "constraint", "required"},
		{"tags", "constraint", "optional"},
		{"tags", "attributes", "@go(Tags)"},
		{"k8s.io/api/apps/v1", "alias", "k8s"},
	} {
		if got := syms[tt.sym].Metadata[tt.key]; got != tt.want {
			t.Errorf("metadata %s of %s = %q, want %q", tt.key, tt.sym, got, tt.want)
		}
	}
	if s := syms["host"]; s.StartLine != 21 || s.EndLine != 21 || s.StartColumn != 6 {
		t.Errorf("host spans %d:%d-%d, want 21:6-21", s.StartLine, s.StartColumn, s.EndLine)
	}
	// The field of web's struct literal is a child of web.
	var appField Symbol
	for _, s := range f.Symbols {
		if s.Name == "name" && s.ParentID == syms["web"].ID {
			appField = s
		}
	}
	if appField.Name == "" {
		t.Errorf("no field name under web in %+v", f.Symbols)
	}
}

func TestCueReferences(t *testing.T) {
	f := extractString(t, "a.cue", `package app

import k8s "k8s.io/api/apps/v1"

#Base: {name: string}

#App: #Base & {
	#Meta
	deploy: k8s.#Deployment & {spec: replicas: count}
	count: len(ports)
	upper: strings.Join(ports, ",")
	ports: [for p in list {p + 1}]
}
`)
	for _, want := range []struct {
		name, qualifier string
		kind            IdentKind
	}{
		{"#Base", "", TypeUsage},
		{"#Meta", "", TypeUsage},
		{"#Deployment", "k8s", TypeUsage},
		{"count", "", VariableRef},
		{"len", "", Call},
		{"Join", "strings", Call},
		{"list", "", VariableRef},
		{"p", "", VariableRef},
	} {
		if !slices.ContainsFunc(f.Identifiers, func(id Identifier) bool {
			return id.Name == want.name && id.Kind == want.kind && id.Qualifier == want.qualifier
		}) {
			t.Errorf("no %s identifier %s (qualifier %q) in %+v", want.kind, want.name, want.qualifier, f.Identifiers)
		}
	}
	if slices.ContainsFunc(f.Identifiers, func(id Identifier) bool { return id.Name == "k8s" && id.Kind == VariableRef }) {
		t.Errorf("the package k8s is recorded as a variable: %+v", f.Identifiers)
	}
	var p int
	for _, id := range f.Identifiers {
		if id.Name == "p" {
			p++
		}
	}
	if p != 1 {
		t.Errorf("loop variable p recorded %d times, want once (its use, not its declaration)", p)
	}
	var extends []string
	for _, r := range f.Relationships {
		if r.Kind == Extends && r.FromName == "#App" {
			extends = append(extends, r.To)
		}
	}
	if want := []string{"#Base", "#Meta"}; !slices.Equal(extends, want) {
		t.Errorf("#App extends %v, want %v", extends, want)
	}
	syms := symbolsByName(f)
	if !slices.Contains(f.Types, TypeInfo{SymbolID: syms["deploy"].ID, Role: "declared", Type: "k8s.#Deployment"}) {
		t.Errorf("no declared type k8s.#Deployment for deploy in %+v", f.Types)
	}
}

func TestCueDepth(t *testing.T) {
	f := extractString(t, "a.cue", `a: b: {
	c: {
		d: 1
	}
}
#S: {
	x: y: z: {w: 1}
	jobs: [string]: {steps: [...string]}
}
`)
	syms := symbolsByName(f)
	for _, name := range []string{"a", "b", "c", "#S", "x", "y", "z", "jobs", "steps"} {
		if _, ok := syms[name]; !ok {
			t.Errorf("no symbol %s in %+v", name, f.Symbols)
		}
	}
	for _, name := range []string{"d", "w"} {
		if _, ok := syms[name]; ok {
			t.Errorf("symbol %s is deeper than %d levels", name, cueMaxDepth)
		}
	}
	checkSymbols(t, f, []symWant{{"steps", Field, Public, "", "jobs"}})
	if got := syms["steps"].Metadata["pattern"]; got != "[string]" {
		t.Errorf("pattern of steps = %q, want [string]", got)
	}
}

func TestCueHalfWritten(t *testing.T) {
	for _, src := range []string{
		"package app\n\n#Config: {\n\tport: int\n\tname: \n",
		"package app\n#A: {\n\tx: [1, 2,\n}\n#B: {y: int}\n",
		"@if(a)\n@if(b)\npackage app\n#A: {x: int}\n",
		"a: b: c: d: e: f: \"\\(x\" & {\n",
	} {
		f := extractString(t, "a.cue", src)
		if len(f.Symbols) == 0 {
			t.Errorf("no symbols in %q", src)
		}
	}
	f := extractString(t, "a.cue", "package app\n#A: {\n\tx: [1, 2,\n}\n#B: {y: int}\n")
	if _, ok := symbolsByName(f)["#B"]; !ok {
		t.Errorf("no #B after the error in %+v", f.Symbols)
	}
}
