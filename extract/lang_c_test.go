package extract

import "testing"

func TestCSymbols(t *testing.T) {
	f := extractString(t, "x.c", `#include <stdio.h>
/* Counts. */
static int count;
int total; /* trailing */
/** A point. */
struct point { int x; };
/* Adds. */
int add(int a, int b) { return helper(a, b); }
static void hidden(void) {}
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"stdio.h", Import, "", "", ""},
		{"count", Variable, FilePrivate, "", "Counts."},
		{"total", Variable, Public, "", ""},
		{"point", Struct, Public, "", "A point."},
		{"x", Field, Public, "point", ""},
		{"add", Function, Public, "", "Adds."},
		{"hidden", Function, FilePrivate, "", ""},
	})
	if !hasIdent(f, "helper", Call) || !hasIdent(f, "a", VariableRef) {
		t.Error("missing call or variable reference")
	}
}

func TestCppSymbols(t *testing.T) {
	f := extractString(t, "x.cpp", `namespace ns {
/// A base.
class Base {
    int hidden;
public:
    Base();
    virtual void run() = 0;
protected:
    int größe;
};
struct Open : public Base { int x; private: int y; };
}
void ns::Base::helper() { this->größe = 1; }
ns::Base::Base() {}
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"ns", Namespace, Public, "", ""},
		{"Base", Class, Public, "ns", "A base."},
		{"hidden", Field, Private, "Base", ""},
		{"run", Method, Public, "Base", ""},
		{"größe", Field, Protected, "Base", ""},
		{"Open", Struct, Public, "ns", ""},
		{"x", Field, Public, "Open", ""},
		{"y", Field, Private, "Open", ""},
		{"helper", Method, "", "Base", ""},
	})
	ctors := 0
	for _, s := range f.Symbols {
		if s.Kind == Constructor && s.Name == "Base" {
			ctors++
		}
	}
	if ctors != 2 {
		t.Errorf("%d constructors Base, want 2 (declaration and definition)", ctors)
	}
	extends := false
	for _, r := range f.Relationships {
		extends = extends || r.Kind == Extends && r.FromName == "Open" && r.To == "Base"
	}
	if !extends || !hasIdent(f, "größe", MemberAccess) {
		t.Error("missing Open extends Base or member access")
	}
}

func TestCBroken(t *testing.T) {
	for path, src := range map[string]string{
		"broken.c":   "int ok(void) { return 1; }\nstruct s { int a; };\nint broken( {\n",
		"broken.cpp": "int ok() { return 1; }\nclass s { int a; };\nclass broken : {\n",
	} {
		f := extractString(t, path, src)
		syms := symbolsByName(f)
		if _, ok := syms["ok"]; !ok {
			t.Errorf("%s: missing ok before the break", path)
		}
		if _, ok := syms["s"]; !ok {
			t.Errorf("%s: missing s before the break", path)
		}
	}
}
