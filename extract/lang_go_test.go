package extract

import (
	"slices"
	"testing"
)

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

// TestGoValueUsesAndQualifiers: every name used as a value is recorded (arguments, operands,
// assignments), not the names a statement defines (x :=, range's, parameters, a type
// switch's); a composite literal's keys are uses of its type's fields (qualifier T{}, the
// element of an elided literal T{}[0]); a qualifier is the operand on one line with its
// calls' arguments and literals' bodies left out.
func TestGoValueUsesAndQualifiers(t *testing.T) {
	f := extractString(t, "a.go", `package a

func F(p int) {
	x := g(limit, p)
	for i, v := range items {
		total += v
	}
	switch y := any(x).(type) {
	}
	c := &Command{Use: name, Run: nil}
	cs := []*Command{{Use: name}}
	m := map[string]int{key: 1}
	c.Root(a, b).
		Name()
	fmt.Println(c)
}
`)
	type use struct {
		name string
		kind IdentKind
		q    string
		line int
	}
	var got []use
	for _, id := range f.Identifiers {
		if id.Kind != TypeUsage {
			got = append(got, use{id.Name, id.Kind, id.Qualifier, id.StartLine})
		}
	}
	for _, want := range []use{
		{"limit", VariableRef, "", 4}, {"p", VariableRef, "", 4}, {"items", VariableRef, "", 5},
		{"total", VariableRef, "", 6}, {"v", VariableRef, "", 6}, {"x", VariableRef, "", 8},
		{"Use", MemberAccess, "Command{}", 10}, {"Run", MemberAccess, "Command{}", 10}, {"name", VariableRef, "", 10},
		{"Use", MemberAccess, "[]*Command{}[0]", 11}, {"key", VariableRef, "", 12},
		{"Root", Call, "c", 13}, {"Name", Call, "c.Root()", 14}, {"c", VariableRef, "", 15},
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no use %+v among %+v", want, got)
		}
	}
	for _, defined := range []struct {
		name string
		line int
	}{{"x", 4}, {"i", 5}, {"v", 5}, {"y", 8}, {"c", 10}, {"p", 3}} {
		for _, u := range got {
			if u.name == defined.name && u.line == defined.line {
				t.Errorf("%s on line %d is a definition, recorded as a use %+v", defined.name, defined.line, u)
			}
		}
	}
}
