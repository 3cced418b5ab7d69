package query

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

var testOpts = Options{Values: map[string][]string{
	"kind": {"class", "struct", "function", "method", "interface"},
	"lang": {"go", "python", "java", "rust"},
}}

func TestParseExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ServeHTTP", "ServeHTTP"},
		{"connection pool", "connection pool"},
		{"a AND b", "a b"},
		{"a OR b", "a OR b"},
		{"a b OR c", "(a b) OR c"},
		{"a OR b c", "a OR (b c)"},
		{"(a OR b) c", "(a OR b) c"},
		{"NOT a", "-a"},
		{"-a +b", "-a b"},
		{"-(a OR b)", "-(a OR b)"},
		{"and or not", "and or not"},
		{`"OR"`, `"OR"`},
		{`"connection  pool"~3`, `"connection pool"~3`},
		{`"connection po"*`, `"connection po"*`},
		{`"say \"hi\""`, `"say \"hi\""`},
		{"pars*", "pars*"},
		{"parse~1", "parse~1"},
		{"name:get*User?", "name:get*User?"},
		{"sym:Serve*", "name:Serve*"},
		{"parent:*", "parent:*"},
		{"-parent:*", "-parent:*"},
		{"line:[10 TO 20]", "line:[10 TO 20]"},
		{"line:{10 TO *]", "line:{10 TO *]"},
		{"line:>=100", "line:[100 TO *]"},
		{"line:<5", "line:[* TO 5}"},
		{"kind:(class OR struct)", "kind:class OR kind:struct"},
		{"name:(get set)", "name:get name:set"},
		{"kind:(class OR struct) lang:go", "(kind:class OR kind:struct) lang:go"},
		{"name:parse^2 body:retry", "name:parse^2 body:retry"},
		{"a^1e3 b^-1", "a^1e3 b^-1"},
		{`/func \w+Handler\(/ lang:go`, `/func \w+Handler\(/ lang:go`},
		{`path:/_test\.go$/`, `path:/_test\.go$/`},
		{`content:/a\/b/`, `content:/a\/b/`},
		{"case:yes Context lang:go -file:_test", "case:yes Context lang:go -path:_test"},
		{"kind:CLASS", "kind:class"},
		{"TODO: remove", "TODO: remove"},
		{"std::io::Read", "std::io::Read"},
		{"http://example.com", "http://example.com"},
		{"Vec::new", "Vec::new"},
		{"*ptr a*b", "*ptr a*b"},
		{"kind:(function OR method) lang:go name:Serve* -path:**/*_test.go", "(kind:function OR kind:method) lang:go name:Serve* -path:**/*_test.go"},
		{`doc:"connection pool" -lang:java`, `doc:"connection pool" -lang:java`},
		// A sign before punctuation is code, not an operator: an arrow, an assignment.
		{"fn(max_buf_size: usize) -> (DuplexStream, DuplexStream)", "fn (max_buf_size: usize) -> (DuplexStream, DuplexStream)"},
		{"(x) += y", "x += y"},
		{"(a) -b", "a -b"},
	}
	for _, tt := range tests {
		n, err := ParseExpr(tt.in, testOpts)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tt.in, err)
			continue
		}
		if got := n.String(); got != tt.want {
			t.Errorf("ParseExpr(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "1:1: empty query"},
		{"kind:", `1:6: expected a value after "kind:"`},
		{"a kind: b", `1:8: expected a value after "kind:"`},
		{"TODO: x Type: int", ""}, // not fields: words
		{"kind:funtion", `1:1: kind:funtion: unknown value "funtion"; did you mean function?; valid values: class, struct, function, method, interface`},
		{"kidn:class", `1:1: unknown field "kidn": did you mean kind:?`},
		{"(a OR b", "1:1: unclosed (: expected a closing )"},
		{"a OR", "1:5: expected a term after OR"},
		{"a AND", "1:6: expected a term after AND"},
		{"a )", `1:3: unexpected ")"`},
		{`"abc`, `1:1: unclosed phrase`},
		{`""`, "1:1: empty phrase"},
		{`"a b"~0`, "1:7: expected a slop of 1 to 100 words after ~"},
		{"parse~3", "1:6: expected 1 or 2 after ~"},
		{"/a(b/", "1:2: invalid regex: error parsing regexp: missing closing )"},
		{"/abc", "1:1: unclosed regex"},
		{"line:abc", `1:1: line: wants a whole number, got "abc"`},
		{"line:>=x", `line: wants a whole number, got "x"`},
		{"line:[1 2 3]", "expected TO between the bounds"},
		{"line:[1 TO 3", "expected ] or } to close the range"},
		{"name:>3", "name: takes no comparison"},
		{"kind:(class", "unclosed (: expected a closing ) after the values of kind:"},
		{"kind:clas*", "kind: takes one of its values, not a wildcard"},
		{"a^x", ""}, // not a boost: the word a^x
		{"(a b)^2", "1:6: a boost applies to a term or a range, not a group"},
		{"- a", `1:2: expected a term after "-"`},
		{"kind:(class OR struct method)", "the values of kind:( ) mix AND and OR"},
		{"+OR", `1:2: expected a term, got the operator OR (to search for the word, quote it: "OR")`},
		{"NOT", `1:4: expected a term after "NOT"`},
		{"vis:secret", `valid values: public, protected, internal, package, fileprivate, private`},
		{"case:maybe", "valid values: yes, no, auto"},
		{strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200), "nests more than 100 levels deep"},
	}
	for _, tt := range tests {
		_, err := ParseExpr(tt.in, testOpts)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ParseExpr(%q): %v, want no error", tt.in, err)
			}
			continue
		}
		var qe *Error
		if !errors.As(err, &qe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseExpr(%q) error = %v, want a *Error with %q", tt.in, err, tt.want)
		}
	}
}

// shape is a node without positions, to compare trees.
func shape(n Node) string {
	switch x := n.(type) {
	case *Bool:
		var parts []string
		for _, c := range x.Clauses {
			parts = append(parts, shape(c))
		}
		return fmt.Sprintf("bool%d(%s)", x.Op, strings.Join(parts, ","))
	case *Not:
		return "not(" + shape(x.X) + ")"
	case *Leaf:
		c := *x
		c.At = 0
		return fmt.Sprintf("%+v", c)
	case *Range:
		c := *x
		c.At = 0
		return fmt.Sprintf("%+v", c)
	}
	return reflect.TypeOf(n).String()
}

// FuzzParseExpr: parsing never panics, an error has a position in the query, and
// ParseExpr(n.String()) gives the same tree.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"kind:(class OR struct) lang:go name:Serve*", `"a b"~2 /x\/y/ -path:**/t`, "line:[1 TO *}^2", "a OR (b -c)", "parse~1 \"q\"*", "x:y TODO:", "((a))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := ParseExpr(src, testOpts)
		if err != nil {
			var qe *Error
			if !errors.As(err, &qe) || qe.Pos < 0 || qe.Pos > len(src) {
				t.Fatalf("ParseExpr(%q) error %v: want a *Error with a position in the query", src, err)
			}
			return
		}
		again, err := ParseExpr(n.String(), testOpts)
		if err != nil {
			t.Fatalf("ParseExpr(%q) of ParseExpr(%q).String(): %v", n.String(), src, err)
		}
		if shape(again) != shape(n) {
			t.Fatalf("round trip of %q: %s\nthen %s", src, shape(n), shape(again))
		}
	})
}

// BenchmarkParseExpr parses a query of 20 clauses.
func BenchmarkParseExpr(b *testing.B) {
	q := `kind:(function OR method) lang:go name:Serve* -path:**/*_test.go doc:"connection pool"~2 ` +
		`body:retry^2 parent:Server vis:public line:[10 TO 500] ext:go case:yes Context ` +
		`/func \w+Handler\(/ -test:yes (sig:context OR sig:ctx) parse~1 "not implemented" ` +
		`type:def workspace:lib NOT deprecated`
	b.SetBytes(int64(len(q)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseExpr(q, testOpts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFieldRegistry: every field is documented with an example that parses and uses it, and
// every name and alias finds its field.
func TestFieldRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Fields {
		if f.Doc == "" || f.Example == "" || f.Type == 0 || len(f.Targets) == 0 {
			t.Errorf("field %s lacks a doc, an example, a type or targets", f.Name)
		}
		n, err := ParseExpr(f.Example, testOpts)
		if err != nil {
			t.Errorf("field %s: example %q: %v", f.Name, f.Example, err)
		} else if !strings.Contains(n.String(), f.Name+":") {
			t.Errorf("field %s: example %q parses to %q, which does not use the field", f.Name, f.Example, n)
		}
		for _, name := range append([]string{f.Name}, f.Aliases...) {
			if seen[name] {
				t.Errorf("field name %s is used twice", name)
			}
			seen[name] = true
			if got, ok := LookupField(strings.ToUpper(name)); !ok || got.Name != f.Name {
				t.Errorf("LookupField(%q) = %v, %v; want field %s", strings.ToUpper(name), got, ok, f.Name)
			}
		}
	}
}

// TestUnclosedSet: a set cut off after an operator is an unclosed parenthesis, at the
// parenthesis.
func TestUnclosedSet(t *testing.T) {
	_, err := ParseExpr("x name:(get OR", testOpts)
	if err == nil || !strings.HasPrefix(err.Error(), "1:8: unclosed (") {
		t.Errorf("ParseExpr(%q) = %v, want 1:8: unclosed (", "x name:(get OR", err)
	}
}
