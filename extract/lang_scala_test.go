package extract

import "testing"

func TestScalaSymbols(t *testing.T) {
	f := extractString(t, "A.scala", `package p
/** Top. */
class Outer extends Base with Runnable {
  // not a doc
  private[p] var count = 0
  /** Größe. */
  private val größe = 1
  protected def run(): Unit = helper(count)
  trait Inner { def m(): Unit }
}
object Outer { val Max = 1 }
def top(): Unit = { val local = 1 }
`)
	checkSymbols(t, f, []symWant{
		{"p", Namespace, Public, "", ""},
		{"Outer", Class, Public, "Top.", ""},
		{"count", Property, Internal, "", "Outer"},
		{"größe", Property, Private, "Größe.", "Outer"},
		{"run", Method, Protected, "", "Outer"},
		{"Inner", Trait, Public, "", "Outer"},
		{"m", Method, Public, "", "Inner"},
		{"Max", Constant, Public, "", "Outer"},
		{"top", Function, Public, "", ""},
	})
	if _, ok := symbolsByName(f)["local"]; ok {
		t.Error("a local value became a symbol")
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

func TestScalaBrokenSource(t *testing.T) {
	f := extractString(t, "B.scala", `class Good { def ok(): Unit = () }
class Bad { def broken( = { val x = }
`)
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
	if _, ok := symbolsByName(f)["ok"]; !ok {
		t.Errorf("symbols before the break are lost: %v", f.Symbols)
	}
}
