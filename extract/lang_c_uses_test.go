package extract

import (
	"fmt"
	"strings"
	"testing"
)

// identsOf lists f's identifiers as "name kind qualifier line".
func identsOf(f *File) []string {
	var out []string
	for _, x := range f.Identifiers {
		out = append(out, fmt.Sprintf("%s %s %q %d", x.Name, x.Kind, x.Qualifier, x.StartLine))
	}
	return out
}

func TestCUsesLocalsAndExpressions(t *testing.T) {
	f := extractString(t, "x.c", `#define M(a, b) foo(a) + b->x + #a + BAR
static int NROM;
int f(int NROM, struct pt *p) {
  int arr[NROM], i = NROM;
  for (i = 0; i < 3; i++) g(arr[i], LIMIT);
  struct pt q = { .x = 1 };
  return p->x + q.y + other;
}
#ifdef FOO
#endif
`)
	got := strings.Join(identsOf(f), "\n")
	for _, want := range []string{
		`foo call "" 1`, `x member_access "?" 1`, `BAR variable_ref "" 1`,
		`NROM variable_ref "" 4`, `LIMIT variable_ref "" 5`, `g call "" 5`,
		`x member_access "" 6`, `x member_access "p" 7`, `other variable_ref "" 7`,
		`FOO variable_ref "" 9`,
	} {
		if !strings.Contains(got, want+"\n") && !strings.HasSuffix(got, want) {
			t.Errorf("missing use %s in\n%s", want, got)
		}
	}
	for _, not := range []string{`a variable_ref`, `b variable_ref`, `arr variable_ref "" 4`, `i variable_ref "" 4`, `q variable_ref "" 6`} {
		if strings.Contains(got, not) {
			t.Errorf("a declaration or macro parameter recorded as a use: %s in\n%s", not, got)
		}
	}
	for _, s := range f.Symbols {
		if s.Name == "f" && s.Metadata[cMetaLocals] != "NROM,arr,i,p,q" {
			t.Errorf("f's locals = %q", s.Metadata[cMetaLocals])
		}
	}
}

func TestCppUsesScopesAndLambdas(t *testing.T) {
	f := extractString(t, "x.cpp", `template <typename T> T f(T v) {
  for (auto &e : v) { g(e); }
  try { h(); } catch (const Err &err) { err.code(); }
  auto l = [v](int q) { return q + v; };
  return startup_mode::on + detail::rtrim(v);
}
class C : Base { C(int t) : title_(t) {} int title_; };
`)
	got := strings.Join(identsOf(f), "\n")
	for _, want := range []string{
		`startup_mode type_usage "" 5`, `on variable_ref "startup_mode::" 5`,
		`rtrim call "detail::" 5`, `detail type_usage "" 5`, `title_ variable_ref "" 7`, `Err type_usage "" 3`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing use %s in\n%s", want, got)
		}
	}
	for _, s := range f.Symbols {
		if s.Name == "f" && s.Metadata[cMetaLocals] != "e,err,l,q,v" {
			t.Errorf("f's locals = %q", s.Metadata[cMetaLocals])
		}
	}
}

func TestCppQualifiedCallOnce(t *testing.T) {
	f := extractString(t, "x.cpp", "int f() { return detail::rtrim(1); }\n")
	n := 0
	for _, x := range f.Identifiers {
		if x.Name == "rtrim" {
			n++
			if x.Kind != Call || x.Qualifier != "detail::" {
				t.Errorf("rtrim recorded as %s %q", x.Kind, x.Qualifier)
			}
		}
	}
	if n != 1 {
		t.Errorf("rtrim recorded %d times, want once", n)
	}
}

func TestCUsesArraySizes(t *testing.T) {
	f := extractString(t, "x.c", `typedef int key_t[KEY_N + 2];
struct s { char buf[BUF_LEN]; };
static const char pad[PAD_LEN] = {0};
void transform(const unsigned char block[BLOCK_LEN]);
void g(int v[V_LEN]) {}
`)
	got := strings.Join(identsOf(f), "\n")
	for _, want := range []string{`KEY_N variable_ref "" 1`, `BUF_LEN variable_ref "" 2`, `PAD_LEN variable_ref "" 3`, `BLOCK_LEN variable_ref "" 4`, `V_LEN variable_ref "" 5`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing use %s in\n%s", want, got)
		}
	}
}

func TestCppTemplateParameterDefaults(t *testing.T) {
	f := extractString(t, "x.hpp", `template <typename T, enable_if_t<cat::enumeration == N, int> = detail::dummy, typename U = Foo>
struct X {};
`)
	got := strings.Join(identsOf(f), "\n")
	for _, want := range []string{`enumeration variable_ref "cat::" 1`, `dummy variable_ref "detail::" 1`, `Foo type_usage "" 1`, `enable_if_t type_usage "" 1`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing use %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, `T type_usage "" 1`) || strings.Contains(got, `U type_usage`) {
		t.Errorf("a template parameter's name recorded as a use:\n%s", got)
	}
}
