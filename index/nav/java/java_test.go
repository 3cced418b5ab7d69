package java

import "testing"

// TestJavaLocalsIn: the scanner of a method's locals and parameters in scope at a point.
func TestJavaLocalsIn(t *testing.T) {
	cases := []struct {
		src, name, typ string
		found          bool
	}{
		{"void f(Map<String, Integer> m, int n) {\n  ", "m", "Map<String,Integer>", true},
		{"void f() {\n  Foo a = new Foo();\n  ", "a", "Foo", true},
		{"void f() {\n  var a = new Foo(1);\n  ", "a", "Foo", true},
		{"void f() {\n  { Foo a; }\n  ", "a", "", false},
		{"void f() {\n  for (Foo a : as) {}\n  ", "a", "", false},
		{"void f() {\n  for (Foo a : as) a.x();\n  ", "a", "", false},
		{"void f() {\n  for (Foo a : as) { ", "a", "Foo", true},
		{"void f() {\n  try { } catch (IOException e) { ", "e", "IOException", true},
		{"void f() {\n  use((Ctx c) -> c.next());\n  ", "c", "", false},
		{"void f() {\n  use((Ctx c) -> ", "c", "Ctx", true},
		{"void f() {\n  use(c -> { ", "c", "", true},
		{"void f() {\n  if (o instanceof Foo g) { ", "g", "Foo", true},
		{"void f() {\n  if (a < b && c > d) ", "d", "", false},
		{"void f() {\n  return a;\n  ", "a", "", false},
		{"class X {\n  Foo a;\n  static {\n    ", "a", "", false}, // a field, not a local
	}
	for _, c := range cases {
		skip := 0
		if c.src[:5] == "class" {
			skip = 1
		}
		typ, found := javaLocalsIn(c.src, c.name, skip)
		if typ != c.typ || found != c.found {
			t.Errorf("javaLocalsIn(%q, %s) = %q, %v; want %q, %v", c.src, c.name, typ, found, c.typ, c.found)
		}
	}
}
