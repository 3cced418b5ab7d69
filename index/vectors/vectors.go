package vectors

// Symbol vectors: Quarry's code-search model (package codemodel, built into the binary)
// gives every function, method and type a code vector (the words of its name, signature and
// the identifiers its body uses, through the model's code encoder) and, when it has a doc
// comment, a doc vector (the comment through the query encoder, so that a question meets
// the comment that says the same in other words). They are stored per file in
// symbol_vectors with the content hash they were made from; vec_model names the model that
// made them, and another model (a new build) makes them all again. An index run ends with
// Set.Refresh: it embeds the files whose vectors are missing or older than their content and
// drops the vectors of files gone. With an external embedder configured, its vectors take
// the place of the model's (embedder.go).

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/codemodel"
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/tokenizer"
)

// Set is the symbol vectors of one store: refreshed at the end of an index run, searched by
// a request's Vector.
type Set struct{ *store.Store }

// Of returns the vector set of the store s.
func Of(s *store.Store) Set { return Set{s} }

// Stored forms.
const (
	// vectorsFormat is the meta key vectors_format's value for the layout of
	// symbol_vectors' blobs (appendEntry); vectors of another layout are made again.
	vectorsFormat = "2"
	// modelFormat starts the vec_model row of vectors made by the shipped model (its id
	// follows).
	modelFormat = "QCM1"
	// extModelFormat starts a model row that names an external embedder (JSON after it).
	extModelFormat = "EXT1"
)

// modelRow is the vec_model row of vectors the model m made.
func modelRow(m *codemodel.Model) string { return modelFormat + m.ID() }

// Entry flags: which vectors a symbol's entry holds.
const (
	entryCode = 1 << iota // the code vector (or the external embedder's vector)
	entryDoc              // the doc comment's vector, through the query encoder
)

// vecKind reports whether symbols of kind get a vector: functions, methods and types.
func vecKind(kind string) bool {
	k, ok := extract.KindNamed(kind)
	return ok && (k.IsCallable() || k.IsType())
}

// Stats says what Set.Refresh did.
type Stats struct {
	Embedder   string `json:"embedder" jsonschema:"where the vectors come from: Quarry's code-search model (its id) or the external embedder's model and URL"`
	Error      string `json:"error,omitempty" jsonschema:"what went wrong with the external embedder: the definitions it did not embed have no vector (missing)"`
	Missing    int    `json:"missing,omitempty" jsonschema:"symbols of the files the external embedder's failure left without vectors"`
	Reembedded bool   `json:"reembedded,omitempty" jsonschema:"every vector was made again: the model (or the embedder, or the stored layout) changed since they were made"`
	Files      int    `json:"files" jsonschema:"files whose definitions were embedded by this run"`
	Symbols    int    `json:"symbols" jsonschema:"definitions embedded by this run"`
	Vectored   int    `json:"vectored" jsonschema:"definitions with a vector in all"`
}

// Refresh brings the symbol vectors up to date (see the file's comment).
func (s Set) Refresh(ctx context.Context, ext *Embedder) (Stats, error) {
	var st Stats
	if err := s.checkFormat(ctx, &st); err != nil {
		return st, err
	}
	stored, err := s.storedModel(ctx)
	if err != nil {
		return st, err
	}
	if ext != nil {
		return s.refreshExternal(ctx, ext, stored, st)
	}
	// The model is decoded only when there is something to embed: a re-index that changed
	// no definition reads its id alone.
	id := codemodel.ShippedID()
	st.Embedder = "quarry code model " + id
	want := []byte(modelFormat + id)
	if !bytes.Equal(stored, want) {
		// Another model's vectors (or none): every one is made again.
		st.Reembedded = st.Reembedded || stored != nil
		if _, err := s.DB().ExecContext(ctx, `DELETE FROM symbol_vectors`); err != nil {
			return st, err
		}
		if _, err := s.DB().ExecContext(ctx, `INSERT OR REPLACE INTO vec_model(id, trained_on, data) VALUES(1, 0, ?)`, want); err != nil {
			return st, err
		}
	}
	// The vectors were checked against every stored file at the store's generation: with
	// no batch committed since (a re-index that changed nothing), none can be stale, and
	// the check, which reads a row of every file (a quarter of a second on corpus.sh full),
	// is left out.
	gen, err := s.Generation(ctx)
	if err != nil {
		return st, err
	}
	checked := fmt.Sprintf("%s@%d", want, gen)
	if bytes.Equal(stored, want) {
		if prev, err := s.Meta(metaVectorsChecked); err == nil && prev == checked {
			return st, s.count(ctx, &st)
		}
	}
	stale, err := s.staleVectorFiles(ctx)
	if err != nil {
		return st, err
	}
	if len(stale) > 0 {
		m, err := codemodel.Shipped()
		if err != nil {
			return st, fmt.Errorf("index: the code-search model built into quarry: %w", err)
		}
		if err := s.embedFiles(ctx, m, stale, &st); err != nil {
			return st, err
		}
	}
	if err := s.finish(ctx, &st, len(stale) > 0 || !bytes.Equal(stored, want)); err != nil {
		return st, err
	}
	return st, s.SetMeta(metaVectorsChecked, checked)
}

// metaVectorsChecked is the meta key of the model row and store generation at which the
// vectors were last checked against every stored file.
const metaVectorsChecked = "vectors_checked"

// count counts the vectored symbols.
func (s Set) count(ctx context.Context, st *Stats) error {
	return s.DB().QueryRowContext(ctx, `SELECT COALESCE(SUM(count), 0) FROM symbol_vectors`).Scan(&st.Vectored)
}

// finish drops the vectors of files gone, counts a change of the vectors (changed, or
// some dropped) and counts the vectored symbols.
func (s Set) finish(ctx context.Context, st *Stats, changed bool) error {
	gone, err := s.dropGoneVectors(ctx)
	if err != nil {
		return err
	}
	if changed || gone {
		if err := s.bumpVectors(ctx); err != nil {
			return err
		}
	}
	return s.count(ctx, st)
}

// checkFormat makes the stored vectors of another layout (an older Quarry's) go: they are
// made again by this run.
func (s Set) checkFormat(ctx context.Context, st *Stats) error {
	f, err := s.Meta("vectors_format")
	if err != nil || f == vectorsFormat {
		return err
	}
	var n int
	if err := s.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM vec_model`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		st.Reembedded = true
		if err := s.dropVectors(ctx); err != nil {
			return err
		}
	}
	_, err = s.DB().ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('vectors_format', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, vectorsFormat)
	return err
}

// dropGoneVectors deletes the vectors of files no longer stored, reporting whether there
// were any.
func (s Set) dropGoneVectors(ctx context.Context) (bool, error) {
	res, err := s.DB().ExecContext(ctx, `DELETE FROM symbol_vectors WHERE file NOT IN (SELECT id FROM files)`)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// vecFile is a file whose vectors are to be made.
type vecFile struct {
	id      int64
	path    string
	hash    string
	symbols int
}

// staleVectorFiles returns the files with symbols whose vectors are missing or older than
// their content.
func (s Set) staleVectorFiles(ctx context.Context) ([]vecFile, error) {
	rows, err := s.DB().QueryContext(ctx, `SELECT f.id, f.path, f.hash, f.symbol_count FROM files f LEFT JOIN symbol_vectors v ON v.file = f.id
		WHERE f.skipped = '' AND f.symbol_count > 0 AND (v.hash IS NULL OR v.hash != f.hash) ORDER BY f.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []vecFile
	for rows.Next() {
		var f vecFile
		if err := rows.Scan(&f.id, &f.path, &f.hash, &f.symbols); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// vecSym is a symbol as vectors read it.
type vecSym struct {
	id, name, kind, sig, doc string
	sb, eb                   int
}

// body returns the symbol's source when it is a callable's (what its body says counts),
// else "".
func (x vecSym) body(content []byte) string {
	if k, _ := extract.KindNamed(x.kind); k.IsCallable() && x.sb >= 0 && x.sb < x.eb && x.eb <= len(content) {
		return string(content[x.sb:x.eb])
	}
	return ""
}

// fileSymbols returns the symbols of a file that get a vector.
func (s Set) fileSymbols(ctx context.Context, f vecFile) ([]vecSym, error) {
	rows, err := s.DB().QueryContext(ctx, `SELECT id, name, kind, signature, doc_comment, start_byte, end_byte FROM symbols WHERE file = ? ORDER BY start_byte`, f.id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var syms []vecSym
	for rows.Next() {
		var x vecSym
		if err := rows.Scan(&x.id, &x.name, &x.kind, &x.sig, &x.doc, &x.sb, &x.eb); err != nil {
			return nil, err
		}
		if vecKind(x.kind) {
			syms = append(syms, x)
		}
	}
	return syms, rows.Err()
}

// bodyNames returns, for each of syms (sorted by start), the names of the identifiers its
// span holds, in order, from the file's stored identifiers.
func (s Set) bodyNames(ctx context.Context, f vecFile, syms []vecSym) ([][]string, error) {
	var blob []byte
	err := s.DB().QueryRowContext(ctx, `SELECT data FROM identifiers WHERE file = ?`, f.id).Scan(&blob)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	type use struct {
		at   int
		name string
	}
	var uses []use
	if err := store.DecodeIdents(blob, nil, func(x extract.Identifier) bool {
		uses = append(uses, use{x.StartByte, x.Name})
		return true
	}); err != nil {
		return nil, err
	}
	slices.SortStableFunc(uses, func(a, b use) int { return cmp.Compare(a.at, b.at) })
	out := make([][]string, len(syms))
	for i, x := range syms {
		j, _ := slices.BinarySearchFunc(uses, x.sb, func(u use, at int) int { return cmp.Compare(u.at, at) })
		for ; j < len(uses) && uses[j].at < x.eb; j++ {
			out[i] = append(out[i], uses[j].name)
		}
	}
	return out, nil
}

// eachFile calls fn for each of files on every core (fn runs on several goroutines at
// once), stopping at the first error.
func eachFile(ctx context.Context, files []vecFile, fn func(i int) error) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// words is the tokenizer that splits text into the atoms the model reads.
var words = tokenizer.New(nil)

// atoms returns text's tokenizer atoms.
func atoms(text string) []string { return words.Atoms(nil, text) }

// embedSymbols returns the blob of a file's entries (appendEntry) made by m, and how many
// symbols it holds.
func embedSymbols(m *codemodel.Model, syms []vecSym, body [][]string) ([]byte, int) {
	var b []byte
	n := 0
	for i, x := range syms {
		code := m.EncodeCode(atoms(x.name), atoms(x.sig), codemodel.BodyWords(body[i], atoms))
		var doc []float32
		if strings.TrimSpace(x.doc) != "" {
			doc = m.EncodeQuery(atoms(x.doc))
		}
		if code == nil && doc == nil {
			continue
		}
		b = appendEntry(b, x.id, code, doc)
		n++
	}
	return b, n
}

// appendEntry appends a symbol's entry: the id's length and bytes, a flags byte (entryCode,
// entryDoc), then each vector present as its float32 scale and int8 values.
func appendEntry(b []byte, id string, code, doc []float32) []byte {
	b = append(b, byte(len(id)))
	b = append(b, id...)
	flags := byte(0)
	if code != nil {
		flags |= entryCode
	}
	if doc != nil {
		flags |= entryDoc
	}
	b = append(b, flags)
	for _, v := range [][]float32{code, doc} {
		if v == nil {
			continue
		}
		q, scale := codemodel.Quantize(v)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(scale))
		for _, x := range q {
			b = append(b, byte(x))
		}
	}
	return b
}

// embedFiles embeds the symbols of files by m and stores their vectors, a file's in one row.
func (s Set) embedFiles(ctx context.Context, m *codemodel.Model, files []vecFile, st *Stats) error {
	const batch = 2000
	for start := 0; start < len(files); start += batch {
		part := files[start:min(len(files), start+batch)]
		blobs := make([][]byte, len(part))
		counts := make([]int, len(part))
		err := eachFile(ctx, part, func(i int) error {
			syms, err := s.fileSymbols(ctx, part[i])
			if err != nil || len(syms) == 0 {
				return err
			}
			body, err := s.bodyNames(ctx, part[i], syms)
			if err != nil {
				return err
			}
			blobs[i], counts[i] = embedSymbols(m, syms, body)
			return nil
		})
		if err != nil {
			return err
		}
		if err := s.storeBlobs(ctx, part, blobs, counts, st); err != nil {
			return err
		}
	}
	return nil
}

// storeBlobs writes the vectors of files in one transaction.
func (s Set) storeBlobs(ctx context.Context, files []vecFile, blobs [][]byte, counts []int, st *Stats) error {
	tx, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for i, f := range files {
		if blobs[i] == nil {
			blobs[i] = []byte{} // a file without a symbol to embed: done all the same
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO symbol_vectors(file, hash, count, data) VALUES(?, ?, ?, ?)`, f.id, f.hash, counts[i], blobs[i]); err != nil {
			tx.Rollback()
			return err
		}
		st.Symbols += counts[i]
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	st.Files += len(files)
	return nil
}

// dropVectors removes the model row and every vector.
func (s Set) dropVectors(ctx context.Context) error {
	if _, err := s.DB().ExecContext(ctx, `DELETE FROM symbol_vectors`); err != nil {
		return err
	}
	if _, err := s.DB().ExecContext(ctx, `DELETE FROM vec_model`); err != nil {
		return err
	}
	return s.bumpVectors(ctx)
}

// bumpVectors counts a change of the vectors (vecCache reads them again).
func (s Set) bumpVectors(ctx context.Context) error {
	_, err := s.DB().ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('vectors_version', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`)
	return err
}

// storedModel returns the stored model row (nil: none).
func (s Set) storedModel(ctx context.Context) ([]byte, error) {
	var data []byte
	err := s.DB().QueryRowContext(ctx, `SELECT data FROM vec_model WHERE id = 1`).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) || err != nil && strings.Contains(err.Error(), "no such table") { // a read-only store of before
		return nil, nil
	}
	return data, err
}

// externalModel is the model row of vectors made by an external embedder.
type externalModel struct {
	URL       string `json:"url"`
	Model     string `json:"model"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	Dim       int    `json:"dim"`
}

// external returns the external embedder a model row names, nil when it names none.
func external(row []byte) (*externalModel, error) {
	if !bytes.HasPrefix(row, []byte(extModelFormat)) {
		return nil, nil
	}
	var m externalModel
	if err := json.Unmarshal(row[len(extModelFormat):], &m); err != nil {
		return nil, errors.New("index: the vector model row is damaged: re-index with --force")
	}
	return &m, nil
}

// refreshExternal makes the missing vectors with an external embedder: the texts of the
// stale files' definitions, from the cache when it has them, else from the endpoint in
// batches. A failure of the endpoint stops it without failing the run: the stats say what
// is missing.
func (s Set) refreshExternal(ctx context.Context, ext *Embedder, row []byte, st Stats) (Stats, error) {
	st.Embedder = ext.Model + " at " + ext.URL
	stored, err := external(row)
	if err != nil {
		return st, err
	}
	reset := false
	if stored == nil || stored.URL != ext.URL || stored.Model != ext.Model {
		// Another source's vectors: all are made again (the cache keeps what this model
		// embedded before).
		reset, st.Reembedded = true, st.Reembedded || row != nil
		if _, err := s.DB().ExecContext(ctx, `DELETE FROM symbol_vectors`); err != nil {
			return st, err
		}
		if _, err := s.DB().ExecContext(ctx, `DELETE FROM vec_model`); err != nil {
			return st, err
		}
		stored = nil
	}
	stale, err := s.staleVectorFiles(ctx)
	if err != nil {
		return st, err
	}
	dim := 0
	if stored != nil {
		dim = stored.Dim
	}
	const batch = 500
	for start := 0; start < len(stale); start += batch {
		part := stale[start:min(len(stale), start+batch)]
		ids := make([][]string, len(part))
		texts := make([][]string, len(part))
		err := eachFile(ctx, part, func(i int) error {
			syms, err := s.fileSymbols(ctx, part[i])
			if err != nil || len(syms) == 0 {
				return err
			}
			content, err := s.Content(ctx, part[i].path)
			if err != nil {
				return err
			}
			for _, x := range syms {
				ids[i] = append(ids[i], x.id)
				texts[i] = append(texts[i], embedText(x.name, x.sig, x.doc, x.body(content)))
			}
			return nil
		})
		if err != nil {
			return st, err
		}
		vecs, err := s.cachedEmbed(ctx, ext, texts)
		if errors.Is(err, ErrEmbedder) {
			st.Error = err.Error()
			for _, f := range stale[start:] {
				st.Missing += f.symbols
			}
			break
		}
		if err != nil {
			return st, err
		}
		blobs := make([][]byte, len(part))
		counts := make([]int, len(part))
		for i := range part {
			for j, v := range vecs[i] {
				if dim == 0 {
					dim = len(v)
				}
				if len(v) != dim {
					return st, fmt.Errorf("%w: %s gave vectors of %d and %d dimensions", ErrEmbedder, ext.URL, dim, len(v))
				}
				blobs[i] = appendEntry(blobs[i], ids[i][j], v, nil)
			}
			counts[i] = len(vecs[i])
		}
		if stored == nil && dim > 0 {
			desc, _ := json.Marshal(externalModel{URL: ext.URL, Model: ext.Model, APIKeyEnv: ext.APIKeyEnv, Dim: dim})
			if _, err := s.DB().ExecContext(ctx, `INSERT OR REPLACE INTO vec_model(id, trained_on, data) VALUES(1, 0, ?)`, append([]byte(extModelFormat), desc...)); err != nil {
				return st, err
			}
			stored = &externalModel{URL: ext.URL, Model: ext.Model, Dim: dim}
		}
		if err := s.storeBlobs(ctx, part, blobs, counts, &st); err != nil {
			return st, err
		}
	}
	return st, s.finish(ctx, &st, st.Files > 0 || reset)
}

// cachedEmbed returns the vectors of texts (by file), from the cache of what ext's model
// embedded before, asking the endpoint for the rest (and caching them).
func (s Set) cachedEmbed(ctx context.Context, ext *Embedder, texts [][]string) ([][][]float32, error) {
	out := make([][][]float32, len(texts))
	type miss struct{ i, j int }
	var misses []miss
	var missTexts []string
	lookup, err := s.Stmt(ctx, `SELECT vec FROM embed_cache WHERE key = ?`)
	if err != nil {
		return nil, err
	}
	for i, ts := range texts {
		out[i] = make([][]float32, len(ts))
		for j, t := range ts {
			var blob []byte
			err := lookup.QueryRowContext(ctx, embedKey(ext.Model, t)).Scan(&blob)
			switch {
			case err == nil && len(blob)%4 == 0 && len(blob) > 0:
				v := make([]float32, len(blob)/4)
				for k := range v {
					v[k] = math.Float32frombits(binary.LittleEndian.Uint32(blob[k*4:]))
				}
				out[i][j] = v
			case err == nil || errors.Is(err, sql.ErrNoRows):
				misses = append(misses, miss{i, j})
				missTexts = append(missTexts, t)
			default:
				return nil, err
			}
		}
	}
	if len(missTexts) == 0 {
		return out, nil
	}
	vecs, err := ext.Embed(ctx, missTexts)
	if err != nil {
		return nil, err
	}
	tx, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	for k, m := range misses {
		out[m.i][m.j] = vecs[k]
		blob := make([]byte, 4*len(vecs[k]))
		for d, x := range vecs[k] {
			binary.LittleEndian.PutUint32(blob[d*4:], math.Float32bits(x))
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO embed_cache(key, vec) VALUES(?, ?)`, embedKey(ext.Model, missTexts[k]), blob); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	return out, tx.Commit()
}
