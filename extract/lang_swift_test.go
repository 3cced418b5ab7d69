package extract

import "testing"

func TestSwiftSymbols(t *testing.T) {
	f := extractString(t, "x.swift", `/// A shape.
public protocol Shape { func area() -> Double }
// Not a doc comment.
open class Base {
    private var größe = 1
    fileprivate func hidden() {}
    public init() {}
}
struct Point { var x: Int }
extension Point: Shape {
    func area() -> Double { return compute(x) }
}
enum Color { case red }
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"Shape", Interface, Public, "", "A shape."},
		{"area", Method, Public, "Shape", ""},
		{"Base", Class, Public, "", ""},
		{"größe", Property, Private, "Base", ""},
		{"hidden", Method, FilePrivate, "Base", ""},
		{"init", Constructor, Public, "Base", ""},
		{"Point", Struct, Internal, "", ""},
		{"red", EnumMember, Internal, "Color", ""},
	})
	var ext *Symbol
	for i := range f.Symbols {
		if f.Symbols[i].Name == "area" && f.Symbols[i].Metadata["extension"] == "Point" {
			ext = &f.Symbols[i]
		}
	}
	if ext == nil || ext.ParentID != symbolsByName(f)["Point"].ID {
		t.Errorf("extension method not attached to Point: %+v", ext)
	}
	implements := false
	for _, r := range f.Relationships {
		implements = implements || r.Kind == Implements && r.FromName == "Point" && r.To == "Shape" && r.FromID == symbolsByName(f)["Point"].ID
	}
	if !implements || !hasIdent(f, "compute", Call) || !hasIdent(f, "x", VariableRef) {
		t.Error("missing Point implements Shape, a call or a variable reference")
	}
}

func TestSwiftBroken(t *testing.T) {
	f := extractString(t, "broken.swift", "func ok() {}\nstruct S { var a: Int }\nfunc broken( {\n")
	syms := symbolsByName(f)
	if _, ok := syms["ok"]; !ok {
		t.Error("missing ok before the break")
	}
	if _, ok := syms["S"]; !ok {
		t.Error("missing S before the break")
	}
}
