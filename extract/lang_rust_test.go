package extract

import "testing"

func TestRustSymbols(t *testing.T) {
	f := extractString(t, "lib.rs", `/// A shape.
#[derive(Debug)]
pub struct Shape { pub(crate) größe: f64, secret: u8 }

pub trait Area { fn area(&self) -> f64; }

impl Area for Shape {
    fn area(&self) -> f64 { helper(self.größe) }
}

impl Shape {
    pub fn new() -> Self { Shape { größe: 0.0, secret: 0 } }
}

mod inner {
    //! Inner docs.
    pub(super) fn f() {}
}
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"Shape", Struct, Public, "", "A shape."},
		{"größe", Field, Internal, "Shape", ""},
		{"secret", Field, Private, "Shape", ""},
		{"area", Method, Public, "Area", ""},
		{"new", Method, Public, "Shape", ""},
		{"inner", Module, Private, "", "Inner docs."},
		{"f", Function, Internal, "inner", ""},
	})
	syms := symbolsByName(f)
	if got := syms["Shape"].Signature; got != "#[derive(Debug)] pub struct Shape" {
		t.Errorf("signature %q", got)
	}
	if !hasIdent(f, "helper", Call) || !hasIdent(f, "größe", MemberAccess) {
		t.Error("missing call or member access identifiers")
	}
	implements := false
	for _, r := range f.Relationships {
		implements = implements || r.Kind == Implements && r.FromName == "Shape" && r.To == "Area"
	}
	if !implements {
		t.Error("missing Shape implements Area")
	}
	var implArea *Symbol
	for i := range f.Symbols {
		if f.Symbols[i].Name == "area" && f.Symbols[i].Metadata["trait"] == "Area" {
			implArea = &f.Symbols[i]
		}
	}
	if implArea == nil || implArea.ParentID != syms["Shape"].ID {
		t.Errorf("impl method area not attached to Shape: %+v", implArea)
	}
}

func TestRustBroken(t *testing.T) {
	f := extractString(t, "broken.rs", "pub fn ok() {}\npub struct S { a: u8 }\nfn broken( {\n")
	syms := symbolsByName(f)
	if _, ok := syms["ok"]; !ok {
		t.Error("missing ok before the break")
	}
	if _, ok := syms["S"]; !ok {
		t.Error("missing S before the break")
	}
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
}
