package extract

import (
	"strings"
	"testing"
)

// An interface whose generic call signatures have no semicolons (mobx's IActionFactory)
// parses, and what follows it keeps its symbols and uses at their own positions.
func TestTypeScriptGenericCallSignatures(t *testing.T) {
	src := `interface IActionFactory extends Annotation {
    // nameless actions
    <T extends Function | undefined | null>(fn: T): T
    // named actions
    <T extends Function | undefined | null>(name: string, fn: T): T
    (customName: string): PropertyDecorator
    <K = any, V = any>(): Map<K, V>
    bound: Annotation
}

function createActionFactory(autoAction: boolean): IActionFactory {
    return storeAnnotation(autoAction)
}
`
	f := extractString(t, "a.ts", src)
	if f.ParseErrors != 0 {
		t.Errorf("ParseErrors = %d, want 0", f.ParseErrors)
	}
	syms := symbolsByName(f)
	fn, ok := syms["createActionFactory"]
	if !ok {
		t.Fatalf("createActionFactory is not a symbol: %v", f.Symbols)
	}
	if fn.StartLine != 11 || !strings.HasPrefix(fn.Signature, "function createActionFactory(") {
		t.Errorf("createActionFactory at line %d, signature %q", fn.StartLine, fn.Signature)
	}
	if _, ok := syms["bound"]; !ok {
		t.Error("the member after the call signatures is not a symbol")
	}
	found := false
	for _, id := range f.Identifiers {
		if id.Name == "storeAnnotation" && id.Kind == Call {
			found = id.StartLine == 12 && id.StartColumn == 12
		}
	}
	if !found {
		t.Error("the call storeAnnotation(...) at 12:12 is not recorded")
	}
}

func TestTSParseSourceKeepsOffsets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"interface I {\n    a: T\n    <T>(x: T): T\n}\n", "interface I {\n    a: T\n   ;<T>(x: T): T\n}\n"},
		{"interface I {\n    a: T // note\n\n    <T, U>(x: T): U\n}\n", "interface I {\n    a: T // note\n\n   ;<T, U>(x: T): U\n}\n"},
		// the first member, an arrow's body, a continued expression: nothing to separate
		{"interface I {\n    <T>(x: T): T\n}\n", ""},
		{"const f = (a) =>\n    <T>(x: T) => x\n", ""},
		{"const f = g(a,\n    <T>(x: T) => x)\n", ""},
		// a comparison, not a type parameter list
		{"const b = a\n    < c\n", ""},
	} {
		want := c.want
		if want == "" {
			want = c.in
		}
		if got := string(tsParseSource([]byte(c.in))); got != want {
			t.Errorf("tsParseSource(%q) = %q, want %q", c.in, got, want)
		}
	}
}
