package extract

import (
	"slices"
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

// jsNamed returns the symbols of f named name.
func jsNamed(f *File, name string) []Symbol {
	var out []Symbol
	for _, s := range f.Symbols {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// jsOne returns the one symbol of f named name, failing the test when there are none or
// several.
func jsOne(t *testing.T, f *File, name string) Symbol {
	t.Helper()
	syms := jsNamed(f, name)
	if len(syms) != 1 {
		t.Fatalf("%d symbols named %q, want 1: %+v", len(syms), name, syms)
	}
	return syms[0]
}

func TestJavaScriptObjectLiteralMembers(t *testing.T) {
	f := extractString(t, "errors.js", `
const createError = require('@fastify/error')
const kState = Symbol('state')
const limit = 10
const codes = {
  /** Too large. */
  FST_ERR_CTP_BODY_TOO_LARGE: createError('FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large', 413),
  nested: { deep: 1, inner: { deeper: () => 2 } },
  make () { function helper () {} return helper() },
  get body () { return this._body },
  set body (v) { this._body = v },
  fn: function named () {},
  arrow: (a) => a,
  'quoted-key': 1,
  limit,
  same: same,
  [kState]: { computed: true },
  1: 'numeric'
}
export const keys = Object.freeze({ kReplyHeaders: Symbol('headers') })
module.exports = codes
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"codes", Constant, Public, "", ""},
		{"FST_ERR_CTP_BODY_TOO_LARGE", Property, Public, "codes", "Too large."},
		{"nested", Property, Public, "codes", ""},
		{"deep", Property, Public, "nested", ""},
		{"inner", Property, Public, "nested", ""},
		{"deeper", Method, Public, "inner", ""},
		{"make", Method, Public, "codes", ""},
		{"helper", Function, "", "make", ""},
		{"body", Property, Public, "codes", ""},
		{"fn", Method, Public, "codes", ""},
		{"arrow", Method, Public, "codes", ""},
		{"quoted-key", Property, Public, "codes", ""},
		{"kReplyHeaders", Property, Public, "keys", ""},
	})
	body := jsOne(t, f, "body") // the getter and the setter are one definition
	if body.Metadata[jsMetaAccessor] != "get,set" || body.StartLine != 10 || body.EndLine != 11 {
		t.Errorf("body: accessor %q lines %d-%d, want get,set 10-11", body.Metadata[jsMetaAccessor], body.StartLine, body.EndLine)
	}
	for _, name := range []string{"limit", "same", "computed", "1", "named"} {
		for _, s := range jsNamed(f, name) {
			if s.ParentID != "" {
				t.Errorf("%q is a member: %+v", name, s)
			}
		}
	}
	if !hasIdent(f, "limit", VariableRef) || !hasIdent(f, "same", VariableRef) {
		t.Error("a shorthand {limit} or same: same is not a use of the variable")
	}
	if !hasIdent(f, "createError", Call) || !hasIdent(f, "freeze", Call) {
		t.Error("lost the calls inside the members")
	}
}

func TestJavaScriptCommonJSExportsObject(t *testing.T) {
	f := extractString(t, "reply.js", `
function helper () {}
module.exports = {
  get body () { return 1 },
  set body (v) {},
  method () {},
  x: function () {},
  VERSION: '1.0',
  helper
}
module.exports.extra = { a: 1 }
exports.other = 2
exports.helper = helper
exports.fs = require('fs')
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"body", Property, Public, "", ""},
		{"method", Function, Public, "", ""},
		{"x", Function, Public, "", ""},
		{"VERSION", Constant, Public, "", ""},
		{"helper", Function, Public, "", ""},
		{"extra", Constant, Public, "", ""},
		{"a", Property, Public, "extra", ""},
		{"other", Constant, Public, "", ""},
		{"fs", Import, "", "", ""},
	})
	jsOne(t, f, "body")
	jsOne(t, f, "helper") // the shorthand and exports.helper = helper only export it
	if !hasIdent(f, "exports", MemberAccess) {
		t.Error("module.exports is no longer a member access")
	}
}

func TestJavaScriptPrototypeAndStaticMembers(t *testing.T) {
	f := extractString(t, "reply.js", `
Reply.prototype.early = function () {}
function Reply (res) { this.raw = res }
Reply.props = []
Reply.make = function make () {}
Reply.build = () => new Reply()
Reply.prototype.send = function (payload) {}
Reply.prototype.status = Reply.prototype.send
Object.defineProperties(Reply.prototype, {
  sent: { enumerable: true, get () { return true } },
  statusCode: { get () { return 1 }, set (v) {} },
  [kRouteContext]: { get () {} }
})
Object.defineProperty(Reply.prototype, 'elapsed', { get () { return 0 } })
Object.defineProperty(Reply, 'count', { value: function () {} })
function Legacy () {}
Legacy.prototype = { run () {}, size: 1 }
other.thing = function () {}
http.globalAgent.keepAlive = true
test('t', () => { Reply.patched = 1 })
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"early", Method, Public, "Reply", ""},
		{"props", Property, Public, "Reply", ""},
		{"make", Method, Public, "Reply", ""},
		{"build", Method, Public, "Reply", ""},
		{"send", Method, Public, "Reply", ""},
		{"status", Property, Public, "Reply", ""},
		{"sent", Property, Public, "Reply", ""},
		{"statusCode", Property, Public, "Reply", ""},
		{"elapsed", Property, Public, "Reply", ""},
		{"count", Method, Public, "Reply", ""},
		{"run", Method, Public, "Legacy", ""},
		{"size", Property, Public, "Legacy", ""},
	})
	if m := jsOne(t, f, "make").Metadata; m[jsMetaStatic] != "true" {
		t.Errorf("Reply.make is not static: %v", m)
	}
	if m := jsOne(t, f, "statusCode").Metadata; m[jsMetaAccessor] != "get,set" {
		t.Errorf("statusCode accessors: %v", m)
	}
	for _, name := range []string{"thing", "keepAlive", "patched", "get", "enumerable", "value", "raw"} {
		if syms := jsNamed(f, name); len(syms) > 0 {
			t.Errorf("%q is a definition: %+v", name, syms)
		}
	}
}

func TestJavaScriptFactoryObject(t *testing.T) {
	f := extractString(t, "fastify.js", `
function fastify (options) {
  const listen = () => {}
  const fastify = {
    [kState]: { listening: false },
    get: function _get (url) { return url },
    ready: null,
    listen,
    hasPlugin (name) { return false }
  }
  Object.defineProperties(fastify, {
    version: { get () { return VERSION } }
  })
  fastify.ready = ready
  fastify.decorate = function decorate (name) {}
  const local = { notAMember: 1 }
  return fastify
  function ready () {}
}
function build () {
  return { run () {}, size: 1, options }
}
test('a test', (t) => {
  const reply = { sent: true }
  reply.send = () => {}
})
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"fastify", Function, "", "", ""},
		{"get", Method, Public, "fastify", ""},
		{"ready", Property, Public, "fastify", ""},
		{"hasPlugin", Method, Public, "fastify", ""},
		{"version", Property, Public, "fastify", ""},
		{"decorate", Method, Public, "fastify", ""},
		{"run", Method, Public, "build", ""},
		{"size", Property, Public, "build", ""},
	})
	var object Symbol
	for _, s := range jsNamed(f, "fastify") {
		if s.Kind == Constant {
			object = s
		}
	}
	if object.ID == "" || jsOne(t, f, "get").ParentID != object.ID {
		t.Errorf("the members are not the local object's: %+v", f.Symbols)
	}
	if len(jsNamed(f, "ready")) != 2 { // the member and the nested function
		t.Errorf("ready: %+v", jsNamed(f, "ready"))
	}
	for _, name := range []string{"listen", "listening", "notAMember", "local", "options", "sent", "send"} {
		for _, s := range jsNamed(f, name) {
			if s.Kind != Function && s.Kind != Constant {
				t.Errorf("%q is a member: %+v", name, s)
			}
		}
	}
	if len(jsNamed(f, "sent"))+len(jsNamed(f, "send"))+len(jsNamed(f, "notAMember")) != 0 {
		t.Error("a local object's members that are no factory's are definitions")
	}
}

func TestJavaScriptNestedFunctionParent(t *testing.T) {
	f := extractString(t, "reply.js", `
function sendTrailer (payload) {
  function send () {}
  send()
}
Reply.prototype.send = function () { function inner () {} }
function Reply () {}
class Cache { get (key) { return 1 } set (key, v) {} }
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"sendTrailer", Function, "", "", ""},
		{"inner", Function, "", "send", ""},
		{"get", Method, Public, "Cache", ""}, // a method named get is no getter
		{"set", Method, Public, "Cache", ""},
	})
	parents := map[string]string{}
	for _, s := range f.Symbols {
		parents[s.ID] = s.Name
	}
	for _, s := range jsNamed(f, "send") {
		if want := map[Kind]string{Function: "sendTrailer", Method: "Reply"}[s.Kind]; parents[s.ParentID] != want {
			t.Errorf("%s send: parent %q, want %q", s.Kind, parents[s.ParentID], want)
		}
	}
}

func TestTypeScriptOverloadsAndFields(t *testing.T) {
	f := extractString(t, "a.ts", `
/** f converts. */
export function f(a: string): string;
export function f(a: number): number;
export function f(a: any): any {
  return helper(a);
}
declare function g(): void;
declare function g(x: number): void;
class A {
  x = 1;
  #p;
  static s = 2;
  m(a: string): void;
  // the implementation
  m(a: number): void;
  m(a: any) { this.x = a; }
  get v(): number { return 1 }
  set v(a: number) {}
  static get v(): number { return 2 }
}
interface I {
  on(e: "a"): this;
  on(e: "b"): this;
  off(): void;
}
function h(): void {}
function h(): void {}
`)
	checkSymbolsPF(t, f, []symWantPF{
		{"f", Function, Public, "", "f converts."},
		{"g", Function, "", "", ""},
		{"x", Property, Public, "A", ""},
		{"#p", Property, Private, "A", ""},
		{"s", Property, Public, "A", ""},
		{"m", Method, Public, "A", "the implementation"}, // the first overload's doc comment has none
		{"on", Method, Public, "I", ""},
	})
	fn := jsOne(t, f, "f")
	if fn.StartLine != 3 || fn.EndLine != 7 || fn.Signature != "export function f(a: string): string" {
		t.Errorf("f: lines %d-%d signature %q", fn.StartLine, fn.EndLine, fn.Signature)
	}
	if !slices.ContainsFunc(f.Identifiers, func(id Identifier) bool { return id.Name == "helper" && id.ContainingSymbolID == fn.ID }) {
		t.Error("the implementation's body is not inside the overloads' definition")
	}
	if m := jsOne(t, f, "m"); m.StartLine != 14 || m.EndLine != 17 || m.Signature != "m(a: string): void" {
		t.Errorf("m: lines %d-%d signature %q", m.StartLine, m.EndLine, m.Signature)
	}
	if on := jsOne(t, f, "on"); on.EndLine != 24 {
		t.Errorf("on: lines %d-%d", on.StartLine, on.EndLine)
	}
	jsOne(t, f, "g")
	if len(jsNamed(f, "v")) != 2 { // the instance pair, and the static getter
		t.Errorf("v: %+v", jsNamed(f, "v"))
	}
	if len(jsNamed(f, "h")) != 2 { // two implementations are no overloads
		t.Errorf("h: %+v", jsNamed(f, "h"))
	}
	if s := jsOne(t, f, "s"); s.Metadata[jsMetaStatic] != "true" {
		t.Errorf("s is not static: %v", s.Metadata)
	}
	var types int
	for _, ti := range f.Types {
		if ti.SymbolID == fn.ID && ti.Role == "return" {
			types++
		}
	}
	if types != 1 {
		t.Errorf("f has %d return types, want the first overload's", types)
	}
}
