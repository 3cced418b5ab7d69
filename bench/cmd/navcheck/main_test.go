package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeQuarry answers refs, outline and callers from tables, as quarry's --json does.
type fakeQuarry struct {
	refs    map[string][]string // symbol (path:line or id) -> JSON pages, in order of --cursor
	symbols map[string]string   // path -> JSON
	callers map[string]string   // id -> JSON
	calls   []string
}

func (f *fakeQuarry) run(args ...string) ([]byte, error) {
	f.calls = append(f.calls, strings.Join(args, " "))
	switch args[0] {
	case "refs":
		pages := f.refs[args[1]]
		page := 0
		for i, a := range args {
			if a == "--cursor" {
				fmt.Sscan(args[i+1], &page)
			}
		}
		if page < len(pages) {
			return []byte(pages[page]), nil
		}
		return []byte(`{"ok":false,"error":{"code":"NOT_FOUND","message":"no definition at ` + args[1] + `"}}`), nil
	case "outline":
		if s, ok := f.symbols[args[1]]; ok {
			return []byte(s), nil
		}
		return []byte(`{"results":[]}`), nil
	case "callers":
		if s, ok := f.callers[args[1]]; ok {
			return []byte(s), nil
		}
		return []byte(`{"nodes":[]}`), nil
	}
	return nil, fmt.Errorf("unexpected %v", args)
}

func def(id, name, path string, line int) string {
	return fmt.Sprintf(`"definition":{"id":%q,"name":%q,"kind":"function","path":%q,"line":%d}`, id, name, path, line)
}

func TestCompare(t *testing.T) {
	q := &fakeQuarry{
		refs: map[string][]string{
			// found at its line; two pages; one resolved use the oracle lacks (extra), one use
			// listed unresolved, the definition's own line and node_modules left out
			"a.js:10": {
				`{` + def("A", "alpha", "a.js", 10) + `,"results":[
				{"path":"a.js","line":10,"kind":"call","resolution":"scope"},
				{"path":"b.js","line":3,"kind":"call","resolution":"import"},
				{"path":"b.js","line":4,"kind":"call","resolution":"import"},
				{"path":"node_modules/x/i.js","line":1,"kind":"call","resolution":"global-unique"}],
				"next_cursor":"1"}`,
			},
			"A": {"", `{` + def("A", "alpha", "a.js", 10) + `,"results":[
				{"path":"c.js","line":7,"kind":"call","resolution":"import"},
				{"path":"c.js","line":9,"kind":"call","resolution":""}]}`},
			// PATH:LINE lands in the enclosing function: found by name in the file instead
			"a.js:21": {`{` + def("O", "outer", "a.js", 20) + `,"results":[]}`},
			"B":       {`{` + def("B", "beta", "a.js", 22) + `,"results":[{"path":"d.js","line":1,"kind":"variable_ref","resolution":"import"}]}`},
			// at its line but another name, and no such name in the file: def missing
			"e.js:5": {`{` + def("E", "other", "e.js", 5) + `,"results":[]}`},
		},
		symbols: map[string]string{
			"a.js": `{"results":[{"id":"O","name":"outer","kind":"function","start_line":20},{"id":"B","name":"beta","kind":"function","start_line":22},{"id":"I","name":"beta","kind":"import","start_line":21}]}`,
		},
		callers: map[string]string{
			"A": `{"nodes":[{"depth":0,"name":"alpha"},{"depth":1,"name":"f","sites":[{"path":"b.js","line":3},{"path":"x.js","line":1}]},{"depth":2,"name":"g","sites":[{"path":"c.js","line":7}]}]}`,
		},
	}
	defs := []oracleDef{
		{Name: "alpha", Path: "a.js", Line: 10, Kind: "function", Callable: true, Uses: []oracleUse{
			{Path: "b.js", Line: 3, Call: true}, {Path: "c.js", Line: 7, Call: true}, {Path: "c.js", Line: 9, Call: true},
			{Path: "c.js", Line: 11}, {Path: "a.js", Line: 10}, {Path: "node_modules/y.js", Line: 2},
		}},
		{Name: "beta", Path: "a.js", Line: 21, Kind: "variable", Uses: []oracleUse{{Path: "d.js", Line: 1}}},
		{Name: "gamma", Path: "e.js", Line: 5, Kind: "function", Uses: []oracleUse{{Path: "f.js", Line: 1}, {Path: "f.js", Line: 2}}},
	}
	results := compareAll(q.run, defs, 1)
	tt := tally(results)
	want := totals{Defs: 3, Missing: 1, MissingUses: 2, OracleUses: 5, Resolved: 4, Hit: 3, Silent: 1, Unresolved: 1,
		CallDefs: 1, OracleCalls: 3, CallHit: 1, Sites: 2, SitesRight: 1, FoundByName: 1, ExtraUses: 1}
	if tt != want {
		t.Fatalf("totals\n got %+v\nwant %+v", tt, want)
	}
	row := tt.row("javascript", "demo")
	for _, s := range []string{"| javascript | demo | 3 | 5 | 4 | 60.0% | 75.0% | 20.0% | 33.3% (3) | 50.0% (2) | 1 (2 uses) |"} {
		if row != s {
			t.Errorf("row\n got %s\nwant %s", row, s)
		}
	}
	if results[1].Found != "name" || results[1].QDef.ID != "B" {
		t.Errorf("beta: found %q as %q, want by name as B", results[1].Found, results[1].QDef.ID)
	}
	var verbose, misses bytes.Buffer
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.js"), []byte(strings.Repeat("\n", 8)+"alpha(1)\n\nx = alpha\n"), 0o644)
	ls := &lines{root: dir, files: map[string][]string{}}
	writeVerbose(&verbose, results, ls, 15)
	for _, s := range []string{"def missing: 1", "function gamma e.js:5", "unresolved call c.js:9: alpha(1)", "silent     c.js:11: x = alpha", "b.js:4"} {
		if !strings.Contains(verbose.String(), s) {
			t.Errorf("verbose report lacks %q:\n%s", s, verbose.String())
		}
	}
	if err := writeMisses(&misses, results, ls); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(misses.String()), "\n") {
		var m miss
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		count[m.Status]++
	}
	if fmt.Sprint(count) != "map[def-missing:1 extra:1 silent:1 unresolved:1]" {
		t.Errorf("misses by status: %v", count)
	}
}

func TestReadOracle(t *testing.T) {
	defs, err := readOracle(strings.NewReader(`{"name":"f","path":"a.go","line":3,"kind":"function","uses":[{"path":"a.go","line":9,"call":true}]}` + "\n\n"))
	if err != nil || len(defs) != 1 || len(defs[0].Uses) != 1 || !defs[0].Uses[0].Call {
		t.Fatalf("readOracle: %v %+v", err, defs)
	}
	for _, bad := range []string{`{"name":"f"`, `{"name":"f","path":"a.go"}`, `{"path":"a.go","line":1}`} {
		if _, err := readOracle(strings.NewReader(bad)); err == nil {
			t.Errorf("readOracle(%s): no error", bad)
		}
	}
}

func TestArguments(t *testing.T) {
	for _, args := range [][]string{{}, {"nosuch"}, {"compare"}, {"compare", "-root", "/nonexistent", "-oracle", "x"}, {"oracle-go"}, {"compare", "-j", "0", "-root", "a", "-oracle", "b"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("run %v = %d, want 2 (stderr %q)", args, code, errOut.String())
		}
		if errOut.Len() == 0 {
			t.Errorf("run %v: says nothing on stderr", args)
		}
	}
}

const oracleSrcA = `package a

// Counter counts.
type Counter struct {
	Total int
}

// Add adds.
func (c *Counter) Add(n int) int {
	c.Total += n
	return c.Total
}

type Box[T any] struct{ Value T }

func (b Box[T]) Get() T { return b.Value }

func NewCounter() *Counter { return &Counter{Total: 0} }

var Default = NewCounter()
`

const oracleSrcB = `package b

import "example.org/m/a"

func Use() int {
	c := a.NewCounter()
	f := c.Add
	_ = f
	x := a.Counter(*c)
	_ = x
	bx := a.Box[int]{Value: 1}
	return c.Add(2) + bx.Get() + a.Default.Total
}
`

const oracleSrcWin = `//go:build windows

package b

import "example.org/m/a"

func onWindows() { a.NewCounter() }
`

func TestOracleGo(t *testing.T) {
	gopath := t.TempDir()
	root := filepath.Join(gopath, "src", "example.org", "m")
	for name, src := range map[string]string{"a/a.go": oracleSrcA, "b/b.go": oracleSrcB, "b/win.go": oracleSrcWin} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOPATH", gopath)
	t.Setenv("GO111MODULE", "off")
	var out, errOut bytes.Buffer
	if code := run([]string{"oracle-go", "-root", root, "-n", "100"}, &out, &errOut); code != 0 {
		t.Fatalf("oracle-go: exit %d: %s", code, errOut.String())
	}
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.HasSuffix(l, "type errors") && !strings.HasSuffix(l, " 0 type errors") {
			t.Errorf("type errors: %s", errOut.String())
		}
	}
	defs, err := readOracle(&out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range defs {
		var uses []string
		for _, u := range d.Uses {
			s := fmt.Sprintf("%s:%d", u.Path, u.Line)
			if u.Call {
				s += "(call)"
			}
			uses = append(uses, s)
		}
		got[fmt.Sprintf("%s %s %s:%d", d.Kind, d.Name, d.Path, d.Line)] = strings.Join(uses, " ")
	}
	want := map[string]string{
		"type Counter a/a.go:4":         "a/a.go:9 a/a.go:18 b/b.go:9", // a conversion is a use, not a call
		"field Total a/a.go:5":          "a/a.go:10 a/a.go:11 a/a.go:18 b/b.go:12",
		"method Add a/a.go:9":           "b/b.go:7 b/b.go:12(call)",
		"type Box a/a.go:14":            "a/a.go:16 b/b.go:11",
		"field Value a/a.go:14":         "a/a.go:16 b/b.go:11",                             // through the instance Box[int]
		"method Get a/a.go:16":          "b/b.go:12(call)",                                 // the instance's method is its origin's
		"function NewCounter a/a.go:18": "a/a.go:20(call) b/b.go:6(call) b/win.go:7(call)", // win.go: as GOOS=windows
		"variable Default a/a.go:20":    "b/b.go:12",
		"function Use b/b.go:5":         "",
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("not sampled: %s (sampled: %v)", k, got)
			continue
		}
		if g != w {
			t.Errorf("%s: uses %q, want %q", k, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("sampled %d definitions, want %d: %v", len(got), len(want), got)
	}
	// the sample is deterministic, spread over files, and a prefix of a larger one
	var out2, out3 bytes.Buffer
	run([]string{"oracle-go", "-root", root, "-n", "3"}, &out2, &bytes.Buffer{})
	run([]string{"oracle-go", "-root", root, "-n", "3"}, &out3, &bytes.Buffer{})
	if out2.String() != out3.String() {
		t.Errorf("two runs differ:\n%s\n%s", out2.String(), out3.String())
	}
	small, _ := readOracle(&out2)
	files := map[string]bool{}
	for _, d := range small {
		files[d.Path] = true
	}
	if len(small) != 3 || len(files) != 2 {
		t.Errorf("-n 3: %d definitions in %d files, want 3 in both files", len(small), len(files))
	}
	if !strings.HasPrefix(out.String(), out2.String()) {
		t.Errorf("-n 3 is not the start of -n 100")
	}
}

func TestUnjudgedLines(t *testing.T) {
	in := `{"name":"f","path":"a.c","line":3,"kind":"function","uses":[{"path":"a.c","line":9,"call":true}]}
{"unjudged":{"a.c":[[20,30]],"b.h":[[5,5]]}}
`
	defs, u, err := readOracleAll(strings.NewReader(in))
	if err != nil || len(defs) != 1 {
		t.Fatalf("readOracleAll: %v %+v", err, defs)
	}
	if !u.has(loc{"a.c", 20}) || !u.has(loc{"a.c", 30}) || u.has(loc{"a.c", 31}) || !u.has(loc{"b.h", 5}) || u.has(loc{"b.h", 6}) {
		t.Errorf("unjudged = %v", u)
	}
	if _, _, err := readOracleAll(strings.NewReader(`{"unjudged":{"a.c":[[9,3]]}}`)); err == nil {
		t.Error("a range whose last line is before its first: no error")
	}
	r := []defResult{{
		Oracle:   map[loc]bool{{"a.c", 9}: true, {"a.c", 25}: false},
		Resolved: map[loc]bool{{"a.c", 9}: true, {"a.c", 25}: true, {"a.c", 26}: true, {"a.c", 40}: true},
		Sites:    map[loc]bool{{"a.c", 9}: true, {"a.c", 26}: true},
	}}
	if n := dropUnjudged(r, u); n != 1 {
		t.Errorf("dropUnjudged = %d, want 1 (a.c:26: unlisted, unjudged)", n)
	}
	want := map[loc]bool{{"a.c", 9}: true, {"a.c", 25}: true, {"a.c", 40}: true}
	if !maps.Equal(r[0].Resolved, want) || len(r[0].Sites) != 1 {
		t.Errorf("after dropUnjudged: resolved %v, sites %v", r[0].Resolved, r[0].Sites)
	}
}
