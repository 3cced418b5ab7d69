package fulltext

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// ftTestSymbols cover several languages, an unknown one and the naming conventions the
// tokenizer bridges.
var (
	ftTestSymbols = []SymbolDoc{
		{ID: "1", Name: "getUserData", Signature: "func getUserData(id string) (*User, error)", DocComment: "getUserData loads a user.", CodeBody: "return db.Find(id)", Language: "go", Kind: "function", Path: "api/user.go"},
		{ID: "2", Name: "get_user_data", Signature: "pub fn get_user_data(id: &str) -> Result<User>", CodeBody: "self.db.find(id)", Language: "rust", Kind: "function", Path: "src/user.rs"},
		{ID: "3", Name: "IUserService", Signature: "public interface IUserService", Language: "csharp", Kind: "interface", Path: "Services/IUserService.cs"},
		{ID: "4", Name: "IUserService", Signature: "type IUserService interface", Language: "go", Kind: "interface", Path: "api/service.go"},
		{ID: "5", Name: "Island", Signature: "class Island(BaseModel):", DocComment: "An island on the map.", Language: "py", Kind: "class", Path: "geo/island.py"},
		{ID: "6", Name: "Setup", Signature: "## Setup", Language: "markdown", Kind: "heading", Path: "README.md"},
	}
)

func openTestFulltext(t *testing.T, dir string) *Index {
	t.Helper()
	f, status, err := openFulltext(dir)
	if err != nil {
		t.Fatalf("openFulltext: %v", err)
	}
	t.Cleanup(func() { _ = f.Close() })
	if status != Created {
		t.Fatalf("openFulltext of a new directory: status %s, want %s", status, Created)
	}
	return f
}

func fillTestFulltext(t *testing.T, f *Index) {
	t.Helper()
	b := f.NewBatch()
	for _, d := range ftTestSymbols {
		b.AddSymbol(d)
	}
	if got, want := b.Size(), len(ftTestSymbols); got != want {
		t.Errorf("batch Size() = %d, want %d", got, want)
	}
	if err := f.Apply(b); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if b.Size() != 0 {
		t.Errorf("batch Size() after Apply = %d, want 0", b.Size())
	}
}

// ftSearch returns the sorted ids of the documents matching q.
func ftSearch(t *testing.T, f *Index, q query.Query) []string {
	t.Helper()
	res, err := f.bleveIndex().Search(bleve.NewSearchRequestOptions(q, 100, 0, false))
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids
}

func ftTerm(field, term string) query.Query {
	q := bleve.NewTermQuery(term)
	q.SetField(field)
	return q
}

// ftQueryTokens requires every query token of text (as the search layer will) in field.
func ftQueryTokens(field, lang, text string) query.Query {
	var l *languages.Language
	if reg, err := languages.Default(); err == nil && lang != "" {
		l, _ = reg.Lookup(lang)
	}
	var qs []query.Query
	for _, tok := range tokenizer.New(l).Query(text) {
		qs = append(qs, ftTerm(field, tok.Text))
	}
	return bleve.NewConjunctionQuery(qs...)
}

func ftAnd(qs ...query.Query) query.Query { return bleve.NewConjunctionQuery(qs...) }

func TestFulltextSearch(t *testing.T) {
	f := openTestFulltext(t, filepath.Join(t.TempDir(), "fulltext"))
	fillTestFulltext(t, f)
	symbols := everyDocOf(DocSymbol)
	tests := []struct {
		name string
		q    query.Query
		want []string
	}{
		{"camel query finds both conventions", ftQueryTokens(FieldName, "go", "getUserData"), []string{"s:1", "s:2"}},
		{"snake query finds both conventions", ftQueryTokens(FieldName, "rust", "get_user_data"), []string{"s:1", "s:2"}},
		{"whole word", ftTerm(FieldName, "getuserdata"), []string{"s:1"}},
		{"language filter", ftAnd(ftQueryTokens(FieldName, "go", "getUserData"), ftTerm(FieldLanguage, "rust")), []string{"s:2"}},
		{"doc_type symbol", ftAnd(ftTerm(FieldName, "island"), symbols), []string{"s:5"}},
		{"csharp variant", ftTerm(FieldName, "userservice"), []string{"s:3"}},
		{"alias resolves to canonical language", ftTerm(FieldLanguage, "python"), []string{"s:5"}},
		{"unknown language kept as given", ftAnd(ftTerm(FieldLanguage, "markdown"), symbols), []string{"s:6"}},
		{"kind", ftTerm(ftFieldKind, "interface"), []string{"s:3", "s:4"}},
		{"path", ftTerm(ftFieldPath, "api/user.go"), []string{"s:1"}},
		{"doc comment", ftTerm(FieldDocComment, "loads"), []string{"s:1"}},
		{"code body", ftTerm(FieldCodeBody, "find"), []string{"s:1", "s:2"}},
		// No term vectors: phrases are checked against the stored text by search, not here.
		{"no phrases in the index", bleve.NewPhraseQuery([]string{"getuserdata", "id"}, FieldSignature), nil},
		{"no _all field", ftTerm("_all", "island"), nil},
	}
	for _, tt := range tests {
		if got := ftSearch(t, f, tt.q); !slices.Equal(got, tt.want) {
			t.Errorf("%s: found %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFulltextStoresNothing proves hits are bare document ids: search reads what it shows
// from the store.
func TestFulltextStoresNothing(t *testing.T) {
	f := openTestFulltext(t, filepath.Join(t.TempDir(), "fulltext"))
	fillTestFulltext(t, f)
	req := bleve.NewSearchRequest(ftTerm(FieldName, "get_user_data"))
	req.Fields = []string{"*"}
	res, err := f.bleveIndex().Search(req)
	if err != nil || len(res.Hits) != 1 || res.Hits[0].ID != "s:2" {
		t.Fatalf("Search: %v, %v", err, res)
	}
	if got := res.Hits[0].Fields; len(got) != 0 {
		t.Errorf("stored fields = %v, want none", got)
	}
}

func TestFulltextCounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fulltext")
	f := openTestFulltext(t, dir)
	fillTestFulltext(t, f)
	ftCheckCounts(t, f, uint64(len(ftTestSymbols)))

	// Re-adding replaces; deleting removes.
	b := f.NewBatch()
	b.AddSymbol(ftTestSymbols[0])
	b.Delete(store.SymbolDocID("2"))
	b.Delete(store.SymbolDocID("no-such-symbol"))
	if err := f.Apply(b); err != nil {
		t.Fatal(err)
	}
	ftCheckCounts(t, f, uint64(len(ftTestSymbols))-1)
	if got := ftSearch(t, f, ftQueryTokens(FieldName, "go", "getUserData")); !slices.Equal(got, []string{"s:1"}) {
		t.Errorf("after delete: found %v, want [s:1]", got)
	}
	if got := ftSearch(t, f, ftTerm(FieldCodeBody, "find")); !slices.Equal(got, []string{"s:1"}) {
		t.Errorf("after delete: find found %v, want [s:1]", got)
	}
}

func ftCheckCounts(t *testing.T, f *Index, symbols uint64) {
	t.Helper()
	s, err := f.Symbols()
	if err != nil || s != symbols {
		t.Errorf("Symbols() = %d, %v, want %d", s, err, symbols)
	}
	if n, err := f.DocCount(); err != nil || n != symbols {
		t.Errorf("DocCount() = %d, %v, want %d", n, err, symbols)
	}
}

func TestFulltextReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fulltext")
	f, status, err := openFulltext(dir)
	if err != nil || status != Created {
		t.Fatalf("openFulltext = %s, %v, want %s", status, err, Created)
	}
	fillTestFulltext(t, f)
	if err := f.SetMeta("generation", "42"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	f, status, err = openFulltext(dir)
	if err != nil || status != Ready {
		t.Fatalf("reopen: openFulltext = %s, %v, want %s", status, err, Ready)
	}
	defer f.Close()
	ftCheckCounts(t, f, uint64(len(ftTestSymbols)))
	if v, err := f.Meta("generation"); err != nil || v != "42" {
		t.Errorf(`Meta("generation") = %q, %v, want "42"`, v, err)
	}
	if v, err := f.Meta("missing"); err != nil || v != "" {
		t.Errorf(`Meta("missing") = %q, %v, want ""`, v, err)
	}
	if got := ftSearch(t, f, ftQueryTokens(FieldName, "go", "getUserData")); len(got) != 2 {
		t.Errorf("after reopen: found %v, want two symbols", got)
	}

	// The mapping read back from disk keeps BM25 and the per-language analyzers.
	im, ok := f.bleveIndex().Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		t.Fatalf("mapping is a %T", f.bleveIndex().Mapping())
	}
	if im.ScoringModel != "bm25" || im.TypeField != "_type" {
		t.Errorf("scoring model %q, type field %q, want bm25, _type", im.ScoringModel, im.TypeField)
	}
	for typ, want := range map[string]string{"symbol_rust": "quarry-rust", "symbol_go": "quarry-go", "symbol_": "quarry-code"} {
		field := FieldCodeBody
		dm := im.TypeMapping[typ]
		if dm == nil || dm.Properties[field] == nil || len(dm.Properties[field].Fields) != 1 {
			t.Errorf("mapping of type %s has no %s field", typ, field)
			continue
		}
		if got := dm.Properties[field].Fields[0].Analyzer; got != want {
			t.Errorf("type %s, field %s: analyzer %q, want %q", typ, field, got, want)
		}
	}
}

func TestFulltextEmptyDirIsCreated(t *testing.T) {
	dir := t.TempDir()
	f, status, err := openFulltext(dir)
	if err != nil || status != Created {
		t.Fatalf("openFulltext(empty dir) = %s, %v, want %s", status, err, Created)
	}
	_ = f.Close()
}

func TestFulltextStale(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fulltext")
	f := openTestFulltext(t, dir)
	fillTestFulltext(t, f)
	if err := f.bleveIndex().SetInternal([]byte(ftVersionKey), []byte("0123456789abcdef")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f, status, err := openFulltext(dir)
	if err != nil || status != Stale {
		t.Fatalf("openFulltext = %s, %v, want %s", status, err, Stale)
	}
	ftCheckCounts(t, f, 0)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f, status, err = openFulltext(dir)
	if err != nil || status != Ready {
		t.Fatalf("openFulltext after rebuild = %s, %v, want %s", status, err, Ready)
	}
	_ = f.Close()
}

func TestFulltextCorrupt(t *testing.T) {
	junk := []byte("this is not an index\x00\xff\x01")
	tests := []struct {
		name  string
		spoil func(t *testing.T, dir string) // dir holds a closed, filled index
	}{
		{"junk files only", func(t *testing.T, dir string) {
			ftMust(t, os.RemoveAll(dir))
			ftMust(t, os.MkdirAll(filepath.Join(dir, "store"), 0o755))
			ftMust(t, os.WriteFile(filepath.Join(dir, "index_meta.json"), junk, 0o644))
			ftMust(t, os.WriteFile(filepath.Join(dir, "store", "root.bolt"), junk, 0o644))
		}},
		{"truncated meta", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "index_meta.json")
			data, err := os.ReadFile(p)
			ftMust(t, err)
			ftMust(t, os.WriteFile(p, data[:len(data)/2], 0o644))
		}},
		{"missing meta", func(t *testing.T, dir string) {
			ftMust(t, os.Remove(filepath.Join(dir, "index_meta.json")))
		}},
		{"junk root.bolt", func(t *testing.T, dir string) {
			ftMust(t, os.WriteFile(filepath.Join(dir, "store", "root.bolt"), junk, 0o644))
		}},
		{"junk segment", func(t *testing.T, dir string) {
			zaps, err := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
			ftMust(t, err)
			if len(zaps) == 0 {
				t.Fatal("no segment files")
			}
			for _, z := range zaps {
				ftMust(t, os.WriteFile(z, junk, 0o644))
			}
		}},
		{"a file, not a directory", func(t *testing.T, dir string) {
			ftMust(t, os.RemoveAll(dir))
			ftMust(t, os.WriteFile(dir, junk, 0o644))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "fulltext")
			f, _, err := openFulltext(dir)
			ftMust(t, err)
			fillTestFulltext(t, f)
			ftMust(t, f.Close())
			tt.spoil(t, dir)

			f, status, err := openFulltext(dir)
			if err != nil || status != Corrupt {
				t.Fatalf("openFulltext = %s, %v, want %s", status, err, Corrupt)
			}
			defer f.Close()
			ftCheckCounts(t, f, 0)
			fillTestFulltext(t, f)
			ftCheckCounts(t, f, uint64(len(ftTestSymbols)))
		})
	}
}

func ftMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestFulltextLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the lock timeout")
	}
	dir := filepath.Join(t.TempDir(), "fulltext")
	f := openTestFulltext(t, dir)
	fillTestFulltext(t, f)
	if g, status, err := openFulltext(dir); !errors.Is(err, ErrLocked) {
		if g != nil {
			_ = g.Close()
		}
		t.Fatalf("second openFulltext = %s, %v, want %v", status, err, ErrLocked)
	}
	ftCheckCounts(t, f, uint64(len(ftTestSymbols)))
}

func TestFulltextBatchError(t *testing.T) {
	f := openTestFulltext(t, filepath.Join(t.TempDir(), "fulltext"))
	b := f.NewBatch()
	b.AddSymbol(ftTestSymbols[0])
	b.add("", &ftSymbolDocument{}) // bleve refuses an empty id
	if err := f.Apply(b); err == nil {
		t.Error("Apply of a batch with an empty id succeeded")
	}
	ftCheckCounts(t, f, 0)
}

func TestFulltextVersion(t *testing.T) {
	v1, err := Version()
	if err != nil {
		t.Fatal(err)
	}
	if v2, _ := Version(); v2 != v1 || !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(v1) {
		t.Errorf("FulltextVersion() = %q then %q, want the same 16 hex digits", v1, v2)
	}
	other := ftOptions{termVectors: map[string]bool{FieldCodeBody: true}}
	if v, _ := ftVersion(other); v == v1 {
		t.Errorf("another mapping has the same version %s", v)
	}

	// Editing a language file changes the version.
	base, edited := fstest.MapFS{}, fstest.MapFS{}
	files, err := filepath.Glob(filepath.Join("..", "..", "languages", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("language files: %v, %v", files, err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		ftMust(t, err)
		base[filepath.Base(p)] = &fstest.MapFile{Data: data}
		if filepath.Base(p) == "rust.toml" {
			data = []byte(strings.Replace(string(data), `"_mut", `, "", 1))
		}
		edited[filepath.Base(p)] = &fstest.MapFile{Data: data}
	}
	vb, vbErr := ftVersionFS(base)
	ve, veErr := ftVersionFS(edited)
	if vbErr != nil || veErr != nil {
		t.Fatalf("versions: %v, %v", vbErr, veErr)
	}
	if vb != v1 {
		t.Errorf("version of the language files on disk = %s, want the embedded one %s", vb, v1)
	}
	if ve == vb {
		t.Errorf("removing a rust affix kept the version %s", ve)
	}
}

func ftVersionFS(fsys fs.FS) (string, error) {
	reg, err := languages.Parse(fsys)
	if err != nil {
		return "", err
	}
	return ftVersionOf(reg, ftDefaultOptions)
}

// ftBenchRoot is the corpus of BenchmarkFulltextIndex: Go's net/http, which every machine
// that builds Quarry has.
func ftBenchRoot() string { return filepath.Join(runtime.GOROOT(), "src", "net", "http") }

// ftBenchLimit bounds the bytes a benchmark corpus reads.
const ftBenchLimit = 512 << 20

// ftBenchFile is a source file of a benchmark's corpus.
type ftBenchFile struct{ Path, Language, Content string }

// ftBenchCorpus reads the source files under root whose language is known.
func ftBenchCorpus(b *testing.B, root string) ([]ftBenchFile, int) {
	b.Helper()
	reg, err := languages.Default()
	if err != nil {
		b.Fatal(err)
	}
	var files []ftBenchFile
	total := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || total >= ftBenchLimit {
			return err
		}
		lang := reg.ForPath(p)
		if lang == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, ftBenchFile{Path: filepath.ToSlash(rel), Language: lang.Name, Content: string(data)})
		total += len(data)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if total == 0 {
		b.Skipf("no source files under %s", root)
	}
	return files, total
}

var ftBenchDecl = regexp.MustCompile(`^\s*(?:(?:export|pub|public|private|protected|static|async|abstract|final)\s+)*` +
	`(?:func|fn|def|class|function|struct|interface|trait|enum)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)`)

// ftBenchSymbols makes fake symbol documents: one for each line of a file that looks like a
// declaration, with the comment lines above it and up to 30 lines of body.
func ftBenchSymbols(files []ftBenchFile) []SymbolDoc {
	var syms []SymbolDoc
	for _, f := range files {
		lines := strings.Split(f.Content, "\n")
		for i, line := range lines {
			m := ftBenchDecl.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			doc := i
			for doc > 0 && strings.HasPrefix(strings.TrimSpace(lines[doc-1]), "//") {
				doc--
			}
			syms = append(syms, SymbolDoc{
				ID: fmt.Sprintf("%s:%d", f.Path, i+1), Name: m[1],
				Signature: strings.TrimSpace(line), DocComment: strings.Join(lines[doc:i], "\n"),
				CodeBody: strings.Join(lines[i:min(i+30, len(lines))], "\n"), Language: f.Language,
				Kind: "function", Path: f.Path,
			})
		}
	}
	return syms
}

// ftBenchDoc is a symbol document.
type ftBenchDoc struct {
	sym *SymbolDoc
}

// ftBenchDocs orders documents as an indexer sends them: each file's symbols.
func ftBenchDocs(files []ftBenchFile, syms []SymbolDoc) []ftBenchDoc {
	var docs []ftBenchDoc
	for i := range syms {
		docs = append(docs, ftBenchDoc{sym: &syms[i]})
	}
	return docs
}

// ftFill indexes docs in batches of batchSize documents from workers goroutines.
func ftFill(f *Index, docs []ftBenchDoc, batchSize, workers int) error {
	chunks := make(chan []ftBenchDoc)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := f.NewBatch()
			for chunk := range chunks {
				for _, d := range chunk {
					b.AddSymbol(*d.sym)
				}
				if err := f.Apply(b); err != nil {
					errs <- err
					for range chunks { // let the sender finish
					}
					return
				}
			}
		}()
	}
	for i := 0; i < len(docs); i += batchSize {
		chunks <- docs[i:min(i+batchSize, len(docs))]
	}
	close(chunks)
	wg.Wait()
	close(errs)
	return <-errs
}

// ftDirSize returns the bytes of the files under dir.
func ftDirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// ftBenchCase is one configuration BenchmarkFulltextIndex measures.
type ftBenchCase struct {
	name      string
	batchSize int
	workers   int
	opts      ftOptions
}

func ftBenchCases() []ftBenchCase {
	tv := func(fields ...string) ftOptions {
		m := map[string]bool{}
		for _, f := range fields {
			m[f] = true
		}
		return ftOptions{termVectors: m}
	}
	def := ftDefaultOptions
	withKV := func(kv map[string]any) ftOptions { return ftOptions{termVectors: def.termVectors, kvconfig: kv} }
	persisters := withKV(map[string]any{"scorchPersisterOptions": map[string]any{
		"NumPersisterWorkers": 2, "MaxSizeInMemoryMergePerWorker": 32 << 20,
	}})
	zap15 := withKV(map[string]any{"forceSegmentType": "zap", "forceSegmentVersion": 15})
	return []ftBenchCase{
		{"batch=500", 500, 1, def},
		{"batch=100", 100, 1, def},
		{"batch=2000", 2000, 1, def},
		{"batch=5000", 5000, 1, def},
		{"batch=500/workers=2", 500, 2, def},
		{"batch=2000/workers=2", 2000, 2, def},
		{"batch=5000/workers=2", 5000, 2, def},
		{"batch=2000/workers=3", 2000, 3, def},
		{"batch=2000/workers=2/tv=none", 2000, 2, tv()},
		{"batch=2000/workers=2/tv=signature", 2000, 2, tv(FieldSignature)},
		{"batch=2000/workers=2/tv=all", 2000, 2, tv(FieldName, FieldSignature, FieldCodeBody)},
		{"batch=2000/workers=2/persisters=2", 2000, 2, persisters},
		{"batch=2000/workers=2/zap15", 2000, 2, zap15},
	}
}

func benchFulltextIndex(b *testing.B, root string) {
	files, total := ftBenchCorpus(b, root)
	syms := ftBenchSymbols(files)
	docs := ftBenchDocs(files, syms)
	only := strings.Fields(os.Getenv("QUARRY_BENCH_CASE"))
	for _, c := range ftBenchCases() {
		if len(only) > 0 && !slices.Contains(only, c.name) {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			var size int64
			for b.Loop() {
				dir := filepath.Join(b.TempDir(), "fulltext")
				f, _, err := ftOpen(dir, c.opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := ftFill(f, docs, c.batchSize, c.workers); err != nil {
					b.Fatal(err)
				}
				if err := f.Close(); err != nil {
					b.Fatal(err)
				}
				size = ftDirSize(dir)
				_ = os.RemoveAll(dir)
			}
			b.ReportMetric(float64(len(files)), "files")
			b.ReportMetric(float64(len(syms)), "symbols")
			b.ReportMetric(float64(size)/(1<<20), "index-MB")
			b.ReportMetric(float64(size)/float64(total), "index/corpus")
		})
	}
}

// BenchmarkFulltextIndex indexes Go's net/http sources as file documents plus fake symbol
// documents, in several configurations; QUARRY_BENCH_CASE selects some by name (separated
// by spaces).
func BenchmarkFulltextIndex(b *testing.B) { benchFulltextIndex(b, ftBenchRoot()) }

// BenchmarkFulltextIndexCorpus does the same for the corpus named by QUARRY_CORPUS (see
// bench/corpus.sh), up to ftBenchLimit bytes.
func BenchmarkFulltextIndexCorpus(b *testing.B) {
	root := os.Getenv("QUARRY_CORPUS")
	if root == "" {
		b.Skip("QUARRY_CORPUS is not set")
	}
	benchFulltextIndex(b, root)
}

// TestFulltextKeepsBuildRules proves an index is reopened with the tokenizer rules that built
// it: one built when python's rules preserved the operator "~~" still analyzes (and so
// matches) queries by those rules after the rules changed.
func TestFulltextKeepsBuildRules(t *testing.T) {
	edited := fstest.MapFS{}
	files, err := filepath.Glob(filepath.Join("..", "..", "languages", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("language files: %v, %v", files, err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		ftMust(t, err)
		if filepath.Base(p) == "python.toml" {
			data = []byte(strings.Replace(string(data), `preserve_patterns = ["->"`, `preserve_patterns = ["~~", "->"`, 1))
		}
		edited[filepath.Base(p)] = &fstest.MapFile{Data: data}
	}
	oldReg, err := languages.Parse(edited)
	ftMust(t, err)
	oldVersion, err := ftVersionOf(oldReg, ftDefaultOptions)
	ftMust(t, err)
	dir := filepath.Join(t.TempDir(), "fulltext")
	idx, err := ftCreate(dir, oldReg, ftDefaultOptions, oldVersion)
	ftMust(t, err)
	old := &Index{idx: idx, reg: oldReg}
	b := old.NewBatch()
	b.AddSymbol(SymbolDoc{ID: "1", Name: "UserModel", Signature: "a ~~ b", Language: "python", Kind: "class", Path: "m.py"})
	ftMust(t, old.Apply(b))
	ftMust(t, old.Close())

	f, status, err := OpenReader(dir)
	ftMust(t, err)
	defer f.Close()
	if status != Stale {
		t.Errorf("status = %s, want %s", status, Stale)
	}
	terms := ftTerms(f.Analyzer("python").Analyze([]byte("UserModel")))
	if !slices.Contains(terms, "user") || !slices.Contains(terms, "usermodel") {
		t.Fatalf("the reopened python analyzer gives %v, want user and usermodel", terms)
	}
	if current := ftTerms(ftTestAnalyzer(t, "python").Analyze([]byte("a ~~ b"))); slices.Contains(current, "~~") {
		t.Fatalf("the current python rules keep ~~ (%v): the test proves nothing", current)
	}
	if old := ftTerms(f.Analyzer("python").Analyze([]byte("a ~~ b"))); !slices.Equal(old, []string{"a", "~~", "b"}) {
		t.Errorf("the reopened python analyzer gives %v for a ~~ b, want [a ~~ b]", old)
	}
	if got := ftSearch(t, f, ftTerm(FieldSignature, "~~")); !slices.Equal(got, []string{"s:1"}) {
		t.Errorf("search ~~ = %v, want [s:1]", got)
	}
	if a := f.Analyzer("cobol"); a == nil || !slices.Equal(ftTerms(a.Analyze([]byte("a->b"))), []string{"a", "b"}) {
		t.Errorf("an unknown language does not get the neutral analyzer")
	}

	// openFulltext, which writes, does rebuild a stale index.
	f.Close()
	w, status, err := openFulltext(dir)
	ftMust(t, err)
	defer w.Close()
	if status != Stale {
		t.Errorf("openFulltext status = %s, want %s", status, Stale)
	}
	if n, err := w.Symbols(); err != nil || n != 0 {
		t.Errorf("after openFulltext of a stale index: %d symbols, %v; want an empty index", n, err)
	}
}
