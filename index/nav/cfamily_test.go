package nav

import (
	"slices"
	"strings"
	"testing"
)

// TestResolveCIncludesAndDeclarations: a use in a .c file means the definition the file
// sees: its own static one, the one in a header it includes (transitively), or the
// function with external linkage its prototype declares; a prototype is one entity with
// its definition; a parameter or local of the same name hides a global; a field is never
// a bare name; p->x is a field of p's declared struct; a renaming macro's uses are its own
// and the function's.
func TestResolveCIncludesAndDeclarations(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"lib/util.h": `#ifndef UTIL_H
#define UTIL_H
#include "types.h"
#define get_bytes _x_get_bytes
extern int get_bytes (char *buf, int n);
static inline int twice (int v) { return 2 * v; }
#endif
`,
		"lib/types.h": `struct ctx { int count; int len; };
struct other { int count; };
#define BUF_LEN 16
`,
		"lib/util.c": `#include "util.h"
int get_bytes (char *buf, int n) { return n; }
`,
		"lib/main.c": `#include "util.h"
static int helper (int n) { return n; }
int limit;
int run (struct ctx *c, int limit) {
  char buf[BUF_LEN];
  int count = 0;
  c->count = twice (helper (limit));
  return get_bytes (buf, c->len) + count;
}
`,
		"lib/other.c": `static int helper (int n) { return n + 1; }
int use (void) { return helper (limit); }
`,
	})
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		// the definition: the prototype's uses and the renaming macro's are its own
		{"get_bytes", "lib/util.c", 2, []string{"lib/main.c:8 global-unique"}},
		{"get_bytes", "lib/util.h", 4, []string{"lib/main.c:8 import", "lib/util.c:2 import", "lib/util.h:5 import"}},
		// static per file
		{"helper", "lib/main.c", 2, []string{"lib/main.c:7 scope"}},
		{"helper", "lib/other.c", 1, []string{"lib/other.c:2 scope"}},
		// a header's static inline function, through the include
		{"twice", "lib/util.h", 6, []string{"lib/main.c:7 import"}},
		// a macro two includes away
		{"BUF_LEN", "lib/types.h", 3, []string{"lib/main.c:5 import"}},
		// the parameter limit hides the global; other.c links to it
		{"limit", "lib/main.c", 3, []string{"lib/other.c:2 global-unique"}},
		// c->count: struct ctx's field, not struct other's; the local count is neither
		{"count", "lib/types.h", 1, []string{"lib/main.c:7 receiver"}},
		{"count", "lib/types.h", 2, nil},
		{"len", "lib/types.h", 1, []string{"lib/main.c:8 receiver"}},
	}
	for _, c := range cases {
		got := usesAt(t, s, c.name, c.path, c.line)
		got = slices.DeleteFunc(got, func(u string) bool { return strings.HasSuffix(u, " unresolved") })
		if !slices.Equal(got, c.want) {
			t.Errorf("uses of %s at %s:%d = %v, want %v", c.name, c.path, c.line, got, c.want)
		}
	}
}

// TestResolveCppPathsAndMembers: ns::f and E::v mean the definition whose namespaces and
// types end with the path; inside a method a bare name is the class's member unless a
// parameter or a template parameter hides it.
func TestResolveCppPathsAndMembers(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"a/str.hpp": `namespace app {
namespace detail {
inline int trim (int s) { return s; }
}
inline int trim (int s) { return s + 1; }
enum class mode { on, off };
class Opt {
  int count_;
 public:
  int count () const { return count_; }
  void set (int count_) { this->count_ = count_; }
};
}
`,
		"a/use.cpp": `#include "str.hpp"
namespace app {
template <typename count_> int f (Opt *o) {
  if (o->count () > 0) return detail::trim (1);
  return mode::on == mode::off ? trim (2) : 0;
}
}
`,
	})
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		{"trim", "a/str.hpp", 3, []string{"a/use.cpp:4 qualified"}},
		{"trim", "a/str.hpp", 5, []string{"a/use.cpp:5 import"}},
		{"on", "a/str.hpp", 6, []string{"a/use.cpp:5 qualified"}},
		{"count", "a/str.hpp", 10, []string{"a/use.cpp:4 receiver"}},
		{"count_", "a/str.hpp", 8, []string{"a/str.hpp:10 scope", "a/str.hpp:11 receiver"}},
	}
	for _, c := range cases {
		got := usesAt(t, s, c.name, c.path, c.line)
		got = slices.DeleteFunc(got, func(u string) bool { return strings.HasSuffix(u, " unresolved") })
		if !slices.Equal(got, c.want) {
			t.Errorf("uses of %s at %s:%d = %v, want %v", c.name, c.path, c.line, got, c.want)
		}
	}
}

// TestResolveCMacroRenames: a macro renaming a function (#define f _x_f) expands in the
// function's prototype and definition too: those lines are uses of the macro.
func TestResolveCMacroRenames(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"port.h":  "#define get_bytes _x_get_bytes\n#include \"bytes.h\"\n",
		"bytes.h": "extern int get_bytes (char *buf, int n);\n",
		"bytes.c": "#include \"port.h\"\nint\nget_bytes (char *buf, int n) { return n; }\n",
		"main.c":  "#include \"port.h\"\nint main (void) { return get_bytes (0, 0); }\n",
	})
	got := usesAt(t, s, "get_bytes", "port.h", 1)
	want := []string{"bytes.c:3 import", "main.c:2 import"}
	if !slices.Equal(got, want) {
		t.Errorf("uses of the macro get_bytes = %v, want %v", got, want)
	}
}

// TestResolveCppMemberTypes: formatter_->make() is a member of the declared type of the
// class's field formatter_; a parameter named like its type hides the value, not the type.
func TestResolveCppMemberTypes(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"f.hpp": `#include <memory>
class Formatter { public: int make () { return 1; } };
class Other { public: int make () { return 2; } };
class Validator {};
class App {
  std::shared_ptr<Formatter> formatter_;
 public:
  int help () { return formatter_->make (); }
  void transform (Validator Validator) {}
};
`,
	})
	for _, c := range []struct {
		name string
		line int
		want []string
	}{
		{"make", 2, []string{"f.hpp:8 receiver"}},
		{"make", 3, nil},
		{"Validator", 4, []string{"f.hpp:9 scope"}},
	} {
		got := usesAt(t, s, c.name, "f.hpp", c.line)
		got = slices.DeleteFunc(got, func(u string) bool { return strings.HasSuffix(u, " unresolved") })
		if !slices.Equal(got, c.want) {
			t.Errorf("uses of %s at f.hpp:%d = %v, want %v", c.name, c.line, got, c.want)
		}
	}
}

// TestResolveCppOverloadsACallWeighs: a C++ call weighs only the overloads of the name that
// take its arguments and, outside a class, are declared above it (clang's candidate set);
// x->f() is a member, never the free function of that name.
func TestResolveCppOverloadsACallWeighs(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"a/conv.hpp": `namespace app {
namespace detail {
template <typename T> bool cast (const char *in, T &out) { return true; }
inline bool trim (char *s) { return true; }
inline bool trim (char *s, const char *filter, int n = 0) { return trim (s); }
template <typename T> bool pair (const char *in, T &a, T &b) {
  return detail::cast (in, a) && cast (in, b);
}
template <typename T> bool cast (const char *in, T *out) { return pair (in, *out, *out); }
template <typename... Args> int count (Args &&...args) { return 0; }
}
struct Opt {
  int name (const char *n) { return 0; }
};
inline int name () { return 1; }
}
`,
		"a/use.cpp": `#include "conv.hpp"
namespace app {
int run (Opt *o, char *s) {
  int x = 0;
  detail::trim (s, "x");
  detail::count (1, 2, 3);
  o->name ("n");
  return detail::cast ("1", x) ? name () : 0;
}
}
`,
	})
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		// pair's calls of cast are above the second cast: only the first is a candidate
		{"cast", "a/conv.hpp", 3, []string{"a/conv.hpp:7 qualified", "a/conv.hpp:7 scope", "a/use.cpp:8 qualified"}},
		{"cast", "a/conv.hpp", 9, []string{"a/use.cpp:8 qualified"}},
		// trim (s) takes one argument: the first; trim (s, "x") two, the second (a default third)
		{"trim", "a/conv.hpp", 4, []string{"a/conv.hpp:5 scope"}},
		{"trim", "a/conv.hpp", 5, []string{"a/use.cpp:5 qualified"}},
		{"count", "a/conv.hpp", 10, []string{"a/use.cpp:6 qualified"}},
		{"name", "a/conv.hpp", 13, []string{"a/use.cpp:7 receiver"}},
		{"name", "a/conv.hpp", 15, []string{"a/use.cpp:8 import"}},
	}
	for _, c := range cases {
		got := usesAt(t, s, c.name, c.path, c.line)
		got = slices.DeleteFunc(got, func(u string) bool { return strings.HasSuffix(u, " unresolved") })
		if !slices.Equal(got, c.want) {
			t.Errorf("uses of %s at %s:%d = %v, want %v", c.name, c.path, c.line, got, c.want)
		}
	}
}
