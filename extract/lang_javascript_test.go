package extract

import (
	"testing"
)

func TestJavaScriptSymbols(t *testing.T) {
	f := extractString(t, "a.js", `
/** Widget does things. */
export class Widget extends Base {
  #count = 0;
  static make() { return new Widget(); }
  /** Runs it. */
  run(x) { this.#count++; helper(x); }
}
function helper(v) { const local = v; return local; }
const LIMIT = 3;
let state = {};
Widget.prototype.extra = function () {};
module.exports = { helper };
export * from "./more";
export default function () { run(); }
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"Widget", Class, Public, "", "Widget does things."},
		{"#count", Property, Private, "Widget", ""},
		{"make", Method, Public, "Widget", ""},
		{"run", Method, Public, "Widget", "Runs it."},
		{"helper", Function, Public, "", ""},
		{"LIMIT", Constant, "", "", ""},
		{"state", Variable, "", "", ""},
		{"extra", Method, Public, "Widget", ""},
		{"default", Function, Public, "", ""},
		{"./more", Import, "", "", ""},
	})
	if symbolsByName(f)["./more"].Metadata["reexport"] != "true" {
		t.Error("export * from is not a re-export import")
	}
	if _, ok := symbolsByName(f)["local"]; ok {
		t.Error("a local of a function body is a symbol")
	}
	if !hasIdent(f, "helper", Call) || !hasIdent(f, "x", VariableRef) || !hasIdent(f, "Widget", Call) {
		t.Error("missing call or variable reference identifiers")
	}
}

func TestTypeScriptSymbols(t *testing.T) {
	f := extractString(t, "a.ts", `
export interface Repo<T> extends Base {
  /** Finds one. */
  find(id: string): T | undefined;
  size: number;
}
export class MemRepo implements Repo<User> {
  constructor(private readonly store: Map<string, User>, public name: string) {}
  protected items: User[] = [];
  find(id: string): User | undefined { return this.store.get(id); }
}
namespace Inner { export type Id = string; enum Mode { A, B = 2 } }
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"Repo", Interface, Public, "", ""},
		{"find", Method, Public, "Repo", "Finds one."},
		{"size", Property, Public, "Repo", ""},
		{"MemRepo", Class, Public, "", ""},
		{"store", Property, Private, "MemRepo", ""},
		{"name", Property, Public, "MemRepo", ""},
		{"items", Property, Protected, "MemRepo", ""},
		{"constructor", Constructor, Public, "MemRepo", ""},
		{"Inner", Namespace, "", "", ""},
		{"Id", Type, Public, "Inner", ""},
		{"Mode", Enum, "", "Inner", ""},
		{"B", EnumMember, Public, "Mode", ""},
	})
	rels := map[string]RelKind{}
	for _, r := range f.Relationships {
		rels[r.FromName+">"+r.To] = r.Kind
	}
	if rels["Repo>Base"] != Extends || rels["MemRepo>Repo"] != Implements {
		t.Errorf("relationships: %v", rels)
	}
	if !hasIdent(f, "User", TypeUsage) || !hasIdent(f, "get", Call) {
		t.Error("missing type usage or call")
	}
}

func TestTSXComponents(t *testing.T) {
	f := extractString(t, "a.tsx", `
export const App = (): JSX.Element => <Layout><Header title="x" /><div /></Layout>;
`)
	checkSymbolsPF(t, f, []symWantPF{{"App", Function, Public, "", ""}})
	if !hasIdent(f, "Layout", Call) || !hasIdent(f, "Header", Call) || hasIdent(f, "div", Call) {
		t.Errorf("JSX component uses: %+v", f.Identifiers)
	}
}

func TestJavaScriptBrokenSource(t *testing.T) {
	for _, path := range []string{"a.js", "a.ts", "a.tsx"} {
		f := extractString(t, path, `
function before() { return 1; }
class Kept { ok() {} }
function broken( { if (
`)
		syms := symbolsByName(f)
		if _, ok := syms["before"]; !ok {
			t.Errorf("%s: lost the function before the break: %+v", path, f.Symbols)
		}
		if _, ok := syms["Kept"]; !ok {
			t.Errorf("%s: lost the class before the break", path)
		}
		if f.ParseErrors == 0 {
			t.Errorf("%s: no parse error counted", path)
		}
	}
}
