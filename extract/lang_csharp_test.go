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

// TestCSharpParseSource: the parser's copy blanks preprocessor lines and every branch of an
// #if group but the first, nested too, keeping each byte's offset and every line.
func TestCSharpParseSource(t *testing.T) {
	src := "a\n#if X\nb\n#if Y\nc\n#else\nd\n#endif\n#elif Z\ne\n#else\nf\n#endif\r\n  #region r\ng\n"
	got := string(csParseSource([]byte(src)))
	want := "a\n     \nb\n     \nc\n     \n \n      \n       \n \n     \n \n      \r\n           \ng\n"
	if got != want {
		t.Errorf("csParseSource:\n got %q\nwant %q", got, want)
	}
	if plain := "class A { }\n"; string(csParseSource([]byte(plain))) != plain {
		t.Error("a source without a directive changed")
	}
}
