package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSchemas(t *testing.T) {
	all, err := Schemas()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"search.request", "search.result", "goto.request", "goto.result", "error"} {
		s, ok := all[name]
		if !ok {
			t.Fatalf("no schema %s", name)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"$schema":"https://json-schema.org/draft/2020-12/schema"`, `"$id":"https://quarry.dev/schemas/v1/` + name + `.json"`, `"version":"` + AgentVersion + `"`} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s lacks %s: %s", name, want, b)
			}
		}
	}
	if err := Validate("search.request", []byte(`{"query":"x","limit":3}`)); err != nil {
		t.Errorf("a valid request: %v", err)
	}
	if err := Validate("search.request", []byte(`{"query":"x","limt":3}`)); err == nil {
		t.Errorf("an unknown field validated")
	}
	if err := Validate("search.request", []byte(`{"query":3}`)); err == nil {
		t.Errorf("a wrong type validated")
	}
	if err := Validate("error", []byte(`{"ok":false,"error":{"code":"NOPE","message":"m"}}`)); err == nil {
		t.Errorf("an unknown error code validated")
	}
	if err := Validate("error", []byte(`{"ok":false,"error":{"code":"BAD_QUERY","message":"m","path":"query"}}`)); err != nil {
		t.Errorf("a valid envelope: %v", err)
	}
}
