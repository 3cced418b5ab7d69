package extract

import "testing"

func TestPHPSymbols(t *testing.T) {
	f := extractString(t, "a.php", `<?php
namespace Shop {
    /** Cart holds items. */
    final class Cart extends Base implements \Countable {
        use Loggable;
        const LIMIT = 10;
        private array $items = [];
        public function __construct(protected Store $store) {}
        /** Counts items. */
        public function count(): int { return count($this->items); }
        function plain() { $local = 1; return $local; }
        private static function build(): self { return new self(); }
    }
    interface Store { public function get(string $k); }
    function util($x) { return Cart::build($x); }
}
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"Shop", Namespace, Public, "", ""},
		{"Cart", Class, Public, "Shop", "Cart holds items."},
		{"LIMIT", Constant, Public, "Cart", ""},
		{"items", Property, Private, "Cart", ""},
		{"store", Property, Protected, "Cart", ""},
		{"__construct", Constructor, Public, "Cart", ""},
		{"count", Method, Public, "Cart", "Counts items."},
		{"plain", Method, Public, "Cart", ""},
		{"build", Method, Private, "Cart", ""},
		{"Store", Interface, Public, "Shop", ""},
		{"get", Method, Public, "Store", ""},
		{"util", Function, Public, "Shop", ""},
	})
	if _, ok := symbolsByName(f)["local"]; ok {
		t.Error("a local variable is a symbol")
	}
	rels := map[string]RelKind{}
	for _, r := range f.Relationships {
		rels[r.FromName+">"+r.To] = r.Kind
	}
	if rels["Cart>Base"] != Extends || rels["Cart>Countable"] != Implements || rels["Cart>Loggable"] != Uses {
		t.Errorf("relationships: %v", rels)
	}
	if !hasIdent(f, "build", Call) || !hasIdent(f, "items", MemberAccess) || !hasIdent(f, "Cart", TypeUsage) || !hasIdent(f, "x", VariableRef) {
		t.Error("missing identifiers")
	}
	if f.Symbols[0].Metadata != nil && f.Symbols[0].Metadata["final"] != "" {
		t.Error("namespace has modifiers")
	}
	if symbolsByName(f)["Cart"].Metadata["final"] != "true" {
		t.Error("final class not marked")
	}
}

func TestPHPBrokenSource(t *testing.T) {
	f := extractString(t, "a.php", `<?php
function before(): int { return 1; }
class Kept { public function ok() {} }
function broken( { if (
`)
	syms := symbolsByName(f)
	for _, name := range []string{"before", "Kept", "ok"} {
		if _, ok := syms[name]; !ok {
			t.Errorf("lost %s before the break: %+v", name, f.Symbols)
		}
	}
	if f.ParseErrors == 0 {
		t.Error("no parse error counted")
	}
}
