package extract

import "testing"

// f.call(t, a), f.apply(t, args) and f.bind(t) call f: the function they are looked up on is
// a use of kind call (handleRequest.call(server, null, req), this.run.call(this)), with the
// qualifier it has; call, apply and bind themselves stay calls of f's members.
func TestJavaScriptCallThrough(t *testing.T) {
	f := extractString(t, "a.js", `class Router {
  run (req) {
    handleRequest.call(this, null, req)
    handleRequest.apply(this, [null, req])
    return handleRequest.bind(this)
  }
  again (req) {
    return this.run.call(this, req)
  }
}
other.callback(x)
`)
	type use struct {
		name, qual string
		line       int
		kind       IdentKind
	}
	var got []use
	for _, id := range f.Identifiers {
		switch id.Name {
		case "handleRequest", "run", "call", "apply", "bind", "other", "callback":
			got = append(got, use{id.Name, id.Qualifier, id.StartLine, id.Kind})
		}
	}
	want := []use{
		{"call", "handleRequest", 3, Call}, {"handleRequest", "", 3, Call},
		{"apply", "handleRequest", 4, Call}, {"handleRequest", "", 4, Call},
		{"bind", "handleRequest", 5, Call}, {"handleRequest", "", 5, Call},
		{"call", "this.run", 8, Call}, {"run", "this", 8, Call},
		{"callback", "other", 11, Call}, {"other", "", 11, VariableRef},
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("no use %+v among %+v", w, got)
		}
	}
	for _, g := range got {
		if g.name == "handleRequest" && g.kind != Call {
			t.Errorf("handleRequest at line %d is a use of kind %v, not a call", g.line, g.kind)
		}
	}
}

// module.exports = function name () {...} defines name, a public function the module
// exports as its value (fastify's noop-set.js); so does a named class expression, and an
// anonymous function defines nothing.
func TestJavaScriptNamedModuleExport(t *testing.T) {
	for _, c := range []struct {
		src, name string
		kind      Kind
	}{
		{"module.exports = function noopSet () {\n  return { add () {} }\n}\n", "noopSet", Function},
		{"module.exports = class Store extends Base {\n  get (k) {}\n}\n", "Store", Class},
		{"module.exports = function () {}\n", "", Function},
	} {
		f := extractString(t, "a.js", c.src)
		if c.name == "" {
			if len(f.Symbols) != 0 {
				t.Errorf("%q: symbols %+v, want none", c.src, f.Symbols)
			}
			continue
		}
		s, ok := symbolsByName(f)[c.name]
		if !ok || s.Kind != c.kind || s.Visibility != Public || s.StartLine != 1 || s.ParentID != "" {
			t.Errorf("%q: %s is %+v, want a public top-level %s at line 1", c.src, c.name, s, c.kind)
		}
	}
}

// The type arguments of a call or a new expression are uses of their types (mobx's
// createDecoratorAnnotation<ClassAccessorDecorator>(a), new Map<K, ObservableValue<any>>()).
func TestTypeScriptCallTypeArguments(t *testing.T) {
	f := extractString(t, "a.ts", "const a = createDecoratorAnnotation<ClassAccessorDecorator>(x)\nconst b = new Map<PropertyKey, ObservableValue<any> | Computed>()\nconst c = o.m<Qux>()\n")
	for _, name := range []string{"ClassAccessorDecorator", "PropertyKey", "ObservableValue", "Computed", "Qux"} {
		if !hasIdent(f, name, TypeUsage) {
			t.Errorf("no use of the type %s", name)
		}
	}
}
