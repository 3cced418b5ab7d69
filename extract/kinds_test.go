package extract

import "testing"

func TestKindCategories(t *testing.T) {
	type cats struct{ def, body, container, callable, typ bool }
	want := map[Kind]cats{
		KindUnknown:          {},
		Class:                {def: true, container: true, typ: true},
		Interface:            {def: true, container: true, typ: true},
		Function:             {def: true, body: true, callable: true},
		Method:               {def: true, body: true, callable: true},
		Variable:             {def: true},
		Constant:             {def: true},
		Property:             {def: true, body: true},
		Enum:                 {def: true, container: true, typ: true},
		EnumMember:           {def: true},
		Module:               {def: true, container: true},
		Namespace:            {def: true, container: true},
		Type:                 {def: true, typ: true},
		Trait:                {def: true, container: true, typ: true},
		Struct:               {def: true, container: true, typ: true},
		Union:                {def: true, container: true, typ: true},
		Field:                {def: true},
		Constructor:          {def: true, body: true, callable: true},
		Destructor:           {def: true, body: true, callable: true},
		Operator:             {def: true, body: true, callable: true},
		Import:               {},
		Export:               {},
		Event:                {def: true},
		Delegate:             {def: true, callable: true},
		Kind(len(kindNames)): {}, // outside the vocabulary
	}
	if len(want) != len(kindNames)+1 || len(kindCategories) != len(kindNames) {
		t.Fatalf("%d kinds, %d rows of categories, %d expected here: a kind is missing", len(kindNames), len(kindCategories), len(want)-1)
	}
	for k, w := range want {
		got := cats{k.IsDefinition(), k.HasBody(), k.IsContainer(), k.IsCallable(), k.IsType()}
		if got != w {
			t.Errorf("categories of %s = %+v, want %+v", k, got, w)
		}
	}
}

func TestKindNames(t *testing.T) {
	for _, name := range Kinds() {
		k, err := ParseKind(name)
		if err != nil || k.String() != name {
			t.Errorf("ParseKind(%q) = %s, %v; want %s", name, k, err, name)
		}
		if k2, ok := KindNamed(name); !ok || k2 != k {
			t.Errorf("KindNamed(%q) = %s, %v; want %s, true", name, k2, ok, k)
		}
		text, _ := k.MarshalText()
		var back Kind
		if err := back.UnmarshalText(text); err != nil || back != k {
			t.Errorf("UnmarshalText(%q) = %s, %v; want %s", text, back, err, k)
		}
	}
	for _, name := range []string{"unknown", "", "Function", "func"} {
		if k, ok := KindNamed(name); ok {
			t.Errorf("KindNamed(%q) = %s, true; want no kind", name, k)
		}
		if _, err := ParseKind(name); err == nil {
			t.Errorf("ParseKind(%q): no error, want one", name)
		}
	}
}
