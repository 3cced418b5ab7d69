package nav

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/quarrysearch/quarry/index/store"
)

// jsCase is a definition (name in path, the first of that name there unless line is set)
// and the uses refs --unresolved lists of it, as "path:line resolution".
type jsCase struct {
	name, path string
	line       int
	want       []string
}

// checkJS compares the uses of each case's definition with its want.
func checkJS(t *testing.T, files map[string]string, cases []jsCase) {
	t.Helper()
	s := extractedStore(t, files)
	for _, c := range cases {
		var got []string
		if c.line == 0 {
			got = usesOf(t, s, c.name, c.path)
		} else {
			got = usesAt(t, s, c.name, c.path, c.line)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("uses of %s in %s:%d:\n got %q\nwant %q", c.name, c.path, c.line, got, c.want)
		}
	}
}

// usesAt is usesOf for the definition of name starting at line of p (0: the first in p).
func usesAt(t *testing.T, s *store.Store, name, p string, line int) []string {
	t.Helper()
	defs, err := NewReader(s).Definitions(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(defs, func(d Def) bool { return d.Path == p && (line == 0 || d.Line == line) })
	if i < 0 {
		t.Fatalf("no definition of %s at %s:%d among %+v", name, p, line, defs)
	}
	refs, _, err := NewReader(s).SymbolRefs(context.Background(), defs[i], RefsQuery{Unresolved: true, Limit: 100, NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range refs {
		why := r.Resolution
		if why == "" {
			why = "unresolved"
		}
		out = append(out, r.Path+":"+strconv.Itoa(r.Line)+" "+why)
	}
	return out
}

// TestResolveJSRequire: CommonJS. const x = require('./x') binds the module's value
// (module.exports = X: X itself, X's statics and members), { a, b: c } = require() and
// y = require().x bind names as an import does, require('./x').y is x's export y; a module
// file is found with or without its extension, as a directory's index.js, through a
// package.json's main (require('..')); the names imported are uses of kind import; a
// computed key this[k], o[k] and { [k]: v } is a use of k.
func TestResolveJSRequire(t *testing.T) {
	checkJS(t, map[string]string{
		"package.json": `{"name": "app", "main": "lib/app.js"}`,
		"lib/symbols.js": `'use strict'
const keys = {
  kHeaders: Symbol('headers'),
  kOther: Symbol('other')
}
module.exports = keys
`,
		"lib/reply.js": `'use strict'
const { kHeaders, kOther: other } = require('./symbols')
const wrap = require('./wrap.js')

function Reply (res) {
  this[kHeaders] = {}
}

Reply.prototype.send = function (payload) {
  wrap(this[kHeaders])
  return this.code()
}

Reply.prototype.code = function () {
  return { [kHeaders]: other }
}

Reply.buildReply = function () {}

module.exports = Reply
`,
		"lib/wrap.js": `function wrap (x) { return x }
module.exports = wrap
`,
		"lib/util/index.js": `exports.helper = function () {}
module.exports.other = 1
function hidden () {}
`,
		"lib/app.js": `const Reply = require('./reply')
const symbols = require('./symbols.js')
const kHeaders = require('./symbols').kHeaders
const util = require('./util')

function build () {
  Reply.buildReply()
  util.helper()
  util.hidden()
  const r = new Reply()
  r.send()
  return symbols.kHeaders + require('./symbols').kOther + kHeaders
}
module.exports = build
`,
		"test/app.test.js": `const build = require('..')
const { helper } = require('../lib/util')
build()
helper()
`,
	}, []jsCase{
		{name: "kHeaders", path: "lib/symbols.js", want: []string{
			"lib/app.js:3 import", "lib/app.js:3 import", // the name bound, and require('./symbols').kHeaders
			"lib/app.js:12 import", "lib/app.js:12 import", // symbols.kHeaders, and the binding of line 3
			"lib/reply.js:2 import", "lib/reply.js:6 import", "lib/reply.js:10 import", "lib/reply.js:15 import",
		}},
		{name: "kOther", path: "lib/symbols.js", want: []string{"lib/app.js:12 import", "lib/reply.js:2 import"}},
		{name: "wrap", path: "lib/wrap.js", want: []string{"lib/reply.js:3 import", "lib/reply.js:10 import", "lib/wrap.js:2 scope"}},
		{name: "Reply", path: "lib/reply.js", want: []string{
			"lib/app.js:1 import", "lib/app.js:7 import", "lib/app.js:10 import",
			"lib/reply.js:9 scope", "lib/reply.js:14 scope", "lib/reply.js:18 scope", "lib/reply.js:20 scope",
		}},
		{name: "buildReply", path: "lib/reply.js", want: []string{"lib/app.js:7 import"}},
		{name: "send", path: "lib/reply.js", want: []string{"lib/app.js:11 receiver"}},
		{name: "code", path: "lib/reply.js", want: []string{"lib/reply.js:11 receiver"}},
		{name: "helper", path: "lib/util/index.js", want: []string{"lib/app.js:8 import", "test/app.test.js:2 import", "test/app.test.js:4 import"}},
		{name: "hidden", path: "lib/util/index.js", want: []string{"lib/app.js:9 unresolved"}},
		{name: "build", path: "lib/app.js", want: []string{"lib/app.js:14 scope", "test/app.test.js:1 import", "test/app.test.js:3 import"}},
	})
}

// TestResolveJSModules: ES modules. Named, default and namespace imports of a module with
// or without its extension, of a directory's index.ts, of a package of the workspace by its
// name (package.json exports), through barrels that re-export (export {x} from, export {x
// as y} from, export * from, export * as ns from, an import exported again), cycle-safe.
func TestResolveJSModules(t *testing.T) {
	checkJS(t, map[string]string{
		"packages/core/package.json": `{"name": "@app/core", "exports": {".": {"types": "./src/index.ts", "default": "./dist/index.js"}}}`,
		"packages/core/src/index.ts": `export { parse } from './parse'
export { format as render } from './format.js'
export * from './util'
export * as helpers from './helpers/index'
import { cycle } from './index'
export { cycle }
`,
		"packages/core/src/parse.ts":         "export function parse(s: string): number {\n  return 1\n}\n",
		"packages/core/src/format.ts":        "export function format(n: number): string {\n  return ''\n}\n",
		"packages/core/src/util.ts":          "export const clamp = (n: number) => n\nexport default function main() {}\n",
		"packages/core/src/helpers/index.ts": "export function assist() {}\n",
		"packages/core/src/other.ts":         "export function parse() {}\n",
		"app/main.ts": `import { parse, render, clamp, helpers } from '@app/core'
import * as core from '../packages/core/src'
import main from '../packages/core/src/util'
import { main as notExported } from '../packages/core/src/index'

parse('1')
render(2)
clamp(3)
helpers.assist()
core.parse('x')
core.helpers.assist()
main()
`,
	}, []jsCase{
		{name: "parse", path: "packages/core/src/parse.ts", want: []string{
			"app/main.ts:1 import", "app/main.ts:6 import", "app/main.ts:10 import", "packages/core/src/index.ts:1 import",
		}},
		{name: "parse", path: "packages/core/src/other.ts", want: nil},
		{name: "format", path: "packages/core/src/format.ts", want: []string{"packages/core/src/index.ts:2 import"}},
		{name: "clamp", path: "packages/core/src/util.ts", want: []string{"app/main.ts:1 import", "app/main.ts:8 import"}},
		{name: "assist", path: "packages/core/src/helpers/index.ts", want: []string{"app/main.ts:9 import", "app/main.ts:11 import"}},
		{name: "main", path: "packages/core/src/util.ts", want: []string{"app/main.ts:3 import", "app/main.ts:12 import", "app/main.ts:4 unresolved"}},
	})
}

// TestResolveJSThisAndLocals: this.x in a class's method (its statics in a static method),
// in an object literal's method, in a prototype method of a constructor function; x.y for a
// local bound to new X() or to a factory's call; a parameter or local named like an
// imported or top-level definition hides it (unresolved, never that definition); o['name']
// is a use of the member name; a JSX element is a use of the component.
func TestResolveJSThisAndLocals(t *testing.T) {
	checkJS(t, map[string]string{
		"src/store.js": `export class Store {
  static create () { return this.empty() }
  static empty () { return new Store() }
  get (k) { return this.items[k] }
  items = {}
  size () { return this.get('a') + this['get']('b') }
}

export const api = {
  get (k) { return this.fetch(k) },
  fetch (k) { return k }
}

export function makeServer () {
  const server = {}
  server.listen = function () {}
  return server
}
`,
		"src/use.js": `import { Store, api, makeServer } from './store'
import { helper } from './helper'

function run (helper) {
  const s = new Store()
  s.get('x')
  const srv = makeServer()
  srv.listen()
  helper()
  api.get('y')
  return Store.create()
}

function other () {
  const get = 1
  helper()
  return get
}
`,
		"src/helper.js": "export function helper () {}\nexport function Button () { return null }\n",
		"src/view.jsx": `import { Button } from './helper'

export function View () {
  return <Button label="x" />
}
`,
	}, []jsCase{
		// use.js:17 is the local get of other(): a use of the name no rule ties to either.
		{name: "get", path: "src/store.js", line: 4, want: []string{"src/store.js:6 receiver", "src/store.js:6 receiver", "src/use.js:6 receiver", "src/use.js:17 unresolved"}},
		{name: "get", path: "src/store.js", line: 10, want: []string{"src/use.js:10 import", "src/use.js:17 unresolved"}},
		{name: "fetch", path: "src/store.js", want: []string{"src/store.js:10 receiver"}},
		{name: "empty", path: "src/store.js", want: []string{"src/store.js:2 receiver"}},
		{name: "items", path: "src/store.js", want: []string{"src/store.js:4 receiver"}},
		{name: "create", path: "src/store.js", want: []string{"src/use.js:11 import"}},
		{name: "listen", path: "src/store.js", want: []string{"src/use.js:8 receiver"}},
		// use.js:9 is run()'s parameter helper.
		{name: "helper", path: "src/helper.js", want: []string{"src/use.js:2 import", "src/use.js:16 import", "src/use.js:9 unresolved"}},
		{name: "Button", path: "src/helper.js", want: []string{"src/view.jsx:1 import", "src/view.jsx:4 import"}},
	})
}

// TestResolveTSOverloadsAndTypes: overload signatures are one definition (no use counted
// twice); foo.bar<T>() where foo has a declared type resolves to the type's method.
func TestResolveTSOverloadsAndTypes(t *testing.T) {
	checkJS(t, map[string]string{
		"src/lib.ts": `export function pick(a: string): string
export function pick(a: number): number
export function pick(a: any): any {
  return a
}

export class Repo {
  find<T>(id: string): T | undefined { return undefined }
}
`,
		"src/app.ts": `import { pick, Repo } from './lib'

export function load(repo: Repo) {
  pick('a')
  pick(1)
  return repo.find<number>('x')
}
`,
	}, []jsCase{
		{name: "pick", path: "src/lib.ts", want: []string{"src/app.ts:1 import", "src/app.ts:4 import", "src/app.ts:5 import"}},
		{name: "find", path: "src/lib.ts", want: []string{"src/app.ts:6 receiver"}},
	})
}

// TestResolveJSAliases: the uses of a definition under another name count: a module's
// value required by another name, a named import renamed, a definition exported under
// another name (module.exports = { x: f }) and used by that name, bare or through the
// module (m.x).
func TestResolveJSAliases(t *testing.T) {
	checkJS(t, map[string]string{
		"lib/config.js":   "function validate10 (x) { return x }\nmodule.exports = validate10\n",
		"lib/decorate.js": "function checkRequestExistence () {}\nfunction other () {}\nmodule.exports = {\n  existRequest: checkRequestExistence,\n  other\n}\n",
		"lib/fmt.ts":      "export function format(n: number): string { return '' }\n",
		"lib/use.js": `const validate = require('./config')
const { existRequest } = require('./decorate.js')
const decorator = require('./decorate')

function run () {
  validate(1)
  existRequest()
  return decorator.existRequest() || validate.errors
}
`,
		"lib/view.ts": "import { format as fmt } from './fmt'\n\nexport const shown = fmt(1)\n",
	}, []jsCase{
		{name: "validate10", path: "lib/config.js", want: []string{
			"lib/config.js:2 scope", "lib/use.js:1 import", "lib/use.js:6 import", "lib/use.js:8 import",
		}},
		{name: "checkRequestExistence", path: "lib/decorate.js", want: []string{
			"lib/decorate.js:4 scope", "lib/use.js:2 import", "lib/use.js:7 import", "lib/use.js:8 import",
		}},
		{name: "format", path: "lib/fmt.ts", want: []string{"lib/view.ts:1 import", "lib/view.ts:3 import"}},
	})
}

// TestResolveJSInstancesAndKeys: new X(...).m() and x.m() for x bound to a static factory
// whose body returns new X(...) are X's members; a require inside a function binds its
// names there; o[k](...) reads k.
func TestResolveJSInstancesAndKeys(t *testing.T) {
	checkJS(t, map[string]string{
		"lib/ct.js": `class ContentType {
  static from (s) { return new ContentType(s) }
  toString () { return '' }
}
module.exports = { ContentType, kSerialize: Symbol('s') }
`,
		"lib/use.js": `const { ContentType } = require('./ct')

function run (s, reply) {
  const { kSerialize } = require('./ct')
  const ct = ContentType.from(s)
  reply[kSerialize](ct.toString())
  return new ContentType(s).toString()
}
`,
	}, []jsCase{
		{name: "toString", path: "lib/ct.js", want: []string{"lib/use.js:6 receiver", "lib/use.js:7 receiver"}},
		{name: "kSerialize", path: "lib/ct.js", want: []string{"lib/use.js:4 import", "lib/use.js:6 import"}},
	})
}
