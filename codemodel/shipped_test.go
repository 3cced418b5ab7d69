package codemodel

import "testing"

// ShippedID, read from the header alone, is the id of the decoded model.
func TestShippedID(t *testing.T) {
	m, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if got := ShippedID(); got != m.ID() || len(got) != 16 {
		t.Errorf("ShippedID() = %q, want the decoded model's %q", got, m.ID())
	}
}
