package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// pyUses returns the uses of name in f as "line:kind" (and ":qualifier" when there is one).
func pyUses(f *File, name string) []string {
	var ids []Identifier
	for _, id := range f.Identifiers {
		if id.Name == name {
			ids = append(ids, id)
		}
	}
	slices.SortStableFunc(ids, func(a, b Identifier) int { return a.StartByte - b.StartByte })
	var out []string
	for _, id := range ids {
		u := fmt.Sprintf("%d:%s", id.StartLine, id.Kind)
		if id.Qualifier != "" {
			u += ":" + id.Qualifier
		}
		out = append(out, u)
	}
	return slices.Compact(out)
}

// TestPythonNamesRead: a name read anywhere in an expression is a use (a comparison, the
// object of an attribute, a subscript, a keyword argument's value, a dict's value, an except
// clause, a loop's iterable, an f-string, a default value, a class keyword); before, only
// call arguments, returned values and an assignment's plain right side were.
func TestPythonNamesRead(t *testing.T) {
	f := extractString(t, "m.py", `import enum

LIMIT = 3
codes = make_codes()


class Source(enum.Enum, metaclass=Meta):
    DEFAULT = 1


def check(value, limit=LIMIT):
    if value == LIMIT or Source.DEFAULT in value:
        return codes.ok
    table[LIMIT] = {"x": LIMIT}
    run(callback=handler, flag=not LIMIT)
    try:
        pass
    except (KeyError, ParseError) as e:
        raise Fatal() from e
    for x in ITEMS:
        print(f"{LIMIT!r}")
`)
	for _, c := range []struct {
		name string
		want []string
	}{
		{"LIMIT", []string{"11:variable_ref", "12:variable_ref", "14:variable_ref", "15:variable_ref", "21:variable_ref"}},
		{"codes", []string{"13:variable_ref"}},
		{"ok", []string{"13:member_access:codes"}},
		{"Source", []string{"12:variable_ref"}},
		{"DEFAULT", []string{"12:member_access:Source"}},
		{"table", []string{"14:variable_ref"}},
		{"handler", []string{"15:variable_ref"}},
		{"ParseError", []string{"18:variable_ref"}},
		{"ITEMS", []string{"20:variable_ref"}},
		{"Meta", []string{"7:variable_ref"}},
		{"Enum", []string{"7:type_usage:enum"}},
		{"enum", []string{"1:import", "7:variable_ref"}},
	} {
		if got := pyUses(f, c.name); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPythonLocalsNotUses: a function's local variables (parameters, assignment, loop, with,
// except and match targets, a closure's variables), a lambda's parameters and a
// comprehension's variables are not uses: none of them is a definition of the workspace, and
// a use of one would resolve to the module's definition of the same name (a parameter named
// command is not the function command). A name declared global is the module's, assigned or
// read; a definition nested in the function is still used by its name.
func TestPythonLocalsNotUses(t *testing.T) {
	f := extractString(t, "m.py", `def command(name=None):
    pass


def run(command, *args, **kw):
    global counter
    counter = 1
    ctx = command
    for item in args:
        ctx(item)
    with open(command) as fh:
        fh.read()
    try:
        pass
    except ValueError as err:
        print(err)
    total = [c for c in args if c] + list(map(lambda p: p.x, kw))
    match ctx:
        case Point(x=px):
            print(px, Point)

    def inner():
        nonlocal total
        return ctx, total, command, counter

    def helper():
        pass
    helper()
    return inner
`)
	for _, c := range []struct {
		name string
		want []string
	}{
		{"command", nil},
		{"ctx", nil},
		{"item", nil},
		{"fh", nil},
		{"err", nil},
		{"c", nil},
		{"p", nil},
		{"px", nil},
		{"total", nil},
		{"counter", []string{"6:variable_ref", "7:variable_ref", "24:variable_ref"}},
		{"Point", []string{"19:type_usage", "20:variable_ref"}},
		{"helper", []string{"28:call"}},
		{"inner", []string{"29:variable_ref"}},
		{"x", []string{"17:member_access:p"}},
		{"read", []string{"12:call:fh"}},
	} {
		if got := pyUses(f, c.name); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPythonAttributeTargets: the attributes assigned through self in a tuple (self.a, self.b
// = ...) or a chain (self.start = self.last = now()) are fields of the class; an assignment
// to a module's variable again is a use of it.
func TestPythonAttributeTargets(t *testing.T) {
	f := extractString(t, "m.py", `import time

clock = None
clock = time.time


class Option:
    def __init__(self, decls):
        self.name, self.opts, self.secondary = parse(decls)
        self.start = self.last = time.time()
        self.items[0] = 1
`)
	var fields []string
	for _, s := range f.Symbols {
		if s.Kind == Field {
			fields = append(fields, fmt.Sprintf("%s:%d", s.Name, s.StartLine))
		}
	}
	if want := []string{"name:9", "opts:9", "secondary:9", "start:10", "last:10"}; !slices.Equal(fields, want) {
		t.Errorf("fields = %q, want %q", fields, want)
	}
	if got, want := pyUses(f, "clock"), []string{"4:variable_ref"}; !slices.Equal(got, want) {
		t.Errorf("uses of clock = %q, want %q", got, want)
	}
	if got, want := pyUses(f, "items"), []string{"11:member_access:self"}; !slices.Equal(got, want) {
		t.Errorf("uses of items = %q, want %q", got, want)
	}
}

// TestPythonQualifiedTypes: an annotation's m.Type keeps the module it is looked up in.
func TestPythonQualifiedTypes(t *testing.T) {
	f := extractString(t, "m.py", `from . import types
import typing as t


def f(x: types.ParamType, y: t.Optional["Context"]) -> None:
    pass
`)
	for _, c := range []struct {
		name string
		want []string
	}{
		{"ParamType", []string{"5:type_usage:types"}},
		{"types", []string{"1:import", "5:variable_ref"}},
		{"Context", []string{"5:type_usage"}},
	} {
		if got := pyUses(f, c.name); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s = %q, want %q", c.name, got, c.want)
		}
	}
	if strings.Contains(fmt.Sprint(pyUses(f, "x")), "variable") {
		t.Errorf("the parameter x is recorded as a use: %q", pyUses(f, "x"))
	}
}
