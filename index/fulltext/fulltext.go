package fulltext

// The full-text index is one bleve index (scorch, BM25 scoring) in the workspace's fulltext/
// directory. It is derived data: the SQLite store is the source of truth, and an index that
// is missing, corrupt or built by another Version is removed and refilled from it.
//
// It holds one kind of document, a symbol's (id "s:" + symbol id, doc_type "symbol"): the
// text of files is in the content index (index/grams), which answers substrings and regexes
// that word postings cannot.
//
// Fields (every language uses the same names, so one query covers all):
//
//	field        kind     notes
//	doc_type     keyword  "symbol"
//	language     keyword  canonical language name, or as given
//	path         keyword  workspace-relative, POSIX; file_pattern runs regexps on it
//	kind         keyword  function, struct, ...
//	name         text     searched with boost 5
//	signature    text     searched with boost 3
//	doc_comment  text     searched with boost 2
//	code_body    text     searched with boost 1
//
// Nothing is stored, and no field keeps doc values or term vectors: a hit is its document id
// ("s:" + symbol id), and search reads what it shows from the store by that id,
// which it does anyway for the lines of code around a hit. No search runs a phrase inside
// bleve (content hits are verified against the stored text, which checks phrases), so term
// vectors would only cost. Measured on corpus.sh full (2 cores): storing name, signature,
// language, path, kind and start line, with doc values on three keywords and term vectors on
// name and signature, made the index 401 MB and the full index run 185 s; without them it is
// 204 MB and 162 s, and definitions search is faster too (no stored fields to load per
// hit). No field goes into bleve's composite _all field.
//
// Text fields are analyzed by the analyzer of the document's own language ("quarry-go", see
// analyzer.go), "quarry-code" when the language is unknown. A bleve mapping picks analyzers
// by document type, so there is one document mapping per language, named
// "symbol_<lang>" ("symbol_" for an unknown language) and held in
// the property "_type" (the mapping's TypeField), which is not itself indexed. A query
// that needs an analyzer (a match query) must name it: the field names alone are ambiguous.
//
// Internal values (bleve's SetInternal): "quarry:version" holds the Version that
// built the index; "quarry:meta:<key>" holds SetMeta's values.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"maps"
	"os"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/tokenizer"
)

// ftMappingVersion names the mapping and the tokenizer code. Bump it whenever either
// changes in a way the hash in Version cannot see.
const ftMappingVersion = "quarry-fulltext-5" // -2: analyzers in the mapping, code_body of body kinds only; -3: nothing stored; -4: no file documents (index/grams has the text); -5: symbol ids in 8 bytes (ids.go), no doc_type field (every document is a symbol's)

// Field names of the full-text documents.
const (
	FieldLanguage   = "language"
	ftFieldPath     = "path"
	ftFieldKind     = "kind"
	FieldName       = "name"
	FieldSignature  = "signature"
	FieldDocComment = "doc_comment"
	FieldCodeBody   = "code_body"
)

// DocSymbol is the type of a symbol's document, every document of the index (queries name
// the type they search: any other matches nothing).
const DocSymbol = "symbol"

// ftTypeField is the mapping's TypeField: the property naming a document's mapping type.
const ftTypeField = "_type"

// Keys of the internal values.
const (
	ftVersionKey = "quarry:version"
	ftMetaPrefix = "quarry:meta:"
)

// Indexing advice, from BenchmarkFulltextIndexCorpus on two cores: batches of about
// BatchDocs documents applied from FulltextApplyWorkers goroutines at once index
// fastest (smaller batches make more segments to build and merge; a third goroutine or more
// persister workers did not help).
const (
	// BatchDocs is the number of documents a batch should hold.
	BatchDocs = 2000
	// FulltextApplyWorkers is the number of goroutines that should fill and apply batches.
	FulltextApplyWorkers = 2
)

// ftLockTimeout is how long opening waits for another process that holds the index open.
const ftLockTimeout = "2s"

// ErrLocked is returned by openFulltext when another process holds the index open.
var ErrLocked = errors.New("index: the full-text index is in use by another process")

// Status tells what openFulltext found.
type Status string

// Statuses of openFulltext. Every status but Ready means the index is empty and the
// caller must fill it from the store.
const (
	Ready   Status = "ready"   // opened an index of the current version
	Created Status = "created" // there was none: created empty
	Stale   Status = "stale"   // built with another version: removed and recreated empty
	Corrupt Status = "corrupt" // could not be opened: removed and recreated empty
	Partial Status = "partial" // a first load into the store did not finish: refilled from the store
)

// String returns the status's name.
func (s Status) String() string { return string(s) }

// SymbolDoc is the full-text document of one symbol.
type SymbolDoc struct {
	ID, Name, Signature, DocComment, CodeBody, Language, Kind, Path string
}

// ftOptions are the choices the mapping and the store are built with. The defaults are
// ftDefaultOptions; benchmarks try others.
type ftOptions struct {
	// lockWait is how long opening for writing waits for another holder of the index (0:
	// ftLockTimeout).
	lockWait    time.Duration
	termVectors map[string]bool // text fields that keep term vectors
	kvconfig    map[string]any  // scorch configuration, kept in the index's meta file
}

var ftDefaultOptions = ftOptions{
	termVectors: map[string]bool{},
}

// Index is an open full-text index. It is safe for concurrent use.
type Index struct {
	idx       bleve.Index // nil while bulk fills it
	bulk      *ftBulk     // a bulk fill under way (bulk.go)
	dir       string
	opts      ftOptions
	reg       *languages.Registry
	closeOnce sync.Once
	closeErr  error

	termsMu sync.Mutex
	terms   map[string]*termIndex // by field: the terms, for words inside terms (termindex.go)
}

// Version changes whenever the mapping, the tokenizer rules or the store's schema
// change; an index built with another version is rebuilt. It is a short hash of the mapping,
// ftMappingVersion, SchemaVersion, the
// tokenizer rules of every language and the tokens of a probe text, so that editing a
// languages/*.toml file invalidates old indexes.
func Version() (string, error) {
	ftDefaultVersion.once.Do(func() { ftDefaultVersion.v, ftDefaultVersion.err = ftVersion(ftDefaultOptions) })
	return ftDefaultVersion.v, ftDefaultVersion.err
}

// ftDefaultVersion is Version, computed once: the embedded rules do not change while
// the process runs, and computing it (the mapping as JSON, the probe through every
// tokenizer) costs 1.4 ms, which every open of an index paid.
var ftDefaultVersion struct {
	once sync.Once
	v    string
	err  error
}

// ftVersion returns the Version of an index built with o.
func ftVersion(o ftOptions) (string, error) {
	reg, err := languages.Default()
	if err != nil {
		return "", fmt.Errorf("index: fulltext version: %w", err)
	}
	return ftVersionOf(reg, o)
}

// ftVersionOf returns the Version of an index built with o for the languages of reg.
func ftVersionOf(reg *languages.Registry, o ftOptions) (string, error) {
	im, err := ftIndexMapping(reg, o)
	if err != nil {
		return "", fmt.Errorf("index: fulltext version: %w", err)
	}
	m, err := json.Marshal(im)
	if err != nil {
		return "", fmt.Errorf("index: fulltext version: %w", err)
	}
	h := sha256.New()
	// The store's schema too: a store of an older schema is emptied (migrate), so its
	// documents must go as well.
	fmt.Fprintf(h, "%s\nschema %d\n%s\n", ftMappingVersion, store.SchemaVersion, m)
	ftHashTokenizer(h, "", nil)
	for _, lang := range reg.All() {
		ftHashTokenizer(h, lang.Name, lang)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// ftProbe is tokenized by every language's tokenizer for Version, so that a change of
// the tokenizer's code that changes what these constructs yield changes the version too.
const ftProbe = "getHTTPResponse XMLParser URLs IUserService user_service_impl is_valid borrow_mut " +
	"try_into __init__ SCREAMING_CASE foo123Bar 42abc v2 Größe ÉCOLE naïve_café ǅemal " +
	"std::io::Read a->b x := <-ch => #[derive] @decorator $var ${x} ?. ?? ... === !== <=> **"

// ftHashTokenizer writes the rules of lang (nil: neutral) and its tokens of ftProbe to h.
func ftHashTokenizer(h hash.Hash, name string, lang *languages.Language) {
	fmt.Fprintf(h, "language %q\n", name)
	if lang != nil {
		fmt.Fprintf(h, "preserve %q\naffixes %q\nstrip_prefixes %q\nstrip_suffixes %q\n",
			lang.Tokenizer.PreservePatterns, lang.Tokenizer.MeaningfulAffixes,
			lang.Variants.StripPrefixes, lang.Variants.StripSuffixes)
	}
	for _, t := range tokenizer.New(lang).Tokenize(ftProbe) {
		fmt.Fprintf(h, "%q %d %d %d %d %d\n", t.Text, t.Start, t.End, t.Pos, t.Kind, t.Atoms)
	}
}

// ftIndexMapping builds the mapping described at the top of this file.
func ftIndexMapping(reg *languages.Registry, o ftOptions) (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	if err := ftAddAnalysis(im, reg); err != nil {
		return nil, err
	}
	im.TypeField = ftTypeField
	im.DefaultAnalyzer = ftNeutralAnalyzer
	im.ScoringModel = bleveindex.BM25Scoring
	im.IndexDynamic, im.StoreDynamic, im.DocValuesDynamic = false, false, false
	im.DefaultMapping = mapping.NewDocumentDisabledMapping()
	langs := append([]string{""}, reg.Names()...)
	for _, lang := range langs {
		analyzer := ftAnalyzerName(lang)
		im.AddDocumentMapping(ftTypeName(DocSymbol, lang), ftSymbolMapping(analyzer, o))
	}
	return im, nil
}

// ftTypeName returns the mapping type of documents of docType in lang ("" when unknown).
func ftTypeName(docType, lang string) string { return docType + "_" + lang }

func ftSymbolMapping(analyzer string, o ftOptions) *mapping.DocumentMapping {
	dm := ftStaticMapping()
	ftAddKeyword(dm, FieldLanguage)
	ftAddKeyword(dm, ftFieldPath)
	ftAddKeyword(dm, ftFieldKind)
	ftAddText(dm, FieldName, analyzer, o)
	ftAddText(dm, FieldSignature, analyzer, o)
	ftAddText(dm, FieldDocComment, analyzer, o)
	ftAddText(dm, FieldCodeBody, analyzer, o)
	return dm
}

// ftStaticMapping returns a document mapping that indexes only the fields added to it and
// keeps them out of the composite _all field.
func ftStaticMapping() *mapping.DocumentMapping {
	dm := mapping.NewDocumentStaticMapping()
	dm.AddSubDocumentMapping("_all", mapping.NewDocumentDisabledMapping())
	return dm
}

func ftAddKeyword(dm *mapping.DocumentMapping, name string) {
	fm := mapping.NewKeywordFieldMapping()
	fm.Analyzer = keyword.Name
	fm.Store, fm.DocValues, fm.IncludeTermVectors, fm.IncludeInAll = false, false, false, false
	dm.AddFieldMappingsAt(name, fm)
}

func ftAddText(dm *mapping.DocumentMapping, name, analyzer string, o ftOptions) {
	fm := mapping.NewTextFieldMapping()
	fm.Analyzer = analyzer
	fm.Store, fm.DocValues, fm.IncludeTermVectors, fm.IncludeInAll = false, false, o.termVectors[name], false
	dm.AddFieldMappingsAt(name, fm)
}

// openFulltext opens the bleve index in dir or creates it; the returned status tells whether
// the caller must (re)fill it from the store (every status but Ready). An index
// that cannot be opened or was built by another Version is removed and recreated
// empty, never served. ErrLocked means another process holds it open.
//
// Ready says nothing about how complete the index is: a caller that fills it in
// several batches records its progress with SetMeta, after the last Apply.
func openFulltext(dir string) (*Index, Status, error) {
	return ftOpen(dir, ftDefaultOptions)
}

// OpenWaiting is openFulltext waiting at most wait (0: ftLockTimeout) for another
// holder of the index.
func OpenWaiting(dir string, wait time.Duration) (*Index, Status, error) {
	o := ftDefaultOptions
	o.lockWait = wait
	return ftOpen(dir, o)
}

func ftOpen(dir string, o ftOptions) (*Index, Status, error) {
	if dir == "" {
		return nil, "", errors.New("index: open fulltext: empty directory name")
	}
	reg, err := languages.Default()
	if err != nil {
		return nil, "", fmt.Errorf("index: open fulltext %s: %w", dir, err)
	}
	version, err := ftVersionOf(reg, o)
	if err != nil {
		return nil, "", err
	}
	idx, status, err := ftOpenExisting(dir, version, o)
	if err != nil {
		return nil, "", err
	}
	if status == Ready {
		return &Index{idx: idx, dir: dir, opts: o, reg: reg}, status, nil
	}
	if status != Created {
		if err := os.RemoveAll(dir); err != nil {
			return nil, "", fmt.Errorf("index: remove %s fulltext %s: %w", status, dir, err)
		}
	}
	idx, err = ftCreate(dir, reg, o, version)
	if err != nil {
		return nil, "", err
	}
	return &Index{idx: idx, dir: dir, opts: o, reg: reg}, status, nil
}

// ftOpenExisting opens the index in dir if it is one of version. Otherwise it returns no
// index and the status dir is in: Created when there is nothing (yet) to remove,
// Stale or Corrupt when there is.
func ftOpenExisting(dir, version string, o ftOptions) (bleve.Index, Status, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), err == nil && len(entries) == 0:
		return nil, Created, nil
	case err != nil:
		return nil, Corrupt, nil // not a directory, or unreadable: RemoveAll decides
	}
	if status, err := ftCheck(dir, version); err != nil || status != Ready {
		return nil, status, err
	}
	wait := ftLockTimeout
	if o.lockWait > 0 {
		wait = o.lockWait.String()
	}
	idx, err := bleve.OpenUsing(dir, map[string]any{"bolt_timeout": wait})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, "", fmt.Errorf("index: open fulltext %s: %w", dir, ErrLocked)
	}
	if err != nil {
		return nil, Corrupt, nil
	}
	return idx, Ready, nil
}

// ftCheck opens the index in dir read-only and tells whether it is whole and of version.
//
// Scorch, finding a snapshot it cannot load (a damaged segment file), silently falls back
// to an older one and later deletes the newer: ftCheck loads the newest snapshot itself
// first, so that such an index is reported corrupt instead of served incomplete. An index
// whose mapping names an analyzer that is no longer registered (a removed language) cannot
// be opened either and counts as corrupt.
func ftCheck(dir, version string) (Status, error) {
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true, "bolt_timeout": ftLockTimeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return "", fmt.Errorf("index: open fulltext %s: %w", dir, ErrLocked)
	}
	if err != nil {
		return Corrupt, nil
	}
	defer idx.Close()
	if !ftNewestSnapshotLoads(idx) {
		return Corrupt, nil
	}
	got, err := idx.GetInternal([]byte(ftVersionKey))
	if err != nil {
		return Corrupt, nil
	}
	if string(got) != version {
		return Stale, nil
	}
	return Ready, nil
}

// ftNewestSnapshotLoads reports whether the newest snapshot scorch persisted in idx can be
// loaded.
func ftNewestSnapshotLoads(idx bleve.Index) bool {
	adv, err := idx.Advanced()
	if err != nil {
		return false
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return false
	}
	epochs, err := s.RootBoltSnapshotEpochs() // newest first
	if err != nil || len(epochs) == 0 {
		return false
	}
	snap, err := s.LoadSnapshot(epochs[0])
	if err != nil || snap == nil {
		return false
	}
	_ = snap.DecRef()
	return true
}

// ftCreate creates an empty index of version in dir.
func ftCreate(dir string, reg *languages.Registry, o ftOptions, version string) (bleve.Index, error) {
	kv := map[string]any{}
	maps.Copy(kv, o.kvconfig)
	im, err := ftIndexMapping(reg, o)
	if err != nil {
		return nil, fmt.Errorf("index: create fulltext %s: %w", dir, err)
	}
	idx, err := bleve.NewUsing(dir, im, scorch.Name, scorch.Name, kv)
	if err != nil {
		return nil, fmt.Errorf("index: create fulltext %s: %w", dir, err)
	}
	if err := idx.SetInternal([]byte(ftVersionKey), []byte(version)); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("index: create fulltext %s: %w", dir, err)
	}
	if err := store.Tighten(dir); err != nil { // bleve's index_meta.json
		_ = idx.Close()
		return nil, err
	}
	return idx, nil
}

// Close closes the index; closing it again does nothing. Every applied batch is already
// on disk.
func (f *Index) Close() error {
	f.closeOnce.Do(func() {
		f.dropBulk() // an unfinished bulk fill: the index stays without its version mark
		if f.idx == nil {
			return
		}
		if err := f.idx.Close(); err != nil {
			f.closeErr = fmt.Errorf("index: close fulltext: %w", err)
		}
	})
	return f.closeErr
}

// bleveIndex returns the underlying index for the search layer.
func (f *Index) bleveIndex() bleve.Index { return f.idx }

// DocCount returns the number of documents of both kinds.
func (f *Index) DocCount() (uint64, error) {
	n, err := f.idx.DocCount()
	if err != nil {
		return 0, fmt.Errorf("index: fulltext doc count: %w", err)
	}
	return n, nil
}

// Symbols returns the number of symbol documents: every document.
func (f *Index) Symbols() (uint64, error) {
	if f.idx == nil {
		return 0, errors.New("index: count full-text documents: the index is being filled in bulk")
	}
	n, err := f.idx.DocCount()
	if err != nil {
		return 0, fmt.Errorf("index: count symbol documents: %w", err)
	}
	return n, nil
}

// SetMeta stores a small value inside the index, such as the store generation it was last
// synchronized with. It is on disk when SetMeta returns.
func (f *Index) SetMeta(key, value string) error {
	if err := f.idx.SetInternal([]byte(ftMetaPrefix+key), []byte(value)); err != nil {
		return fmt.Errorf("index: fulltext set meta %q: %w", key, err)
	}
	return nil
}

// Meta returns the value SetMeta stored under key, or "" if there is none.
func (f *Index) Meta(key string) (string, error) {
	v, err := f.idx.GetInternal([]byte(ftMetaPrefix + key))
	if err != nil {
		return "", fmt.Errorf("index: fulltext meta %q: %w", key, err)
	}
	return string(v), nil
}

// Batch collects additions and deletions for one Apply. Adding a document whose id
// is already in the index replaces it. A batch is not safe for concurrent use.
type Batch struct {
	f    *Index
	b    *bleve.Batch // nil in a bulk fill
	docs []ftBulkDoc  // a bulk fill's additions
	err  error        // the first error of an Add, reported by Apply
}

// ftBulkDoc is a document for the builder of a bulk fill.
type ftBulkDoc struct {
	id  string
	doc any
}

// NewBatch returns an empty batch for f.
func (f *Index) NewBatch() *Batch {
	if f.bulk != nil {
		return &Batch{f: f}
	}
	return &Batch{f: f, b: f.idx.NewBatch()}
}

// AddSymbol adds (or replaces) the document of a symbol.
func (b *Batch) AddSymbol(d SymbolDoc) {
	lang, field := b.f.language(d.Language)
	doc := &ftSymbolDocument{
		Type:       ftTypeName(DocSymbol, lang),
		Language:   field,
		Path:       d.Path,
		Kind:       d.Kind,
		Name:       d.Name,
		Signature:  d.Signature,
		DocComment: d.DocComment,
		CodeBody:   d.CodeBody,
	}
	b.add(store.SymbolDocID(d.ID), doc)
}

func (b *Batch) add(id string, doc any) {
	if b.b == nil {
		b.docs = append(b.docs, ftBulkDoc{bleveID(id), doc})
		return
	}
	if err := b.b.Index(bleveID(id), doc); err != nil && b.err == nil {
		b.err = fmt.Errorf("index: fulltext add %s: %w", id, err)
	}
}

// Delete removes the document with the id docID (from symbolDocID or fileDocID). In a bulk
// fill, which starts empty and adds every document once, there is nothing to delete.
func (b *Batch) Delete(docID string) {
	if b.b != nil {
		b.b.Delete(bleveID(docID))
	}
}

// Size returns the number of additions and deletions in the batch.
func (b *Batch) Size() int {
	if b.b == nil {
		return len(b.docs)
	}
	return b.b.Size()
}

// Apply writes the batch to the index and empties it, so it can be filled again. The
// changes are on disk when Apply returns. A batch one of whose additions failed is not
// applied at all. Several goroutines may Apply batches at once (see FulltextApplyWorkers);
// their order is then undefined, so a document id should not be in two of them.
func (f *Index) Apply(b *Batch) error {
	defer b.reset()
	if b.err != nil {
		return b.err
	}
	if b.b == nil {
		if f.bulk == nil {
			return errors.New("index: fulltext apply: a bulk batch after the bulk fill ended")
		}
		return f.bulkAdd(b)
	}
	if err := f.idx.Batch(b.b); err != nil {
		return fmt.Errorf("index: fulltext apply %d changes: %w", b.b.Size(), err)
	}
	return nil
}

// reset empties b with a new bleve batch: the old one's map may still be read by the
// goroutine bleve's Batch queued its documents from (it can outlive the call), so it is
// left to it rather than cleared.
func (b *Batch) reset() {
	if b.b == nil {
		b.docs = nil
	} else {
		b.b = b.f.idx.NewBatch()
	}
	b.err = nil
}

// language resolves the language named name: it returns its canonical name ("" if it is
// unknown) and the value of the language field (the canonical name, or name as given).
func (f *Index) language(name string) (known, field string) {
	if l, ok := f.reg.Lookup(name); ok {
		return l.Name, l.Name
	}
	return "", name
}

// ftSymbolDocument is what bleve's mapping walks for a symbol; the json names are the
// field names. Type is the mapping type; it is not indexed.
type ftSymbolDocument struct {
	Type       string `json:"_type"`
	Language   string `json:"language"`
	Path       string `json:"path"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Signature  string `json:"signature"`
	DocComment string `json:"doc_comment"`
	CodeBody   string `json:"code_body"`
}

// BleveType returns the document's mapping type (bleve's classifier interface).
func (d *ftSymbolDocument) BleveType() string { return d.Type }
