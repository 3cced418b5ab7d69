package grams

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// candidatePaths returns the paths of q's candidates, in order.
func candidatePaths(ix *Index, q *Query) []string {
	var out []string
	for _, d := range ix.Candidates(q) {
		out = append(out, d.Path)
	}
	return out
}

// reopen parses m as a caller would read it back, and opens it.
func reopen(t *testing.T, dir string, m Manifest) *Index {
	t.Helper()
	m2, err := ParseManifest(m.String())
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, m2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// dirNames returns the names of the files in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// manifestNames returns the segment names m lists, sorted.
func manifestNames(m Manifest) []string {
	var out []string
	for _, e := range m.Segments {
		out = append(out, e.Name)
	}
	slices.Sort(out)
	return out
}

// TestWriterRuns: a full build in several segments, then incremental runs that replace and
// delete documents, checked against the brute-force model after each commit.
func TestWriterRuns(t *testing.T) {
	defer setFlush(8 << 10)()
	r := rand.New(rand.NewPCG(5, 6))
	files := synthCorpus(r, 300)
	dir := filepath.Join(t.TempDir(), "idx")
	w, err := NewWriter(dir, Manifest{})
	if err != nil {
		t.Fatal(err)
	}
	if w.Changed() {
		t.Error("a new writer has changes")
	}
	for _, f := range files {
		if err := w.Put(f.path, f.prior, f.content); err != nil {
			t.Fatal(err)
		}
	}
	if !w.Changed() {
		t.Error("Put made no change")
	}
	m, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Put("x", 0, nil); err == nil {
		t.Error("Put after Finish succeeded")
	}
	w.Close()
	if len(m.Segments) < 3 {
		t.Fatalf("%d segments, want several", len(m.Segments))
	}
	ix := reopen(t, dir, m)
	checkAnswers(t, ix, newModel(files), r, 400)

	cur := slices.Clone(files)
	for run := range 6 {
		w, err := NewWriter(dir, m)
		if err != nil {
			t.Fatal(err)
		}
		// Replace some files with a marker only the new text holds, delete others.
		for range 10 {
			i := r.IntN(len(cur))
			cur[i].content = fmt.Appendf(nil, "Replaced%dRun%d %s", i, run, cur[i].content[:min(len(cur[i].content), 30)])
			cur[i].prior = uint8(r.IntN(3))
			if err := w.Put(cur[i].path, cur[i].prior, cur[i].content); err != nil {
				t.Fatal(err)
			}
		}
		for range 5 {
			i := r.IntN(len(cur))
			if err := w.Delete(cur[i].path); err != nil {
				t.Fatal(err)
			}
			cur = slices.Delete(cur, i, i+1)
		}
		if err := w.Delete("no/such/file"); err != nil {
			t.Fatal(err)
		}
		m, err = w.Finish()
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		if err := Clean(dir, m); err != nil {
			t.Fatal(err)
		}
		if got, want := dirNames(t, dir), manifestNames(m); !slices.Equal(got, want) {
			t.Fatalf("run %d: files %v after Clean, manifest %v", run, got, want)
		}
		ix := reopen(t, dir, m)
		if ix.Docs() != len(cur) {
			t.Fatalf("run %d: %d live documents, want %d", run, ix.Docs(), len(cur))
		}
		var all []string
		for d := range ix.Paths {
			all = append(all, d.Path)
		}
		slices.Sort(all)
		var want []string
		for _, f := range cur {
			want = append(want, f.path)
		}
		slices.Sort(want)
		if !slices.Equal(all, want) {
			t.Fatalf("run %d: Paths %d, want %d", run, len(all), len(want))
		}
		checkAnswers(t, ix, newModel(cur), r, 200)
	}
}

// TestReplaceAndDelete: Put of an existing path hides its old text, in a committed segment,
// in one this writer flushed, and in its builder; Delete removes it everywhere.
func TestReplaceAndDelete(t *testing.T) {
	defer setFlush(1 << 10)()
	dir := t.TempDir()
	w, err := NewWriter(dir, Manifest{})
	if err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("filler text ", 100) // over FlushBytes: each Put flushes
	w.Put("a.go", 0, []byte("alphaOne "+filler))
	w.Put("b.go", 0, []byte("betaOne "+filler))
	w.Put("a.go", 0, []byte("alphaTwo "+filler)) // replaces a flushed segment's document
	m, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	ix := reopen(t, dir, m)
	if got := candidatePaths(ix, Literal("alphaOne")); len(got) != 0 {
		t.Errorf("alphaOne found in %v", got)
	}
	if got := candidatePaths(ix, Literal("alphatwo")); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("alphaTwo found in %v", got)
	}
	if got := candidatePaths(ix, Literal("filler")); !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Errorf("filler found in %v, want each path once", got)
	}

	FlushBytes = 1 << 20 // the next changes stay in the builder
	w, err = NewWriter(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	w.Put("a.go", 1, []byte("alphaThree"))
	w.Put("c.go", 0, []byte("gammaOne"))
	w.Put("c.go", 0, []byte("gammaTwo")) // replaces the builder's document
	w.Delete("b.go")
	m2, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	ix2 := reopen(t, dir, m2)
	for lit, want := range map[string][]string{
		"alphaTwo": nil, "alphaThree": {"a.go"}, "betaOne": nil, "gammaOne": nil, "gammaTwo": {"c.go"},
	} {
		if got := candidatePaths(ix2, Literal(lit)); !slices.Equal(got, want) {
			t.Errorf("%s found in %v, want %v", lit, got, want)
		}
	}
	// (prior, path) order: c.go (0) before a.go (1).
	if got := candidatePaths(ix2, Everything()); !slices.Equal(got, []string{"c.go", "a.go"}) {
		t.Errorf("all: %v", got)
	}
	// The old manifest still answers as before until Clean.
	if got := candidatePaths(reopen(t, dir, m), Literal("betaOne")); !slices.Equal(got, []string{"b.go"}) {
		t.Errorf("old manifest: betaOne found in %v", got)
	}
	// A writer that only deletes a missing path changes nothing.
	w, _ = NewWriter(dir, m2)
	w.Delete("zzz")
	if w.Changed() {
		t.Error("Delete of a missing path is a change")
	}
	w.Close()
}

// TestMergeKeepsAnswers: Compact merges every segment into one, with documents replaced and
// deleted in them, and every query answers as before.
func TestMergeKeepsAnswers(t *testing.T) {
	defer setFlush(64 << 10)()
	files := goCorpus(t, corpusBytes()/2)
	r := rand.New(rand.NewPCG(7, 8))
	dir := t.TempDir()
	w, _ := NewWriter(dir, Manifest{})
	for _, f := range files {
		w.Put(f.path, f.prior, f.content)
	}
	m, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	// Replace and delete a few, so segments hold deleted documents.
	w, _ = NewWriter(dir, m)
	cur := slices.Clone(files)
	for i := 0; i < len(cur); i += 17 {
		cur[i].prior = 2
		cur[i].content = append([]byte("// Changed.\n"), cur[i].content...)
		w.Put(cur[i].path, cur[i].prior, cur[i].content)
	}
	for i := len(cur) - 1; i >= 0; i -= 23 {
		w.Delete(cur[i].path)
		cur = slices.Delete(cur, i, i+1)
	}
	m, err = w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	before := reopen(t, dir, m)
	if len(m.Segments) < 3 {
		t.Fatalf("%d segments, want several", len(m.Segments))
	}
	w, _ = NewWriter(dir, m)
	w.Compact()
	merged, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if len(merged.Segments) != 1 || len(merged.Segments[0].Deleted) != 0 {
		t.Fatalf("Compact: %d segments", len(merged.Segments))
	}
	after := reopen(t, dir, merged)
	if after.Docs() != before.Docs() || after.Docs() != len(cur) {
		t.Fatalf("%d documents after the merge, %d before, want %d", after.Docs(), before.Docs(), len(cur))
	}
	mod := newModel(cur)
	for range 300 {
		q := mod.randomExpr(r, 2).query()
		if a, b := candidatePaths(before, q), candidatePaths(after, q); !slices.Equal(a, b) {
			t.Fatalf("%s: %d candidates before the merge, %d after", q, len(a), len(b))
		}
	}
	checkAnswers(t, after, mod, r, 200)
	if err := after.Verify(); err != nil {
		t.Fatal(err)
	}
}

// TestMergePolicy: more than 8 small segments are merged into one; a segment more than half
// deleted is rewritten; a segment wholly deleted is dropped.
func TestMergePolicy(t *testing.T) {
	defer setFlush(1 << 30)()
	dir := t.TempDir()
	big := func(tag string) []byte {
		var b strings.Builder
		for i := range 2000 {
			fmt.Fprintf(&b, "%s line %d of a large file\n", tag, i)
		}
		return []byte(b.String())
	}
	// A large segment of 20 documents.
	w, _ := NewWriter(dir, Manifest{})
	for i := range 20 {
		w.Put(fmt.Sprintf("big/%02d.go", i), 0, big(fmt.Sprint("big", i)))
	}
	m, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	// Incremental runs, each adding a small segment: the 9th small one triggers a merge.
	for run := range 9 {
		w, _ := NewWriter(dir, m)
		w.Put(fmt.Sprintf("small/%d.go", run), 0, []byte(fmt.Sprintf("smallFile%d", run)))
		m, err = w.Finish()
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		want := run + 2
		if run == 8 {
			want = 2 // the big one and the 9 small ones merged
		}
		if len(m.Segments) != want {
			t.Fatalf("run %d: %d segments, want %d", run, len(m.Segments), want)
		}
	}
	ix := reopen(t, dir, m)
	if ix.Docs() != 29 {
		t.Fatalf("%d documents, want 29", ix.Docs())
	}
	for run := range 9 {
		if got := candidatePaths(ix, Literal(fmt.Sprintf("smallfile%d", run))); !slices.Equal(got, []string{fmt.Sprintf("small/%d.go", run)}) {
			t.Fatalf("smallFile%d in %v", run, got)
		}
	}
	// Delete 11 of the big segment's 20: it is rewritten with the 9 left.
	bigName := ""
	for _, e := range m.Segments {
		if e.Docs == 20 {
			bigName = e.Name
		}
	}
	w, _ = NewWriter(dir, m)
	for i := range 11 {
		w.Delete(fmt.Sprintf("big/%02d.go", i))
	}
	m, err = w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, e := range m.Segments {
		if e.Name == bigName || len(e.Deleted) != 0 {
			t.Fatalf("the segment more than half deleted was not rewritten: %+v", m.Segments)
		}
	}
	ix = reopen(t, dir, m)
	if ix.Docs() != 18 {
		t.Fatalf("%d documents, want 18", ix.Docs())
	}
	if got := candidatePaths(ix, Literal("big15 line")); !slices.Equal(got, []string{"big/15.go"}) {
		t.Fatalf("big15 in %v", got)
	}
	// Delete every small file: their segment is dropped.
	w, _ = NewWriter(dir, m)
	for run := range 9 {
		w.Delete(fmt.Sprintf("small/%d.go", run))
	}
	m, err = w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if len(m.Segments) != 1 || m.Segments[0].Docs != 9 {
		t.Fatalf("segments %+v, want the 9 big files' only", m.Segments)
	}
}

// TestCrashBeforeCommit: segments written by a run that never committed leave the committed
// manifest readable and answering as before; Clean removes them and temporary files, and
// leaves other files alone.
func TestCrashBeforeCommit(t *testing.T) {
	defer setFlush(4 << 10)()
	r := rand.New(rand.NewPCG(9, 10))
	files := synthCorpus(r, 200)
	ix0, m, dir := writeIndex(t, files, 4<<10)
	var queries []*Query
	var answers [][]string
	mod := newModel(files)
	for range 100 {
		q := mod.randomExpr(r, 2).query()
		queries = append(queries, q)
		answers = append(answers, candidatePaths(ix0, q))
	}
	// A run that flushes segments, merges, finishes, then "crashes": its manifest is never
	// committed.
	w, err := NewWriter(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range synthCorpus(r, 200) {
		w.Put(f.path, f.prior, append([]byte("crashed run "), f.content...))
	}
	w.Compact()
	uncommitted, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	// A crash in the middle of a segment's write leaves a temporary file.
	tmp := filepath.Join(dir, segmentName(1<<62)+tempInfix+"123")
	os.WriteFile(tmp, []byte("partial"), 0o600)
	other := filepath.Join(dir, "README")
	os.WriteFile(other, []byte("not ours"), 0o600)
	if len(dirNames(t, dir)) <= len(m.Segments)+2 {
		t.Fatal("the run wrote no segment")
	}
	for _, ix := range []*Index{ix0, reopen(t, dir, m)} {
		for i, q := range queries {
			if got := candidatePaths(ix, q); !slices.Equal(got, answers[i]) {
				t.Fatalf("%s: answers changed: %v, want %v", q, got, answers[i])
			}
		}
	}
	// The next writer never reuses a name the crashed run used.
	w, _ = NewWriter(dir, m)
	if n := w.nextName(); n <= segmentName(1<<62) {
		t.Errorf("next name %s, not after the stray temporary file's", n)
	}
	w.Close()
	if err := Clean(dir, m); err != nil {
		t.Fatal(err)
	}
	want := append(manifestNames(m), "README")
	slices.Sort(want)
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Fatalf("after Clean: %v, want %v", got, want)
	}
	if _, err := Open(dir, uncommitted); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the uncommitted manifest opens after Clean: %v", err)
	}
	ix := reopen(t, dir, m)
	for i, q := range queries {
		if got := candidatePaths(ix, q); !slices.Equal(got, answers[i]) {
			t.Fatalf("%s after Clean: %v, want %v", q, got, answers[i])
		}
	}
}

// TestCorruptSegment: a truncated or damaged file is an error on open, never a panic; damaged
// postings are found by the queries that read them, which stay supersets.
func TestCorruptSegment(t *testing.T) {
	files := goCorpus(t, 1<<20)
	dir := t.TempDir()
	b := NewBuilder()
	for _, f := range files {
		b.Add(f.path, f.prior, f.content)
	}
	info, err := b.Write(dir, "s.qg")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.qg")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenSegment(path)
	if err != nil {
		t.Fatal(err)
	}
	want := s.Match(Literal("return")).GetCardinality()
	s.Close()
	h, err := parseHeader(good, uint64(len(good)))
	if err != nil {
		t.Fatal(err)
	}
	try := func(what string, data []byte) error {
		t.Helper()
		p := filepath.Join(dir, "bad.qg")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := OpenSegment(p)
		if err == nil {
			s.Close()
			return nil
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v does not wrap ErrCorrupt", what, err)
		}
		return err
	}
	for _, n := range []int{0, 1, 8, 64, 127, 128, 129, int(h.postOff), int(h.dirOff) + 3, len(good) / 2, len(good) - 4, len(good) - 1} {
		if try(fmt.Sprintf("truncated at %d", n), good[:n]) == nil {
			t.Errorf("a file truncated at %d of %d bytes opens", n, len(good))
		}
	}
	if try("extended", append(slices.Clone(good), 0)) == nil {
		t.Error("a file with a byte appended opens")
	}
	flip := func(i int) []byte {
		d := slices.Clone(good)
		d[i] ^= 0x10
		return d
	}
	for i := range headerLen {
		if try(fmt.Sprintf("header byte %d", i), flip(i)) == nil {
			t.Errorf("a file with header byte %d flipped opens", i)
		}
	}
	for _, i := range []uint64{h.docsOff, h.docsOff + h.docsLen/2, h.postOff - 1, h.dirOff, h.dirOff + h.dirLen/2, h.crcOff} {
		if try(fmt.Sprintf("byte %d", i), flip(int(i))) == nil {
			t.Errorf("a file with byte %d (documents, directory or CRCs) flipped opens", i)
		}
	}
	if try("a good copy", good) != nil {
		t.Fatal("an intact copy does not open")
	}
	// A damaged postings block: found by a query reading it, whose answer stays a superset.
	s, err = OpenSegment(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	i, ok := s.find(queryGrams("ret")[0])
	if !ok {
		t.Fatal("no trigram ret")
	}
	lo := uint64(s.offsets(i))
	s.Close()
	for _, at := range []uint64{lo, lo + 1, lo + 5} {
		bad := flip(int(h.postOff + at))
		p := filepath.Join(dir, "bad.qg")
		os.WriteFile(p, bad, 0o600)
		s, err := OpenSegment(p)
		if err != nil {
			t.Fatal(err)
		}
		if s.Err() != nil {
			t.Fatal("Err before any query")
		}
		got := s.Match(Literal("return"))
		if got.GetCardinality() < want {
			t.Errorf("damaged posting: %d candidates, fewer than the %d intact", got.GetCardinality(), want)
		}
		if s.Err() == nil || !errors.Is(s.Err(), ErrCorrupt) {
			t.Errorf("damaged posting: Err() = %v", s.Err())
		}
		if s.Verify() == nil {
			t.Error("Verify of a damaged file succeeded")
		}
		s.Close()
	}
	_ = info
}

// TestOldVersion: a segment of format version 1 (trigrams alone) is refused on open, with
// an error wrapping ErrCorrupt that says its version, so the caller builds the index again;
// a manifest listing it neither opens nor gives a Writer.
func TestOldVersion(t *testing.T) {
	dir := t.TempDir()
	b := NewBuilder()
	b.Add("a.go", 0, []byte("package a"))
	info, err := b.Write(dir, segmentName(1))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, info.Name)
	d, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(d[8:]); v != version || version != 2 {
		t.Fatalf("a segment of version %d, the package's %d, want 2", v, version)
	}
	binary.LittleEndian.PutUint32(d[8:], 1)
	binary.LittleEndian.PutUint32(d[124:], crc32.Checksum(d[:124], castagnoli))
	if err := os.WriteFile(p, d, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSegment(p)
	if err == nil {
		s.Close()
		t.Fatal("a segment of version 1 opens")
	}
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "version 1, want 2") {
		t.Errorf("OpenSegment of version 1: %v", err)
	}
	m := Manifest{Version: ManifestVersion, Segments: []SegmentEntry{{Name: info.Name, Docs: info.Docs, Bytes: info.Bytes}}}
	if ix, err := Open(dir, m); err == nil || !strings.Contains(err.Error(), "version 1") {
		t.Errorf("Open of a manifest listing a version 1 segment: %v", err)
		if err == nil {
			ix.Close()
		}
	}
	if w, err := NewWriter(dir, m); err == nil || !strings.Contains(err.Error(), "version 1") {
		t.Errorf("NewWriter over a manifest listing a version 1 segment: %v", err)
		if err == nil {
			w.Close()
		}
	}
}

// TestRandomGarbage: files of random bytes, with and without the magic, never open and
// never panic.
func TestRandomGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	dir := t.TempDir()
	for i := range 200 {
		d := make([]byte, r.IntN(600))
		for j := range d {
			d[j] = byte(r.UintN(256))
		}
		if i%2 == 0 && len(d) >= 8 {
			copy(d, magic)
		}
		p := filepath.Join(dir, "g.qg")
		os.WriteFile(p, d, 0o600)
		if s, err := OpenSegment(p); err == nil {
			s.Close()
			t.Fatalf("random file %d opens", i)
		}
	}
}

// TestManifest: String and ParseManifest round-trip; the empty string is ErrNoManifest;
// malformed manifests and ones naming missing or different files are errors naming them.
func TestManifest(t *testing.T) {
	if _, err := ParseManifest(""); !errors.Is(err, ErrNoManifest) {
		t.Errorf(`ParseManifest("") = %v`, err)
	}
	if got := (Manifest{}).String(); got != `{"version":1,"segments":[]}` {
		t.Errorf("empty manifest %s", got)
	}
	for _, bad := range []string{"{", `{"version":2,"segments":[]}`, `{"version":1,"segments":[{"name":"../x"}]}`,
		`{"version":1,"segments":[{"name":"a"},{"name":"a"}]}`, `{"version":1,"segments":[],"extra":1}`} {
		if _, err := ParseManifest(bad); err == nil {
			t.Errorf("ParseManifest(%s) succeeded", bad)
		}
	}
	r := rand.New(rand.NewPCG(13, 14))
	_, m, dir := writeIndex(t, synthCorpus(r, 100), 1<<10)
	w, _ := NewWriter(dir, m)
	w.Delete("dira/f0")
	m, _ = w.Finish()
	w.Close()
	m2, err := ParseManifest(m.String())
	if err != nil {
		t.Fatal(err)
	}
	if m2.String() != m.String() {
		t.Errorf("round trip: %s, want %s", m2, m)
	}
	hasDeleted := false
	for _, e := range m2.Segments {
		hasDeleted = hasDeleted || len(e.Deleted) > 0
	}
	if !hasDeleted {
		t.Error("no deleted documents in the manifest")
	}
	// A missing segment, one of another size, bad deleted documents: errors naming it.
	e := m.Segments[0]
	for what, mod := range map[string]func(*SegmentEntry){
		"missing": func(e *SegmentEntry) { e.Name = segmentName(7) },
		"docs":    func(e *SegmentEntry) { e.Docs++ },
		"bytes":   func(e *SegmentEntry) { e.Bytes-- },
		"deleted": func(e *SegmentEntry) { e.Deleted = []byte{1, 2, 3} },
	} {
		bad := Manifest{Version: 1, Segments: slices.Clone(m.Segments)}
		mod(&bad.Segments[0])
		_, err := Open(dir, bad)
		if err == nil || !strings.Contains(err.Error(), bad.Segments[0].Name) && !strings.Contains(err.Error(), e.Name) {
			t.Errorf("%s: Open = %v", what, err)
		}
	}
}

// TestModes: segment files are 0600 and a created directory 0700, whatever the umask.
func TestModes(t *testing.T) {
	for _, mask := range []int{0, 0o022, 0o277} {
		old := syscall.Umask(mask)
		dir := filepath.Join(t.TempDir(), "a", "grams")
		w, err := NewWriter(dir, Manifest{})
		if err != nil {
			syscall.Umask(old)
			t.Fatal(err)
		}
		w.Put("x.go", 0, []byte("package x"))
		m, err := w.Finish()
		w.Close()
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(dir)
		if err != nil || st.Mode().Perm() != DirMode {
			t.Errorf("umask %o: directory mode %v, %v", mask, st.Mode().Perm(), err)
		}
		for _, e := range m.Segments {
			st, err := os.Stat(filepath.Join(dir, e.Name))
			if err != nil || st.Mode().Perm() != FileMode {
				t.Errorf("umask %o: segment mode %v, %v", mask, st.Mode().Perm(), err)
			}
		}
	}
}

// TestForgedHeaders: headers whose CRC is right but whose counts and offsets are random
// (as no writer makes them) are refused or read safely, never a panic.
func TestForgedHeaders(t *testing.T) {
	dir := t.TempDir()
	b := NewBuilder()
	for i := range 50 {
		b.Add(fmt.Sprintf("f%d", i), uint8(i%3), []byte(strings.Repeat(fmt.Sprintf("word%d ", i), 20)))
	}
	if _, err := b.Write(dir, "s.qg"); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(filepath.Join(dir, "s.qg"))
	r := rand.New(rand.NewPCG(21, 22))
	opened := 0
	for range 2000 {
		d := slices.Clone(good)
		for range 1 + r.IntN(3) {
			field := 16 + 4*r.IntN(27) // a uint32 of the counts, sections or CRCs
			var v uint32
			switch r.IntN(3) {
			case 0:
				v = r.Uint32()
			case 1:
				v = uint32(r.IntN(len(good) + 10))
			default:
				v = binary.LittleEndian.Uint32(d[field:]) + uint32(r.IntN(9)) - 4
			}
			binary.LittleEndian.PutUint32(d[field:], v)
		}
		binary.LittleEndian.PutUint32(d[124:], crc32.Checksum(d[:124], castagnoli))
		p := filepath.Join(dir, "forged.qg")
		os.WriteFile(p, d, 0o600)
		s, err := OpenSegment(p)
		if err != nil {
			continue
		}
		opened++
		s.Match(Or(Literal("word1"), Literal("word22 w")))
		s.Find("f3")
		for d := range uint32(s.Docs()) {
			s.Path(d)
		}
		s.Close()
	}
	t.Logf("%d of 2000 forged headers opened", opened)
}
