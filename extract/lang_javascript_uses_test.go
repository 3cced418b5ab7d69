package extract

import (
	"testing"
)

// TestJavaScriptModuleBindings: require binds a name (alias), names ({ a, b: c }: "a, b as
// c") or a member (y = require("m").x: "x as y"), in a function too; a re-export says what
// it binds (names, alias, wildcard); module.exports = X, export = X and export default X
// mark X; the names an import binds are uses of kind import.
func TestJavaScriptModuleBindings(t *testing.T) {
	f := extractString(t, "a.js", `const Reply = require('./reply')
const { kA, kB: b } = require('./symbols')
const eos = require('node:stream').finished
function run () {
  const { inner } = require('./inner')
  return inner
}
function handle () {}
module.exports = handle
`)
	imports := map[string]map[string]string{}
	for _, s := range f.Symbols {
		if s.Kind == Import {
			imports[s.Name] = s.Metadata
		}
	}
	for spec, want := range map[string][2]string{
		"./reply":     {"alias", "Reply"},
		"./symbols":   {"names", "kA, kB as b"},
		"node:stream": {"names", "finished as eos"},
		"./inner":     {"names", "inner"},
	} {
		if got := imports[spec][want[0]]; got != want[1] {
			t.Errorf("require(%q): %s %q, want %q (metadata %v)", spec, want[0], got, want[1], imports[spec])
		}
	}
	if _, ok := symbolsByName(f)["eos"]; ok {
		t.Error("eos = require('node:stream').finished is a definition, want an import binding")
	}
	if symbolsByName(f)["handle"].Metadata[jsMetaExport] != "module" {
		t.Error("module.exports = handle does not mark handle")
	}
	for _, n := range []string{"Reply", "kA", "kB", "inner"} {
		if !hasIdent(f, n, ImportRef) {
			t.Errorf("the name %s the require binds is no use of kind import", n)
		}
	}

	ts := extractString(t, "b.ts", `export { a, b as c } from './x'
export * as ns from './y'
export * from './z'
export default function main() {}
`)
	byTarget := map[string]map[string]string{}
	for _, s := range ts.Symbols {
		if s.Kind == Import {
			byTarget[s.Name] = s.Metadata
		}
	}
	if m := byTarget["./x"]; m["names"] != "a, b as c" || m["reexport"] != "true" {
		t.Errorf("export { a, b as c } from: %v", m)
	}
	if m := byTarget["./y"]; m["alias"] != "ns" {
		t.Errorf("export * as ns from: %v", m)
	}
	if m := byTarget["./z"]; m["wildcard"] != "true" {
		t.Errorf("export * from: %v", m)
	}
	if symbolsByName(ts)["main"].Metadata[jsMetaExport] != "default" {
		t.Error("export default function main does not mark main")
	}
	if !hasIdent(ts, "a", ImportRef) || !hasIdent(ts, "b", ImportRef) {
		t.Error("the names a re-export imports are no uses of kind import")
	}

	d := extractString(t, "c.d.ts", "declare function f(): void\nexport = f\n")
	if symbolsByName(d)["f"].Metadata[jsMetaExport] != "module" {
		t.Error("export = f does not mark f")
	}
}

// TestJavaScriptReadNames: every name read in an expression is a use (a computed key
// o[k], { [k]: v }, the object of a member access, an operand, the object of X.y = v),
// o['name'] is an access of the member name on o, and a declaration's, a parameter's or a
// pattern's own name is none.
func TestJavaScriptReadNames(t *testing.T) {
	f := extractString(t, "a.js", `function Reply (res, { raw } = {}) {
  this[kHeaders] = {}
  const o = { [kKey]: res || fallback }
  Reply.count = total + 1
  return o['field'] && Holder.value
}
Reply.prototype.send = function (payload) {}
for (const item of list) use(item)
`)
	for _, n := range []string{"kHeaders", "kKey", "res", "fallback", "total", "Holder", "list", "item"} {
		if !hasIdent(f, n, VariableRef) {
			t.Errorf("%s read in an expression is no variable_ref", n)
		}
	}
	var reply int
	for _, x := range f.Identifiers {
		switch {
		case x.Name == "field" && (x.Kind != MemberAccess || x.Qualifier != "o" || x.StartColumn != 13):
			t.Errorf("o['field']: %+v, want a member_access of field on o at column 13", x)
		case x.Name == "Reply" && x.Kind == VariableRef:
			reply++
		case x.Kind == VariableRef && (x.Name == "raw" || x.Name == "payload" || x.Name == "o" && x.StartLine == 3):
			t.Errorf("a binding is a use: %+v", x)
		}
	}
	if !hasIdent(f, "field", MemberAccess) {
		t.Error("o['field'] is no member access of field")
	}
	if reply != 2 { // Reply.count = and Reply.prototype.send =
		t.Errorf("the object of a member assignment: %d uses of Reply, want 2", reply)
	}
}
