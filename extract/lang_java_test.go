package extract

import "testing"

// jvmSymbolCase is one expectation about a symbol of a snippet.
type jvmSymbolCase struct {
	name   string
	kind   Kind
	vis    Visibility
	doc    string
	parent string // name of the parent symbol, "" at file level
}

// checkJVMSymbols asserts each case against the symbols of f.
func checkJVMSymbols(t *testing.T, f *File, cases []jvmSymbolCase) {
	t.Helper()
	byName := symbolsByName(f)
	byID := map[string]Symbol{}
	for _, s := range f.Symbols {
		byID[s.ID] = s
	}
	for _, c := range cases {
		s, ok := byName[c.name]
		if !ok {
			t.Errorf("no symbol %q", c.name)
			continue
		}
		if s.Kind != c.kind || s.Visibility != c.vis || s.DocComment != c.doc || byID[s.ParentID].Name != c.parent {
			t.Errorf("%s: got kind %s, visibility %q, doc %q, parent %q; want %s, %q, %q, %q",
				c.name, s.Kind, s.Visibility, s.DocComment, byID[s.ParentID].Name, c.kind, c.vis, c.doc, c.parent)
		}
	}
}

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
	checkJVMSymbols(t, f, []jvmSymbolCase{
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
