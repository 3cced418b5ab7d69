package extract

import "testing"

func TestCSharpSymbols(t *testing.T) {
	f := extractString(t, "A.cs", `namespace N;
/// <summary>Top.</summary>
class Outer : Base, IThing
{
    // not a doc
    int hidden;
    /// <summary>Größe.</summary>
    public const int Größe = 1;
    protected internal void Run() { Helper(hidden); }
    public string Name { get; set; }
    interface IInner { void M(); }
    enum E { One }
}
`)
	checkSymbols(t, f, []symWant{
		{"N", Namespace, Public, "", ""},
		{"Outer", Class, Internal, "Top.", "N"},
		{"hidden", Field, Private, "", "Outer"},
		{"Größe", Constant, Public, "Größe.", "Outer"},
		{"Run", Method, Protected, "", "Outer"},
		{"Name", Property, Public, "", "Outer"},
		{"IInner", Interface, Private, "", "Outer"},
		{"M", Method, Public, "", "IInner"},
		{"One", EnumMember, Public, "", "E"},
	})
	if !hasIdent(f, "Helper", Call) || !hasIdent(f, "hidden", VariableRef) {
		t.Error("missing the call of Helper or the reference to hidden")
	}
	rels := map[string]RelKind{}
	for _, r := range f.Relationships {
		rels[r.To] = r.Kind
	}
	if rels["Base"] != Extends || rels["IThing"] != Implements {
		t.Errorf("relationships %v", f.Relationships)
	}
}

func TestCSharpBrokenSource(t *testing.T) {
	f := extractString(t, "B.cs", `class Good { void Ok() {} }
class Bad { void Broken( { int x = ; }
`)
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
	if _, ok := symbolsByName(f)["Ok"]; !ok {
		t.Errorf("symbols before the break are lost: %v", f.Symbols)
	}
}
