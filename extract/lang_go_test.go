package extract

import "testing"

// TestGoCalledLiterals: the uses inside a function literal called where it is written (defer
// func() { ... }(), go func() { ... }()) are recorded, in the enclosing function.
func TestGoCalledLiterals(t *testing.T) {
	f := extractString(t, "a.go", `package a

func Recover(c *Context) {
	defer func() {
		if rec := recover(); rec != nil {
			c.Abort()
		}
		logf(c)
	}()
	go func(n int) { c.Flush(n) }(1)
}
`)
	recID := symbolsByName(f)["Recover"].ID
	for _, want := range []struct {
		name string
		kind IdentKind
		line int
	}{
		{"Abort", Call, 6},
		{"recover", Call, 5},
		{"logf", Call, 8},
		{"Flush", Call, 10},
	} {
		found := false
		for _, id := range f.Identifiers {
			if id.Name == want.name && id.Kind == want.kind && id.StartLine == want.line {
				found = true
				if id.ContainingSymbolID != recID {
					t.Errorf("%s on line %d is in %q, want Recover (%s)", want.name, want.line, id.ContainingSymbolID, recID)
				}
			}
		}
		if !found {
			t.Errorf("no %v use of %s on line %d in %+v", want.kind, want.name, want.line, f.Identifiers)
		}
	}
}

// TestGoSignatureQualifiedTypes: a type of a function's parameters and results keeps its
// package (c *gin.Context), as it does in a body, so that resolution looks it up there.
func TestGoSignatureQualifiedTypes(t *testing.T) {
	f := extractString(t, "a.go", "package a\n\nimport \"example.com/gin\"\n\nfunc Use(c *gin.Context, h func(*gin.Engine)) (gin.H, error) { return nil, nil }\n")
	want := map[string]string{"Context": "gin", "Engine": "gin", "H": "gin", "error": ""}
	got := map[string]string{}
	for _, id := range f.Identifiers {
		if id.Kind == TypeUsage {
			got[id.Name] = id.Qualifier
		}
	}
	for name, q := range want {
		if g, ok := got[name]; !ok || g != q {
			t.Errorf("type usage %s: qualifier %q (recorded: %v), want %q", name, g, ok, q)
		}
	}
}
