package extract

import "testing"

func TestJavaSymbols(t *testing.T) {
	f := extractString(t, "A.java", `package p;
/** Top. */
public class Outer extends Base implements Runnable {
    // not a doc
    int packaged;
    /** Größe. */
    private static final int GRÖSSE = 1;
    protected void run() { helper(packaged); }
    interface Inner { void m(); }
    enum E { /** One. */ ONE }
}
class Hidden {}
`)
	checkSymbols(t, f, []symWant{
		{"p", Namespace, Public, "", ""},
		{"Outer", Class, Public, "Top.", ""},
		{"packaged", Field, Package, "", "Outer"},
		{"GRÖSSE", Constant, Private, "Größe.", "Outer"},
		{"run", Method, Protected, "", "Outer"},
		{"Inner", Interface, Package, "", "Outer"},
		{"m", Method, Public, "", "Inner"},
		{"ONE", EnumMember, Public, "One.", "E"},
		{"Hidden", Class, Package, "", ""},
	})
	if !hasIdent(f, "helper", Call) || !hasIdent(f, "packaged", VariableRef) {
		t.Error("missing the call of helper or the reference to packaged")
	}
	rels := map[string]RelKind{}
	for _, r := range f.Relationships {
		rels[r.To] = r.Kind
	}
	if rels["Base"] != Extends || rels["Runnable"] != Implements {
		t.Errorf("relationships %v", f.Relationships)
	}
}

func TestJavaBrokenSource(t *testing.T) {
	f := extractString(t, "B.java", `class Good { void ok() {} }
class Bad { void broken( { int x = ; }
`)
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
	if _, ok := symbolsByName(f)["ok"]; !ok {
		t.Errorf("symbols before the break are lost: %v", f.Symbols)
	}
}
