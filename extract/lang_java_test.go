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

// TestJavaUses: every name used as a value is a use (a field in a condition, a case label,
// an object of a call), the names declarations bind are not (locals, parameters, a lambda's,
// a catch's, a for's, a pattern's, labels, annotation keys); a member's qualifier is its
// receiver as written, a chain over lines made one; an import's name is a use qualified by
// its package (a static one's by its type), and the types before it in the path too.
func TestJavaUses(t *testing.T) {
	f := extractString(t, "C.java", `package p;
import a.b.Outer.Inner;
import static a.b.Util.helper;
import java.util.*;
class C {
    void m(int param) {
        if (closed) { return; }
        switch (state) { case IDLE: break; }
        server.bind(addr, param);
        builder
            .add(x)
            .build();
        int local = count;
        try { } catch (Exception caught) { }
        for (String each : items) { }
        run(lam -> lam.go());
        if (o instanceof Foo pat) { }
        outer: while (true) { break outer; }
        Runnable r = this::tick;
        new Event.Done(t);
    }
    @Ann(key = VAL) int z;
}
`)
	uses := map[string]string{} // name: kind qualifier
	for _, id := range f.Identifiers {
		uses[id.Name] = id.Kind.String() + " " + id.Qualifier
	}
	for name, want := range map[string]string{
		"Inner": "import a.b.Outer", "Outer": "import a.b", "helper": "import a.b.Util", "Util": "import a.b",
		"closed": "variable_ref ", "state": "variable_ref ", "IDLE": "variable_ref ", "server": "variable_ref ",
		"bind": "call server", "addr": "variable_ref ", "param": "variable_ref ", "count": "variable_ref ",
		"add": "call builder", "build": "call builder.add(x)", "items": "variable_ref ",
		"go": "call lam", "tick": "member_access this::", "Event": "type_usage ", "Done": "call Event",
		"VAL": "variable_ref ",
	} {
		if got := uses[name]; got != want {
			t.Errorf("use of %s: got %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"local", "caught", "each", "pat", "outer", "key", "r", "java", "util"} {
		if got, ok := uses[name]; ok {
			t.Errorf("%s is a declaration's name or a package's, recorded as a use: %q", name, got)
		}
	}
	n := 0
	for _, id := range f.Identifiers {
		if id.Name == "lam" {
			n++
		}
	}
	if n != 1 { // lam.go(): the receiver is a use, the parameter not
		t.Errorf("lam recorded %d times, want once", n)
	}
}
