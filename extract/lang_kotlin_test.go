package extract

import "testing"

func TestKotlinSymbols(t *testing.T) {
	f := extractString(t, "A.kt", `package p
/** Top. */
class Outer : Base(), Runnable {
    // not a doc
    internal var count = 0
    /** Größe. */
    private val größe = 1
    protected fun run() { helper(count) }
    interface Inner { fun m() }
    companion object { const val MAX = 1 }
}
fun top() { val local = 1 }
`)
	checkSymbols(t, f, []symWant{
		{"p", Namespace, Public, "", ""},
		{"Outer", Class, Public, "Top.", ""},
		{"count", Property, Internal, "", "Outer"},
		{"größe", Property, Private, "Größe.", "Outer"},
		{"run", Method, Protected, "", "Outer"},
		{"Inner", Interface, Public, "", "Outer"},
		{"m", Method, Public, "", "Inner"},
		{"MAX", Constant, Public, "", "Companion"},
		{"top", Function, Public, "", ""},
	})
	if _, ok := symbolsByName(f)["local"]; ok {
		t.Error("a local variable became a symbol")
	}
	if !hasIdent(f, "helper", Call) || !hasIdent(f, "count", VariableRef) {
		t.Error("missing the call of helper or the reference to count")
	}
	rels := map[string]RelKind{}
	for _, r := range f.Relationships {
		rels[r.To] = r.Kind
	}
	if rels["Base"] != Extends || rels["Runnable"] != Implements {
		t.Errorf("relationships %v", f.Relationships)
	}
}

func TestKotlinBrokenSource(t *testing.T) {
	f := extractString(t, "B.kt", `class Good { fun ok() {} }
class Bad { fun broken( { val x = }
`)
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
	if _, ok := symbolsByName(f)["ok"]; !ok {
		t.Errorf("symbols before the break are lost: %v", f.Symbols)
	}
}
