package nav

import "testing"

// TestResolveTSDeclaredThis: in TypeScript, this in a function declaring this: T is a T
// (mobx's function make_(this: Annotation, ...)): this.x and a local bound to this are T's
// members, or its bases'; in a function declaring none, this stays unresolved.
func TestResolveTSDeclaredThis(t *testing.T) {
	checkJS(t, map[string]string{
		"src/annotation.ts": "export interface Base {\n    name_: string\n}\nexport interface Annotation extends Base {\n    options_?: any\n}\n",
		"src/make.ts": `import { Annotation } from "./annotation"

function make_(this: Annotation, key: string) {
    if (this.options_?.bound) {
        return this.name_
    }
    const ann = this
    return ann.options_
}

function other(key: string) {
    return this.options_
}
`,
	}, []jsCase{
		{name: "options_", path: "src/annotation.ts", want: []string{"src/make.ts:4 receiver", "src/make.ts:8 receiver", "src/make.ts:12 unresolved"}},
		{name: "name_", path: "src/annotation.ts", want: []string{"src/make.ts:5 receiver"}},
	})
}

// TestResolveJSCallThrough: f.call(t, a), f.apply(t, args) and f.bind(t) are calls of f (the
// use is of kind call), this.m.call(this) of the method m.
func TestResolveJSCallThrough(t *testing.T) {
	checkJS(t, map[string]string{
		"lib/handle.js": "function handleRequest (err, req) {}\nmodule.exports = handleRequest\n",
		"lib/route.js": `const handleRequest = require('./handle.js')

class Router {
  run (req) {
    handleRequest.call(this, null, req)
    handleRequest.apply(this, [null, req])
    return handleRequest.bind(this)
  }
  again (req) {
    return this.run.call(this, req)
  }
}
`,
	}, []jsCase{
		{name: "handleRequest", path: "lib/handle.js", want: []string{"lib/handle.js:2 scope", "lib/route.js:1 import", "lib/route.js:5 import", "lib/route.js:6 import", "lib/route.js:7 import"}},
		{name: "run", path: "lib/route.js", want: []string{"lib/route.js:10 receiver"}},
	})
}

// TestResolveJSNamedModuleExport: module.exports = function noopSet () {} is the module's
// value: const noopSet = require('./noop-set') and its calls are uses of the function.
func TestResolveJSNamedModuleExport(t *testing.T) {
	checkJS(t, map[string]string{
		"lib/noop-set.js": "module.exports = function noopSet () {\n  return {}\n}\n",
		"lib/server.js":   "const makeSet = require('./noop-set')\n\nfunction createServer () {\n  return makeSet()\n}\n",
	}, []jsCase{
		{name: "noopSet", path: "lib/noop-set.js", want: []string{"lib/server.js:1 import", "lib/server.js:4 import"}},
	})
}
