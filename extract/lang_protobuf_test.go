package extract

import (
	"testing"
)

func TestProtobufSymbols(t *testing.T) {
	f := extractString(t, "a.proto", `syntax = "proto3";
package shop.v1;

// Order is a customer's order.
message Order {
  // Line is one line of an order.
  message Line {
    string sku = 1;
  }
  repeated Line lines = 1;
  oneof payment {
    string card_id = 2;
  }
}

// Orders serves orders.
service Orders {
  // Get returns one order.
  rpc Get(GetRequest) returns (shop.v1.Order);
}
`)
	checkSymbols(t, f, []symWant{
		{"shop.v1", Module, Public, "", ""},
		{"Order", Struct, Public, "Order is a customer's order.", ""},
		{"Line", Struct, Public, "Line is one line of an order.", "Order"},
		{"sku", Field, Public, "", "Line"},
		{"lines", Field, Public, "", "Order"},
		{"payment", Union, Public, "", "Order"},
		{"card_id", Field, Public, "", "payment"},
		{"Orders", Interface, Public, "Orders serves orders.", ""},
		{"Get", Method, Public, "Get returns one order.", "Orders"},
	})
	syms := symbolsByName(f)
	for name, want := range map[string]string{
		"Get":   "rpc Get(GetRequest) returns (shop.v1.Order)",
		"lines": "repeated Line lines = 1",
	} {
		if got := syms[name].Signature; got != want {
			t.Errorf("signature of %s = %q, want %q", name, got, want)
		}
	}
	if !hasIdent(f, "Line", TypeUsage) || !hasIdent(f, "GetRequest", TypeUsage) || !hasIdent(f, "Order", TypeUsage) {
		t.Errorf("missing type usages in %+v", f.Identifiers)
	}
}

// TestProtobufProto2: the grammar knows only proto3, but a proto2 file (Kubernetes',
// descriptor.proto) parses as one, required fields included, at its own offsets.
func TestProtobufProto2(t *testing.T) {
	f := extractString(t, "a.proto", "// Header.\nsyntax = \"proto2\";\npackage k8s.io.api.node.v1;\n\n// Overhead is a pod's overhead.\nmessage Overhead {\n  required string name = 1;\n  optional int64 podFixed = 2;\n}\n")
	if f.ParseErrors != 0 {
		t.Errorf("%d parse errors in a proto2 file", f.ParseErrors)
	}
	checkSymbols(t, f, []symWant{
		{"k8s.io.api.node.v1", Module, Public, "", ""},
		{"Overhead", Struct, Public, "Overhead is a pod's overhead.", ""},
		{"name", Field, Public, "", "Overhead"},
		{"podFixed", Field, Public, "", "Overhead"},
	})
	if s := symbolsByName(f)["name"]; s.Signature != "required string name = 1" || s.StartLine != 7 || s.StartColumn != 3 {
		t.Errorf("name: %q at %d:%d, want the source as written at 7:3", s.Signature, s.StartLine, s.StartColumn)
	}
}

// TestProtobufEditions: an editions file (edition = "2023") parses, at its own lines.
func TestProtobufEditions(t *testing.T) {
	f := extractString(t, "e.proto", "// Editions.\n\nedition = \"2023\";\n\npackage a.b;\n\nmessage Feature {\n  string name = 1 [features.field_presence = EXPLICIT];\n}\n")
	if f.ParseErrors != 0 {
		t.Errorf("%d parse errors", f.ParseErrors)
	}
	if s := symbolsByName(f)["Feature"]; s.Kind != Struct || s.StartLine != 7 {
		t.Errorf("Feature: %+v", s)
	}
	if s := symbolsByName(f)["name"]; s.StartLine != 8 || s.Signature != "string name = 1" {
		t.Errorf("name: %+v", s)
	}
}
