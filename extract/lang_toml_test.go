package extract

import (
	"testing"
)

func TestTOMLSymbols(t *testing.T) {
	f := extractString(t, "Cargo.toml", `name = "top"

# The package.
[package]
version = "1.0"
metadata = { msrv = "1.74" }

[package.metadata.docs]
all-features = true

[[bin]]
name = "first"

[[bin]]
name = "second"
path = "src/main.rs" # the entry point
[[bin.test]]
harness = false

[target.'cfg(unix)'.dependencies]
libc.version = "0.2"
`)
	checkSymbols(t, f, []symWant{
		{"name", Variable, "", "", ""},
		{"package", Namespace, "", "The package.", ""},
		{"version", Field, "", "", "package"},
		{"metadata", Field, "", "", "package"},
		{"package.metadata.docs", Namespace, "", "", "package"},
		{"all-features", Field, "", "", "package.metadata.docs"},
		{"bin.test", Namespace, "", "", "bin"},
		{"harness", Field, "", "", "bin.test"},
		{"target.cfg(unix).dependencies", Namespace, "", "", ""},
		{"libc.version", Field, "", "", "target.cfg(unix).dependencies"},
	})
	syms := symbolsByName(f)
	if _, ok := syms["msrv"]; ok {
		t.Error("a key of an inline table became a symbol")
	}
	if sig := syms["bin.test"].Signature; sig != "[[bin.test]]" {
		t.Errorf("bin.test: signature %q, want %q", sig, "[[bin.test]]")
	}
	var bins []Symbol
	for _, s := range f.Symbols {
		if s.Name == "bin" {
			bins = append(bins, s)
		}
	}
	if len(bins) != 2 || bins[0].Metadata["table"] != "array" || bins[1].StartLine != 14 || bins[1].EndLine != 16 {
		t.Fatalf("array tables: got %+v, want two, the second on lines 14-16", bins)
	}
	if test := syms["bin.test"]; test.ParentID != bins[1].ID || test.DocComment != "" {
		t.Errorf("bin.test: parent %q doc %q, want the second [[bin]] %q and no doc (the comment ends a pair's line)",
			test.ParentID, test.DocComment, bins[1].ID)
	}
}
