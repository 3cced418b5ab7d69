package grams

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// corpusBytes is the size of the GOROOT sample the superset tests index: smaller under the
// race detector, which is ten times slower.
func corpusBytes() int64 {
	if raceEnabled || testing.Short() {
		return 1 << 20
	}
	return 4 << 20
}

func TestQueryGrams(t *testing.T) {
	k3 := func(s string) uint32 { return testKey3([]byte(s)) }
	k4 := func(s string) uint32 { return testKey4([]byte(s)) }
	for _, c := range []struct {
		in   string
		want []uint32
	}{
		{"", nil},
		{"ab", nil},
		{"abc", []uint32{k3("abc")}}, // 3 bytes: the trigram alone
		{"ABC", []uint32{k3("abc")}},
		{"aBcD", []uint32{k3("abc"), k3("bcd"), k4("abcd")}},
		{"abab", []uint32{k3("aba"), k3("bab"), k4("abab")}},
		{"ababab", []uint32{k3("aba"), k3("bab"), k4("abab"), k4("baba")}},
		{"é", nil},                     // two UTF-8 bytes
		{"aéb", nil},                   // every trigram holds a byte >= 0x80
		{"xéyzw", []uint32{k3("yzw")}}, // only the ASCII one; each 4-gram holds é
		{"abcé", []uint32{k3("abc")}},  // the 4-gram holds é
		{"éabcd", []uint32{k3("abc"), k3("bcd"), k4("abcd")}},
		{"[@`", []uint32{k3("[@`")}},             // bytes next to the letters are not folded
		{"[@`{", []uint32{k3("[@`"), k3("@`{")}}, // no 4-gram but of identifier bytes
	} {
		want := slices.Sorted(slices.Values(c.want))
		if got := queryGrams(c.in); !slices.Equal(got, want) {
			t.Errorf("queryGrams(%q) = %x, want %x", c.in, got, want)
		}
	}
	// The test's keys are the package's.
	if k3("abc") != gramKey('a', 'b', 'c') || k4("abcd") != gram4Key(0x61626364) {
		t.Errorf("keys: %x %x, the package's %x %x", k3("abc"), k4("abcd"), gramKey('a', 'b', 'c'), gram4Key(0x61626364))
	}
}

func TestQueryBuild(t *testing.T) {
	a, b, c := Literal("alpha"), Literal("beta"), Literal("gamma")
	for _, tc := range []struct {
		q    *Query
		want string
	}{
		{Everything(), "all"},
		{Literal("ab"), "all"},
		{Literal("é"), "all"},
		{a, `lit("alpha")`},
		{And(), "all"},
		{Or(), "none"},
		{And(a), `lit("alpha")`},
		{And(a, Everything()), `lit("alpha")`},
		{And(a, Or()), "none"},
		{Or(a, Everything()), "all"},
		{Or(a, Or()), `lit("alpha")`},
		{And(a, And(b, c)), `and(lit("alpha"), lit("beta"), lit("gamma"))`},
		{Or(Or(a, b), c), `or(lit("alpha"), lit("beta"), lit("gamma"))`},
		{And(Literal("retry"), Or(Literal("foo"), Literal("bar"))), `and(lit("retry"), or(lit("foo"), lit("bar")))`},
		{Literal("a\"b\n"), `lit("a\"b\n")`},
	} {
		if got := tc.q.String(); got != tc.want {
			t.Errorf("String() = %s, want %s", got, tc.want)
		}
		if tc.q.MatchesAll() != (tc.want == "all") || tc.q.MatchesNone() != (tc.want == "none") {
			t.Errorf("%s: MatchesAll %v, MatchesNone %v", tc.want, tc.q.MatchesAll(), tc.q.MatchesNone())
		}
	}
}

// buildIndex writes files as one segment in a new directory and opens it.
func buildIndex(t *testing.T, files []file) (*Index, Manifest, string) {
	t.Helper()
	dir := t.TempDir()
	b := NewBuilder()
	for _, f := range files {
		b.Add(f.path, f.prior, f.content)
	}
	info, err := b.Write(dir, segmentName(1))
	if err != nil {
		t.Fatal(err)
	}
	m := Manifest{Version: ManifestVersion, Segments: []SegmentEntry{{Name: info.Name, Docs: info.Docs, Bytes: info.Bytes}}}
	ix, err := Open(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, m, dir
}

// writeIndex writes files through a Writer with a small FlushBytes, so in several
// segments, and opens the manifest it returns.
func writeIndex(t *testing.T, files []file, flush int64) (*Index, Manifest, string) {
	t.Helper()
	defer setFlush(flush)()
	dir := filepath.Join(t.TempDir(), "grams")
	w, err := NewWriter(dir, Manifest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := w.Put(f.path, f.prior, f.content); err != nil {
			t.Fatal(err)
		}
	}
	m, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	ix, err := Open(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, m, dir
}

// setFlush sets FlushBytes and returns what restores it.
func setFlush(n int64) func() {
	old := FlushBytes
	FlushBytes = n
	return func() { FlushBytes = old }
}

// checkAnswers runs n random queries (literals, then And/Or expressions) on ix and checks
// each against the brute-force model: a superset of the files that hold it, and exactly the
// files holding its keys (trigrams and 4-grams), in (prior, path) order.
func checkAnswers(t *testing.T, ix *Index, m *model, r *rand.Rand, n int) {
	t.Helper()
	index := map[string]int{}
	for i, f := range m.files {
		index[f.path] = i
	}
	for q := range n {
		e := &expr{op: opLit, lit: m.randomLiteral(r)}
		if q >= n/2 {
			e = m.randomExpr(r, 3)
		}
		query := e.query()
		got := ix.Candidates(query)
		if !slices.IsSortedFunc(got, compareDocs) {
			t.Fatalf("%s: candidates out of order", query)
		}
		if c := ix.Count(query); c != len(got) {
			t.Fatalf("%s: Count %d, Candidates %d", query, c, len(got))
		}
		in := make(map[string]bool, len(got))
		for _, d := range got {
			if in[d.Path] {
				t.Fatalf("%s: %s twice", query, d.Path)
			}
			in[d.Path] = true
			i, ok := index[d.Path]
			if !ok {
				t.Fatalf("%s: candidate %s is no file", query, d.Path)
			}
			if d.Prior != m.files[i].prior {
				t.Fatalf("%s: %s has prior %d, want %d", query, d.Path, d.Prior, m.files[i].prior)
			}
		}
		for i, f := range m.files {
			if m.contains(i, e) && !in[f.path] {
				t.Fatalf("%s: %s holds it but is no candidate", query, f.path)
			}
			if want := m.keys(i, e); want != in[f.path] {
				t.Fatalf("%s: %s is a candidate: %v, holds its keys: %v", query, f.path, in[f.path], want)
			}
		}
	}
}

func TestSupersetGoCorpus(t *testing.T) {
	files := goCorpus(t, corpusBytes())
	m := newModel(files)
	r := rand.New(rand.NewPCG(1, 2))
	ix, _, _ := buildIndex(t, files)
	if ix.Docs() != len(files) {
		t.Fatalf("Docs() = %d, want %d", ix.Docs(), len(files))
	}
	checkAnswers(t, ix, m, r, 300)
	ix2, man, _ := writeIndex(t, files, 256<<10)
	if len(man.Segments) < 3 {
		t.Fatalf("%d segments, want several", len(man.Segments))
	}
	checkAnswers(t, ix2, m, r, 300)
}

func TestSupersetSynthetic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	files := synthCorpus(r, 400)
	m := newModel(files)
	ix, _, _ := buildIndex(t, files)
	checkAnswers(t, ix, m, r, 1500)
	ix2, man, _ := writeIndex(t, files, 2<<10)
	if len(man.Segments) < 3 {
		t.Fatalf("%d segments, want several", len(man.Segments))
	}
	checkAnswers(t, ix2, m, r, 1500)
	// Literals that must find what they name, whatever the case or the bytes >= 0x80.
	for _, lit := range []string{"retry", "RETRY", "errNOrows", "STRAßE", "straße", "İstanbul", "日本語", "\x00\x01\x02", "quarry"} {
		e := &expr{op: opLit, lit: lit}
		got := ix.Candidates(e.query())
		in := map[string]bool{}
		for _, d := range got {
			in[d.Path] = true
		}
		n := 0
		for i, f := range files {
			if m.contains(i, e) {
				n++
				if !in[f.path] {
					t.Errorf("%q: %s holds it but is no candidate", lit, f.path)
				}
			}
		}
		if n == 0 {
			t.Errorf("%q: no file holds it: the corpus does not test it", lit)
		}
	}
}

// TestEmptyAndShort: documents without a trigram are candidates of what constrains nothing
// only; an empty segment opens and answers nothing.
func TestEmptyAndShort(t *testing.T) {
	files := []file{{"a", 0, nil}, {"b", 0, []byte("ab")}, {"c", 1, []byte("abc")}, {"d", 0, []byte("ABCD")}}
	ix, _, _ := buildIndex(t, files)
	paths := func(q *Query) string {
		var s []string
		for _, d := range ix.Candidates(q) {
			s = append(s, d.Path)
		}
		return strings.Join(s, ",")
	}
	for _, c := range []struct {
		q    *Query
		want string
	}{
		{Everything(), "a,b,d,c"},
		{Literal("ab"), "a,b,d,c"},
		{Literal("abc"), "d,c"},
		{Literal("bcd"), "d"},
		{Literal("xyz"), ""},
		{Or(), ""},
		{Or(Literal("bcd"), Literal("zzz")), "d"},
		{And(Literal("abc"), Literal("bcd")), "d"},
		{And(Literal("abc"), Or(Literal("bcd"), Literal("abc"))), "d,c"},
	} {
		if got := paths(c.q); got != c.want {
			t.Errorf("%s: %s, want %s", c.q, got, c.want)
		}
	}
	empty, _, _ := buildIndex(t, nil)
	if got := empty.Candidates(Everything()); len(got) != 0 || empty.Docs() != 0 {
		t.Errorf("empty index: %v", got)
	}
}

// TestFourGrams: a file holding every trigram of a literal but not each of its 4-grams is
// no candidate (with trigrams alone it was); files holding the literal are, whatever its
// case; a literal of 3 bytes asks for its trigram alone.
func TestFourGrams(t *testing.T) {
	files := []file{
		{"apart", 0, []byte("use ses est sta tat ate")}, // the trigrams of "usestate", apart
		{"near", 0, []byte("uses estate")},              // its 4-grams but "sest"
		{"whole", 0, []byte("x, setX := useState(0)")},
		{"upper", 1, []byte("USESTATE")},
	}
	ix, _, _ := buildIndex(t, files)
	m := newModel(files)
	var tri []uint32
	for _, k := range literalGrams("useState") {
		if k < 1<<24 {
			tri = append(tri, k)
		}
	}
	for i := range 2 {
		if !m.holds(i, tri) || m.holds(i, literalGrams("useState")) {
			t.Fatalf("%s: holds the trigrams of useState %v, its 4-grams too %v: the test proves nothing",
				files[i].path, m.holds(i, tri), m.holds(i, literalGrams("useState")))
		}
	}
	for _, c := range []struct {
		lit  string
		want []string
	}{
		{"useState", []string{"whole", "upper"}},
		{"USESTATE", []string{"whole", "upper"}},
		{"uses", []string{"near", "whole", "upper"}},
		{"sest", []string{"whole", "upper"}},
		{"sta", []string{"apart", "near", "whole", "upper"}},
		{"use ses", []string{"apart"}},
	} {
		if got := candidatePaths(ix, Literal(c.lit)); !slices.Equal(got, c.want) {
			t.Errorf("Candidates(%q) = %v, want %v", c.lit, got, c.want)
		}
	}
}

// TestFarApart: documents more than 0xFFFF apart in a builder's bucket stream (whose
// groups then give their document in full) are found, replaced ones are not.
func TestFarApart(t *testing.T) {
	b := NewBuilder()
	const n = 70000
	for i := range n {
		content := []byte("ab") // no key
		switch i {
		case 0, n - 1:
			content = []byte("zzzz qqqq xyzw") // "xyz" and "xyzw" in these alone
		case n / 2:
			content = []byte("zzzz qqqq")
		case 3:
			content = []byte("zzzz")
		}
		b.Add(fmt.Sprintf("f%05d", i), 0, content)
	}
	b.Add("f00003", 0, []byte("qqqq")) // replaces f00003
	dir := t.TempDir()
	if _, err := b.Write(dir, "s.qg"); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSegment(filepath.Join(dir, "s.qg"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for lit, want := range map[string][]string{
		"zzzz": {"f00000", "f35000", "f69999"},
		"qqqq": {"f00000", "f00003", "f35000", "f69999"},
		"zz q": {"f00000", "f35000", "f69999"},
		"xyzw": {"f00000", "f69999"},
	} {
		var got []string
		for _, d := range s.Match(Literal(lit)).ToArray() {
			got = append(got, s.Path(d))
		}
		if !slices.Equal(got, want) {
			t.Errorf("Match(%q) = %v, want %v", lit, got, want)
		}
	}
}

// TestSegmentAccessors: documents in (prior, path) order, Find, and the last Add of a path
// winning.
func TestSegmentAccessors(t *testing.T) {
	dir := t.TempDir()
	b := NewBuilder()
	b.Add("z.go", 0, []byte("package z"))
	b.Add("a_test.go", 1, []byte("package a"))
	b.Add("m.go", 0, []byte("old text"))
	b.Add("b.go", 0, []byte("package b"))
	b.Add("m.go", 2, []byte("new text"))
	if b.Docs() != 4 || b.Bytes() != int64(9+9+8+9+8) {
		t.Fatalf("Docs %d Bytes %d", b.Docs(), b.Bytes())
	}
	info, err := b.Write(dir, "s.qg")
	if err != nil {
		t.Fatal(err)
	}
	if b.Docs() != 0 || b.Bytes() != 0 {
		t.Fatalf("builder not empty after Write: %d docs", b.Docs())
	}
	st, _ := os.Stat(filepath.Join(dir, "s.qg"))
	if info.Name != "s.qg" || info.Docs != 4 || info.Bytes != st.Size() {
		t.Fatalf("info %+v, file %d bytes", info, st.Size())
	}
	s, err := OpenSegment(filepath.Join(dir, "s.qg"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for d := range uint32(s.Docs()) {
		got = append(got, fmt.Sprintf("%d:%s", s.Prior(d), s.Path(d)))
	}
	if want := "0:b.go 0:z.go 1:a_test.go 2:m.go"; strings.Join(got, " ") != want {
		t.Fatalf("documents %v, want %s", got, want)
	}
	for d, p := range []string{"b.go", "z.go", "a_test.go", "m.go"} {
		if n, ok := s.Find(p); !ok || n != uint32(d) {
			t.Errorf("Find(%s) = %d, %v; want %d", p, n, ok, d)
		}
	}
	if _, ok := s.Find("c.go"); ok {
		t.Error("Find(c.go) found it")
	}
	if bm := s.Match(Literal("old")); !bm.IsEmpty() {
		t.Errorf("the replaced text of m.go is found: %v", bm.ToArray())
	}
	if bm := s.Match(Literal("new")); !slices.Equal(bm.ToArray(), []uint32{3}) {
		t.Errorf("new text found in %v, want [3]", bm.ToArray())
	}
	if err := s.Verify(); err != nil {
		t.Error(err)
	}
	// The builder is reusable.
	b.Add("q.go", 0, []byte("quux"))
	if _, err := b.Write(dir, "t.qg"); err != nil {
		t.Fatal(err)
	}
	s2, err := OpenSegment(filepath.Join(dir, "t.qg"))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.Docs() != 1 || !s2.Match(Literal("package")).IsEmpty() || s2.Match(Literal("quux")).GetCardinality() != 1 {
		t.Errorf("a reused builder kept old documents")
	}
}

// TestMatchAfterClose: a bitmap Match returned stays valid after the segment is unmapped.
func TestMatchAfterClose(t *testing.T) {
	files := goCorpus(t, 1<<20)
	dir := t.TempDir()
	b := NewBuilder()
	for _, f := range files {
		b.Add(f.path, f.prior, f.content)
	}
	if _, err := b.Write(dir, "s.qg"); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSegment(filepath.Join(dir, "s.qg"))
	if err != nil {
		t.Fatal(err)
	}
	queries := []*Query{
		Literal("return"), Literal("ret"), Everything(), Or(Literal("return"), Literal("func")),
		And(Literal("return"), Or(Literal("func"), Literal("zzzzz"))), Or(Literal("package"), Literal("qqqqq")),
	}
	var bms []*roaring.Bitmap
	var want [][]uint32
	for _, q := range queries {
		bm := s.Match(q)
		if bm.GetCardinality() < 10 {
			t.Fatalf("%s in %d files", q, bm.GetCardinality())
		}
		bms = append(bms, bm)
		want = append(want, bm.ToArray())
	}
	s.Close()
	// Reading a bitmap that still pointed into the unmapped file would fault.
	for i, bm := range bms {
		if got := bm.ToArray(); !slices.Equal(got, want[i]) {
			t.Fatalf("%s after Close: %d documents, want %d", queries[i], len(got), len(want[i]))
		}
		bm.Add(1 << 20) // and they are the caller's to change
	}
}

// TestConcurrentQueries: an Index answers queries from several goroutines at once (the
// lazy checks of posting blocks and the prior groups of Find are shared), each answer the
// one a lone query gives.
func TestConcurrentQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	files := synthCorpus(r, 300)
	m := newModel(files)
	ix, _, _ := writeIndex(t, files, 4<<10)
	var queries []*Query
	for range 50 {
		queries = append(queries, m.randomExpr(r, 2).query())
	}
	// The answers of a fresh index, before any block was checked, against a used one's.
	fresh, _, _ := writeIndex(t, files, 4<<10)
	want := make([][]Doc, len(queries))
	for i, q := range queries {
		want[i] = ix.Candidates(q)
	}
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			for k := range queries {
				i := (k + g*13) % len(queries)
				if got := fresh.Candidates(queries[i]); !slices.Equal(got, want[i]) {
					errs <- fmt.Errorf("%s: %d candidates, want %d", queries[i], len(got), len(want[i]))
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestMatchAfterCloseContainers: the same with 70,000 documents, so that postings and
// answers hold every kind of roaring container (arrays, bitmaps, runs, a full one) in
// several containers of 65,536 documents, and each And and Or of them.
func TestMatchAfterCloseContainers(t *testing.T) {
	dir := t.TempDir()
	b := NewBuilder()
	const n = 70000
	for i := range n {
		var sb strings.Builder
		sb.WriteString("everywhere ")
		if i%2 == 0 {
			sb.WriteString("evenDoc ")
		}
		if i%1000 == 0 {
			sb.WriteString("rareDoc ")
		}
		if 10000 <= i && i < 20000 || 66000 <= i && i < 67000 {
			sb.WriteString("blockDoc ")
		}
		b.Add(fmt.Sprintf("d%06d", i), 0, []byte(sb.String()))
	}
	if _, err := b.Write(dir, "s.qg"); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSegment(filepath.Join(dir, "s.qg"))
	if err != nil {
		t.Fatal(err)
	}
	lits := []*Query{Literal("everywhere"), Literal("evenDoc"), Literal("rareDoc"), Literal("blockDoc")}
	want := func(q int, i int) bool {
		return [](func(int) bool){
			func(int) bool { return true },
			func(i int) bool { return i%2 == 0 },
			func(i int) bool { return i%1000 == 0 },
			func(i int) bool { return 10000 <= i && i < 20000 || 66000 <= i && i < 67000 },
		}[q](i)
	}
	type check struct {
		q    *Query
		want func(int) bool
	}
	var checks []check
	for a := range lits {
		checks = append(checks, check{lits[a], func(i int) bool { return want(a, i) }})
		for c := range lits {
			checks = append(checks,
				check{And(lits[a], lits[c]), func(i int) bool { return want(a, i) && want(c, i) }},
				check{Or(lits[a], lits[c]), func(i int) bool { return want(a, i) || want(c, i) }})
		}
	}
	var bms []*roaring.Bitmap
	for _, c := range checks {
		bms = append(bms, s.Match(c.q))
	}
	s.Close()
	for k, c := range checks {
		got := bms[k]
		for i := range n {
			if got.Contains(uint32(i)) != c.want(i) {
				t.Fatalf("%s: document %d: %v", c.q, i, got.Contains(uint32(i)))
			}
		}
		if got.GetCardinality() > n {
			t.Fatalf("%s: %d documents", c.q, got.GetCardinality())
		}
	}
}
