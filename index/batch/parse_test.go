package batch

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// show renders a batch compactly: op(key=value, "quoted", positional) {fields}; ...
func show(b *Batch) string {
	var out []string
	for _, st := range b.Statements {
		params := make([]string, len(st.Params))
		for i, p := range st.Params {
			v := p.Value
			if p.Quoted {
				v = strconv.Quote(v)
			}
			params[i] = p.Key + string(p.Op) + v
		}
		s := st.Operation + "(" + strings.Join(params, ", ") + ")"
		if st.Projected {
			names := make([]string, len(st.Fields))
			for i, f := range st.Fields {
				names[i] = f.Name
			}
			s += " {" + strings.Join(names, " ") + "}"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

var parseTests = []struct {
	in, want string
}{
	// Statements and batches.
	{`search(q=Server)`, `search(q=Server)`},
	{` search ( q = Server , lang = go ) `, `search(q=Server, lang=go)`},
	{`status()`, `status()`},
	{`search(q=a); refs(symbol=b); files(path=src/*.go)`, `search(q=a); refs(symbol=b); files(path=src/*.go)`},
	{`search(q=a);`, `search(q=a)`},
	{"search(q=a) ;  # done\n", `search(q=a)`},
	{"search(q=a)\n;\nrefs(b)\n", `search(q=a); refs(b)`},
	{"search(q=a)\r\n;\r\nrefs(b)", `search(q=a); refs(b)`},
	{"# find servers\nsearch(q=Server) # the type\n; refs(symbol=Server)#x", `search(q=Server); refs(symbol=Server)`},
	{"search( # what\n q=x # the query\n )", `search(q=x)`},
	{strings.Repeat("s(x);", MaxStatements), strings.TrimSuffix(strings.Repeat("s(x); ", MaxStatements), "; ")},
	// Positional values.
	{`refs(Server)`, `refs(Server)`},
	{`refs(Server, depth=2)`, `refs(Server, depth=2)`},
	{`refs(42, -1, ./x, *.go)`, `refs(42, -1, ./x, *.go)`},
	{`search("a b")`, `search("a b")`},
	// Quoted values and escapes.
	{`search(q="a b, (c); {d} = != ~ #e")`, `search(q="a b, (c); {d} = != ~ #e")`},
	{`search(q="a\"b\\c\nd\te\/f")`, `search(q="a\"b\\c\nd\te/f")`},
	{`search(q="\u00e9\u4E2D")`, `search(q="é中")`},
	{`search(name~="^Get\w+", path~="\.go$", q="a\qb\é")`, `search(name~="^Get\\w+", path~="\\.go$", q="a\\qb\\é")`},
	{`search(q="\ud83d\ude00")`, `search(q="😀")`},
	{`search(q="\ud83dx")`, "search(q=\"\ufffdx\")"}, // a lone surrogate: U+FFFD
	{`search(q="\ud83d\u0041")`, "search(q=\"\ufffdA\")"},
	{"search(q=\"two\nlines\")", `search(q="two\nlines")`},
	{`search(q="")`, `search(q="")`},
	{`search(q="größe 中")`, `search(q="größe 中")`},
	// Every operator.
	{`search(lang!=python)`, `search(lang!=python)`},
	{`search(line>=100)`, `search(line>=100)`},
	{`search(line<=5)`, `search(line<=5)`},
	{`search(line>3)`, `search(line>3)`},
	{`search(line<3)`, `search(line<3)`},
	{`search(name~="^Get")`, `search(name~="^Get")`},
	{`search(a = 1, b != 2, c > 3, d < 4, e >= 5, f <= 6, g ~= 7)`, `search(a=1, b!=2, c>3, d<4, e>=5, f<=6, g~=7)`},
	// Bare values.
	{`files(path=src/*.go)`, `files(path=src/*.go)`},
	{`files(path=/abs/dir, glob=*_test.go, name=.hidden)`, `files(path=/abs/dir, glob=*_test.go, name=.hidden)`},
	{`refs(take=5, depth=-1, ver=1.2.3)`, `refs(take=5, depth=-1, ver=1.2.3)`},
	{`search(q=a#b, at=foo@bar:12, re=^x$)`, `search(q=a#b, at=foo@bar:12, re=^x$)`},
	{`search(meta.kind=func, lib/x:y=z)`, `search(meta.kind=func, lib/x:y=z)`},
	{`séarch(qé=ü)`, `séarch(qé=ü)`},
	// Projections.
	{`search(q=x) { name, path }`, `search(q=x) {name path}`},
	{`search(q=x){name path line}`, `search(q=x) {name path line}`},
	{"search(q=x) {\n  a,b c\n  d # the last\n}", `search(q=x) {a b c d}`},
	{`search(q=x) {meta.kind} ; refs(y) {_x}`, `search(q=x) {meta.kind}; refs(y) {_x}`},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		b, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) error: %v", tt.in, err)
			continue
		}
		if got := show(b); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParsePositions(t *testing.T) {
	in := "# héader\n" +
		"search(q=\"é\", \n" +
		"\tlang != go) { name,\n" +
		"  path }; refs(Sérver)"
	want := &Batch{Statements: []Statement{{
		Operation: "search",
		Pos:       Pos{10, 2, 1},
		Params: []Param{
			{Key: "q", KeyPos: Pos{17, 2, 8}, Op: OpEq, OpPos: Pos{18, 2, 9}, Value: "é", ValuePos: Pos{19, 2, 10}, Quoted: true},
			{Key: "lang", KeyPos: Pos{27, 3, 2}, Op: OpNe, OpPos: Pos{32, 3, 7}, Value: "go", ValuePos: Pos{35, 3, 10}},
		},
		Fields:    []Field{{"name", Pos{41, 3, 16}}, {"path", Pos{49, 4, 3}}},
		Projected: true,
		Text:      "search(q=\"é\", \n\tlang != go) { name,\n  path }",
	}, {
		Operation: "refs",
		Pos:       Pos{57, 4, 11},
		Params:    []Param{{Value: "Sérver", ValuePos: Pos{62, 4, 16}}},
		Text:      "refs(Sérver)",
	}}}
	got, err := Parse(in)
	if err != nil {
		t.Fatalf("Parse(%q) error: %v", in, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse(%q) =\n%+v\nwant\n%+v", in, got, want)
	}
	for _, st := range got.Statements {
		checkStatementPos(t, in, st)
	}
}

func TestStatementText(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`search(q=x)`, []string{`search(q=x)`}},
		{"  search(q=x) { a }  ;\n# c\nrefs(y) # trailing\n", []string{`search(q=x) { a }`, `refs(y)`}},
		{"a( x ,\n y );b()", []string{"a( x ,\n y )", "b()"}},
		{`a(q="x;y") {f};`, []string{`a(q="x;y") {f}`}},
	}
	for _, tt := range tests {
		b, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) error: %v", tt.in, err)
			continue
		}
		var got []string
		for _, st := range b.Statements {
			got = append(got, st.Text)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) texts = %q, want %q", tt.in, got, tt.want)
		}
	}
}

const nameHint = " (a name starts with a letter or _ and holds letters, digits and _ . - / : *)"

var errorTests = []struct {
	in           string
	line, column int
	found        string
	expected     string
	message      string
}{
	{`search(q="x"`, 1, 13, `end of input`, `"," or ")"`, `expected "," or ")" to close search(, found end of input`},
	{`search(`, 1, 8, `end of input`, `a parameter (key=value or a value) or ")"`, `expected a parameter (key=value or a value) or ")", found end of input`},
	{`search`, 1, 7, `end of input`, `"("`, `expected "(" after the operation search, found end of input`},
	{`search q=x)`, 1, 8, `"q"`, `"("`, `expected "(" after the operation search, found "q"`},
	{`search(q=)`, 1, 10, `")"`, `a value`, `expected a value after "=", found ")"`},
	{`search(q>=,)`, 1, 11, `","`, `a value`, `expected a value after ">=", found ","`},
	{`search(q=(x))`, 1, 10, `"("`, `a value`, `expected a value after "=", found "(" (to put "(" in a value, quote the whole value)`},
	{`search(q=!=x)`, 1, 10, `"!="`, `a value`, `expected a value after "=", found "!=" (to put "!=" in a value, quote the whole value)`},
	{`search(q="abc)`, 1, 10, `end of input`, `a closing "`, `unclosed string: add a closing "`},
	{"search(q=a)\n;x(\"abc\n)", 2, 4, `end of input`, `a closing "`, `unclosed string: add a closing "`},
	{`search(q="a\`, 1, 10, `end of input`, `a closing "`, `unclosed string: add a closing "`},
	{`search(q=x) { name, }`, 1, 21, `"}"`, `a field name`, `expected a field name, found "}"`},
	{`search(q=x) {}`, 1, 14, `"}"`, `a field name`, `expected a field name in { }, found "}"`},
	{`search(q=x) { name`, 1, 19, `end of input`, `"}"`, `expected "}" to close the fields, found end of input`},
	{`search(q=x) { name,`, 1, 20, `end of input`, `"}"`, `expected "}" to close the fields, found end of input`},
	{`search(q=x) {`, 1, 14, `end of input`, `"}"`, `expected "}" to close the fields, found end of input`},
	{`search(q=x) { 1x }`, 1, 15, `"1x"`, `a field name`, `expected a field name, found "1x"` + nameHint},
	{`search(q=x) { a ( }`, 1, 17, `"("`, `a field name, "," or "}"`, `expected a field name, "," or "}", found "("`},
	{`search(q=x) { a,, b }`, 1, 17, `","`, `a field name`, `expected a field name, found ","`},
	{`search(q=x) refs(symbol=y)`, 1, 13, `"refs"`, `";"`, `expected ";" between statements, found "refs"`},
	{"search(q=a)\n  x", 2, 3, `"x"`, `";"`, `expected ";" between statements, found "x"`},
	{`(q=x)`, 1, 1, `"("`, `an operation name`, `expected an operation name, found "("`},
	{`"search"(q=x)`, 1, 1, `string "search"`, `an operation name`, `expected an operation name, found string "search"`},
	{`1search(q=x)`, 1, 1, `"1search"`, `an operation name`, `expected an operation name, found "1search"` + nameHint},
	{`search(q=x,)`, 1, 12, `")"`, `a parameter (key=value or a value)`, `expected a parameter (key=value or a value), found ")"`},
	{`search(,)`, 1, 8, `","`, `a parameter (key=value or a value) or ")"`, `expected a parameter (key=value or a value) or ")", found ","`},
	{`search(1x=5)`, 1, 8, `"1x"`, `a parameter name`, `expected a parameter name before "=", found "1x" (a name starts with a letter or _ and holds letters, digits and _ . - / : *, without quotes)`},
	{`search("q"!=5)`, 1, 8, `string "q"`, `a parameter name`, `expected a parameter name before "!=", found string "q" (a name starts with a letter or _ and holds letters, digits and _ . - / : *, without quotes)`},
	{`search(lang!python)`, 1, 12, `"!"`, `an operator (= != > < >= <= ~=)`, `"!" is not an operator: write != (the operators are = != > < >= <= ~=)`},
	{`search(name~Get)`, 1, 12, `"~"`, `an operator (= != > < >= <= ~=)`, `"~" is not an operator: write ~= (the operators are = != > < >= <= ~=)`},
	{`search(a==b)`, 1, 9, `"=="`, `"="`, `"==" is not an operator: write =`},
	{`search(line=>5)`, 1, 12, `"=>"`, `">="`, `"=>" is not an operator: write >=`},
	{`search(line=<5)`, 1, 12, `"=<"`, `"<="`, `"=<" is not an operator: write <=`},
	{`search(name=~x)`, 1, 12, `"=~"`, `"~="`, `"=~" is not an operator: write ~=`},
	{`search(lang<>go)`, 1, 12, `"<>"`, `"!="`, `"<>" is not an operator: write !=`},
	{"search(q=\"é\");\nrefs(é!x)", 2, 7, `"!"`, `an operator (= != > < >= <= ~=)`, `"!" is not an operator: write != (the operators are = != > < >= <= ~=)`},
	{`search(q x)`, 1, 10, `"x"`, `"," or ")"`, `expected "," or ")" after the parameter q, found "x"`},
	{`search(q=a b)`, 1, 12, `"b"`, `"," or ")"`, `expected "," or ")" after the parameter q, found "b"`},
	{`search("a b" c)`, 1, 14, `"c"`, `"," or ")"`, `expected "," or ")" after the parameter "a b", found "c"`},
	{`search(q=a;b)`, 1, 11, `";"`, `"," or ")"`, `expected "," or ")" after the parameter q, found ";" (to put ";" in a value, quote the whole value)`},
	{`search(name~=^Get(.*))`, 1, 18, `"("`, `"," or ")"`, `expected "," or ")" after the parameter name, found "(" (to put "(" in a value, quote the whole value)`},
	{`search(q=a ()`, 1, 12, `"("`, `"," or ")"`, `expected "," or ")" after the parameter q, found "("`},
	{"search(q=\"\\\x01\")", 1, 11, `"\ followed by U+0001"`, `an escape (\" \\ \n \t \/ \uXXXX)`, `unknown escape \ followed by U+0001 in a string: the escapes are \" \\ \n \t \/ \uXXXX (any other backslash is kept)`},
	{`search(q="\u12G4")`, 1, 11, `"\u12"`, `four hex digits`, `invalid escape \u12 in a string: \u takes four hex digits, e.g. \u00e9`},
	{`search(q="\ud83d\u12")`, 1, 17, `"\u12"`, `four hex digits`, `invalid escape \u12 in a string: \u takes four hex digits, e.g. \u00e9`},
	{``, 1, 1, `end of input`, `a statement`, `empty batch: write at least one statement, e.g. search(q=Server)`},
	{"  # only a comment\n\n\t", 1, 1, `end of input`, `a statement`, `empty batch: write at least one statement, e.g. search(q=Server)`},
	{`search(q=a);;`, 1, 13, `";"`, `an operation name`, `expected an operation name after ";", found ";" (an empty statement: remove the extra ";")`},
	{`search(q=a); ; refs(b)`, 1, 14, `";"`, `an operation name`, `expected an operation name after ";", found ";" (an empty statement: remove the extra ";")`},
	{`;`, 1, 1, `";"`, `an operation name`, `expected an operation name, found ";"`},
	{strings.Repeat("s(x);", MaxStatements) + "t(y)", 1, 5*MaxStatements + 1, `"t"`, `the end of the batch`, `too many statements: a batch holds at most 50; split it into several batches`},
	{`a() ` + strings.Repeat("x", 50), 1, 5, `"` + strings.Repeat("x", 40) + `..."`, `";"`, `expected ";" between statements, found "` + strings.Repeat("x", 40) + `..."`},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range errorTests {
		b, err := Parse(tt.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) = %v, %v; want an *Error", tt.in, b, err)
			continue
		}
		got := fmt.Sprintf("%d:%d found %s expected %s: %s", e.Pos.Line, e.Pos.Column, e.Found, e.Expected, e.Message)
		want := fmt.Sprintf("%d:%d found %s expected %s: %s", tt.line, tt.column, tt.found, tt.expected, tt.message)
		if got != want {
			t.Errorf("Parse(%q) error\n got %s\nwant %s", tt.in, got, want)
		}
		checkPos(t, tt.in, e.Pos, true)
	}
}

func TestErrorString(t *testing.T) {
	_, err := Parse("search(q=x);\nrefs(q=)")
	want := `line 2, column 8: expected a value after "=", found ")"`
	if err == nil || err.Error() != want {
		t.Errorf("Parse error = %v, want %s", err, want)
	}
}

// checkPos fails unless pos lies in text (at its end too if atEnd) and its line and column
// match its offset.
func checkPos(t *testing.T, text string, pos Pos, atEnd bool) {
	t.Helper()
	if pos.Offset < 0 || pos.Offset > len(text) || pos.Offset == len(text) && !atEnd {
		t.Fatalf("Parse(%q): position %+v outside the text", text, pos)
	}
	before := text[:pos.Offset]
	line := 1 + strings.Count(before, "\n")
	column := 1 + utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:])
	if pos.Line != line || pos.Column != column {
		t.Fatalf("Parse(%q): position %+v, want line %d, column %d", text, pos, line, column)
	}
}

// checkStatementPos fails unless every position of st lies in text and points at what it
// names.
func checkStatementPos(t *testing.T, text string, st Statement) {
	t.Helper()
	at := func(pos Pos, s string) {
		t.Helper()
		checkPos(t, text, pos, false)
		if !strings.HasPrefix(text[pos.Offset:], s) {
			t.Fatalf("Parse(%q): %q not at %+v", text, s, pos)
		}
	}
	at(st.Pos, st.Text)
	at(st.Pos, st.Operation)
	for _, p := range st.Params {
		if p.Key != "" {
			at(p.KeyPos, p.Key)
			at(p.OpPos, string(p.Op))
		}
		if p.Quoted {
			at(p.ValuePos, `"`)
		} else {
			at(p.ValuePos, p.Value)
		}
	}
	for _, f := range st.Fields {
		at(f.Pos, f.Name)
	}
}
