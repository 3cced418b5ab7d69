package extract

import "testing"

func TestCSSSymbols(t *testing.T) {
	f := extractString(t, "a.css", `@import url("base.css");

/* Tokens. */
:root {
  --main-color: #123456;
}

.card, #hero {
  --pad: 4px;
  padding: var(--pad);
}

@keyframes pulse {
  50% { opacity: 0.5; }
}

@media (min-width: 40em) {
  .card > h2 {
    color: var(--main-color);
  }
}
`)
	checkSymbols(t, f, []symWant{
		{"base.css", Import, "", "", ""},
		{":root", Type, "", "Tokens.", ""},
		{"--main-color", Variable, "", "", ":root"},
		{".card", Class, "", "", ""},
		{"#hero", Constant, "", "", ""},
		{"--pad", Variable, "", "", ".card"},
		{"pulse", Function, "", "", ""},
		{"(min-width: 40em)", Namespace, "", "", ""},
		{".card > h2", Class, "", "", "(min-width: 40em)"},
	})
	syms := symbolsByName(f)
	if s := syms["#hero"]; s.StartLine != 8 || s.StartColumn != 8 || s.Signature != ".card, #hero" {
		t.Errorf("#hero: at %d:%d signature %q, want 8:8 %q", s.StartLine, s.StartColumn, s.Signature, ".card, #hero")
	}
	if s := syms["(min-width: 40em)"]; s.Signature != "@media (min-width: 40em)" {
		t.Errorf("@media signature = %q", s.Signature)
	}
	if s := syms["--main-color"]; s.Signature != "--main-color: #123456" {
		t.Errorf("--main-color signature = %q", s.Signature)
	}
	if _, ok := syms["padding"]; ok {
		t.Error("an ordinary declaration became a symbol")
	}
	if !hasIdent(f, "--pad", VariableRef) || !hasIdent(f, "--main-color", VariableRef) || !hasIdent(f, "base.css", ImportRef) {
		t.Errorf("missing var() references or import ref: %+v", f.Identifiers)
	}
}

func TestCSSSelectorKinds(t *testing.T) {
	f := extractString(t, "b.css", "a.link:not(.x) {}\nul li {}\n#nav a {}\nbutton:not(.primary) {}\n")
	checkSymbols(t, f, []symWant{
		{"a.link:not(.x)", Class, "", "", ""},
		{"ul li", Type, "", "", ""},
		{"#nav a", Constant, "", "", ""},
		{"button:not(.primary)", Type, "", "", ""},
	})
}
