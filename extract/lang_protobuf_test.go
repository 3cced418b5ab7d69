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
