package vectors

// Symbol vectors: a model of word vectors learned from the workspace's own code (package
// embed), stored in vec_model, and one vector per function, method and type, stored per
// file in symbol_vectors with the content hash it was made from. An index run ends with
// Set.Refresh: it learns the model again when there is none or the code changed too much
// since, embeds the files whose vectors are missing or older than their content, and drops
// the vectors of files gone. Set.Search scans them all (bytes, one dot product each).

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/embed"
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
)

// Set is the symbol vectors of one store: refreshed at the end of an index run, searched by
// a request's Vector.
type Set struct{ *store.Store }

// Of returns the vector set of the store s.
func Of(s *store.Store) Set { return Set{s} }

// Vector settings.
const (
	// maxTrainSymbols bounds the symbols a model learns from: a sample of the files beyond
	// it (the model learns word statistics; more symbols cost time, not much quality).
	maxTrainSymbols = 150_000
	// retrainDrift is the share of vectored symbols new since the model was learned beyond
	// which it is learned again.
	retrainDrift = 0.3
	// vecModelFormat marks the model blob's layout.
	vecModelFormat = "QVM1"
)

// vecKind reports whether symbols of kind get a vector: functions, methods and types.
func vecKind(kind string) bool {
	k, ok := extract.KindNamed(kind)
	return ok && (k.IsCallable() || k.IsType())
}

// Stats says what Set.Refresh did.
type Stats struct {
	Embedder string `json:"embedder" jsonschema:"where the vectors come from: learned (from the code) or the external embedder's model and URL"`
	Error    string `json:"error,omitempty" jsonschema:"what went wrong with the external embedder: the definitions it did not embed have no vector (missing)"`
	Missing  int    `json:"missing,omitempty" jsonschema:"symbols of the files the external embedder's failure left without vectors"`
	Trained  bool   `json:"trained" jsonschema:"the model of word vectors was learned (again) from the code"`
	Words    int    `json:"words" jsonschema:"words with a vector"`
	Files    int    `json:"files" jsonschema:"files whose definitions were embedded by this run"`
	Symbols  int    `json:"symbols" jsonschema:"definitions embedded by this run"`
	Vectored int    `json:"vectored" jsonschema:"definitions with a vector in all"`
}

// Refresh brings the symbol vectors up to date (see the file's comment).
func (s Set) Refresh(ctx context.Context, ext *Embedder) (Stats, error) {
	var st Stats
	stored, err := s.storedExternal(ctx)
	if err != nil {
		return st, err
	}
	if ext != nil {
		return s.refreshExternal(ctx, ext, stored)
	}
	if stored != nil { // the vectors were an external embedder's: learned ones replace them
		if err := s.dropVectors(ctx); err != nil {
			return st, err
		}
	}
	st.Embedder = "learned"
	model, trainedOn, err := s.vecModel(ctx)
	if err != nil {
		return st, err
	}
	stale, err := s.staleVectorFiles(ctx)
	if err != nil {
		return st, err
	}
	total, err := s.vecSymbolCount(ctx)
	if err != nil {
		return st, err
	}
	newSyms := 0
	for _, f := range stale {
		newSyms += f.symbols
	}
	if model == nil || total > 0 && (float64(newSyms) > retrainDrift*float64(total) || math.Abs(float64(total-trainedOn)) > retrainDrift*float64(total)) {
		if total == 0 {
			return st, s.dropVectors(ctx)
		}
		if model, err = s.trainVectors(ctx, total); err != nil {
			return st, err
		}
		st.Trained = true
		if _, err := s.DB().ExecContext(ctx, `DELETE FROM symbol_vectors`); err != nil {
			return st, err
		}
		if stale, err = s.staleVectorFiles(ctx); err != nil {
			return st, err
		}
	}
	st.Words = len(model.Words)
	if err := s.embedFiles(ctx, model, stale, &st); err != nil {
		return st, err
	}
	gone, err := s.dropGoneVectors(ctx)
	if err != nil {
		return st, err
	}
	if len(stale) > 0 || st.Trained || gone {
		if err := s.bumpVectors(ctx); err != nil {
			return st, err
		}
	}
	err = s.DB().QueryRowContext(ctx, `SELECT COALESCE(SUM(count), 0) FROM symbol_vectors`).Scan(&st.Vectored)
	return st, err
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
	return s.vectorFiles(ctx, `SELECT f.id, f.path, f.hash, f.symbol_count FROM files f LEFT JOIN symbol_vectors v ON v.file = f.id
		WHERE f.skipped = '' AND f.symbol_count > 0 AND (v.hash IS NULL OR v.hash != f.hash) ORDER BY f.id`)
}

// vectorFiles returns the files a query of id, path, hash and symbol count lists.
func (s Set) vectorFiles(ctx context.Context, query string) ([]vecFile, error) {
	rows, err := s.DB().QueryContext(ctx, query)
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

// vecSymbolCount returns how many symbols the store holds (of every kind: the measure of
// drift, read from the files' rows, not the symbols').
func (s Set) vecSymbolCount(ctx context.Context) (int, error) {
	var n int
	err := s.DB().QueryRowContext(ctx, `SELECT COALESCE(SUM(symbol_count), 0) FROM files WHERE skipped = ''`).Scan(&n)
	return n, err
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

// fileSymbols returns the symbols of a file that get a vector (all: every symbol, what a
// model learns from) and the file's content.
func (s Set) fileSymbols(ctx context.Context, f vecFile, all bool) ([]vecSym, []byte, error) {
	rows, err := s.DB().QueryContext(ctx, `SELECT id, name, kind, signature, doc_comment, start_byte, end_byte FROM symbols WHERE file = ? ORDER BY start_byte`, f.id)
	if err != nil {
		return nil, nil, err
	}
	var syms []vecSym
	for rows.Next() {
		var x vecSym
		if err := rows.Scan(&x.id, &x.name, &x.kind, &x.sig, &x.doc, &x.sb, &x.eb); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if all || vecKind(x.kind) {
			syms = append(syms, x)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(syms) == 0 {
		return nil, nil, err
	}
	content, err := s.Content(ctx, f.path)
	return syms, content, err
}

// trainVectors learns the model from a sample of the files (every k-th, so that about
// maxTrainSymbols symbols are read) and stores it.
func (s Set) trainVectors(ctx context.Context, total int) (*embed.Model, error) {
	files, err := s.staleVectorFilesAll(ctx)
	if err != nil {
		return nil, err
	}
	step := max(1, int(math.Ceil(float64(total)/maxTrainSymbols)))
	var sample []vecFile
	for i := 0; i < len(files); i += step {
		sample = append(sample, files[i])
	}
	docs, err := s.readFields(ctx, sample)
	if err != nil {
		return nil, err
	}
	m := embed.Train(func(yield func(words, anchors []string)) {
		for _, fs := range docs {
			for _, f := range fs {
				yield(f.All(), f.Name)
			}
		}
	}, embed.DefaultOptions)
	words, prob, vecs := m.Quantized()
	var b bytes.Buffer
	b.WriteString(vecModelFormat)
	binary.Write(&b, binary.LittleEndian, uint16(m.Dim))
	binary.Write(&b, binary.LittleEndian, uint32(len(words)))
	b.WriteString(strings.Join(words, "\x00"))
	b.WriteByte(0)
	binary.Write(&b, binary.LittleEndian, prob)
	binary.Write(&b, binary.LittleEndian, vecs)
	if _, err := s.DB().ExecContext(ctx, `INSERT OR REPLACE INTO vec_model(id, trained_on, data) VALUES(1, ?, ?)`, total, b.Bytes()); err != nil {
		return nil, err
	}
	return embed.Load(m.Dim, words, prob, vecs), nil
}

// staleVectorFilesAll returns every file with symbols (for a model learned again).
func (s Set) staleVectorFilesAll(ctx context.Context) ([]vecFile, error) {
	return s.vectorFiles(ctx, `SELECT id, path, hash, symbol_count FROM files WHERE skipped = '' AND symbol_count > 0 ORDER BY id`)
}

// readFields reads the words of every symbol of files, on every core, in the files' order.
func (s Set) readFields(ctx context.Context, files []vecFile) ([][]embed.Fields, error) {
	out := make([][]embed.Fields, len(files))
	err := s.eachFile(ctx, files, true, func(i int, _ []string, fields []embed.Fields) error {
		out[i] = fields
		return nil
	})
	return out, err
}

// eachFile reads the symbol words of each file on every core (all: of every symbol, else
// of those that get a vector) and calls fn with them (fn runs on several goroutines at once).
func (s Set) eachFile(ctx context.Context, files []vecFile, all bool, fn func(i int, ids []string, fields []embed.Fields) error) error {
	return s.eachFileRaw(ctx, files, all, func(i int, syms []vecSym, content []byte) error {
		ids := make([]string, len(syms))
		fields := make([]embed.Fields, len(syms))
		for j, x := range syms {
			ids[j], fields[j] = x.id, embed.FieldsOf(x.name, x.sig, x.doc, x.body(content))
		}
		return fn(i, ids, fields)
	})
}

// eachFileRaw reads the symbols and content of each file on every core and calls fn with
// them (fn runs on several goroutines at once).
func (s Set) eachFileRaw(ctx context.Context, files []vecFile, all bool, fn func(i int, syms []vecSym, content []byte) error) error {
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
				syms, content, err := s.fileSymbols(ctx, files[i], all)
				if err == nil {
					err = fn(i, syms, content)
				}
				if err != nil {
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

// embedFiles embeds the symbols of files and stores their vectors, a file's in one row.
func (s Set) embedFiles(ctx context.Context, m *embed.Model, files []vecFile, st *Stats) error {
	const batch = 2000
	for start := 0; start < len(files); start += batch {
		part := files[start:min(len(files), start+batch)]
		blobs := make([][]byte, len(part))
		counts := make([]int, len(part))
		err := s.eachFile(ctx, part, false, func(i int, ids []string, fields []embed.Fields) error {
			var b bytes.Buffer
			for j, f := range fields {
				v := m.EmbedSymbol(f)
				if v == nil {
					continue
				}
				b.WriteByte(byte(len(ids[j])))
				b.WriteString(ids[j])
				q := embed.Quantize(v)
				for _, x := range q {
					b.WriteByte(byte(x))
				}
				counts[i]++
			}
			blobs[i] = b.Bytes()
			return nil
		})
		if err != nil {
			return err
		}
		tx, err := s.DB().BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for i, f := range part {
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
		st.Files += len(part)
	}
	return nil
}

// dropVectors removes the model and every vector (a store without symbols).
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

// vecModel returns the stored model (nil: none) and how many symbols it was learned on.
func (s Set) vecModel(ctx context.Context) (*embed.Model, int, error) {
	var trainedOn int
	var data []byte
	err := s.DB().QueryRowContext(ctx, `SELECT trained_on, data FROM vec_model WHERE id = 1`).Scan(&trainedOn, &data)
	if errors.Is(err, sql.ErrNoRows) || err != nil && strings.Contains(err.Error(), "no such table") { // a read-only store of before
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	m, err := decodeVecModel(data)
	return m, trainedOn, err
}

// extModelFormat marks a model row that names an external embedder (JSON after it).
const extModelFormat = "EXT1"

// externalModel is the model row of vectors made by an external embedder.
type externalModel struct {
	URL       string `json:"url"`
	Model     string `json:"model"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	Dim       int    `json:"dim"`
}

// storedExternal returns the external embedder the stored vectors come from, nil when they
// are learned (or there are none).
func (s Set) storedExternal(ctx context.Context) (*externalModel, error) {
	var data []byte
	err := s.DB().QueryRowContext(ctx, `SELECT data FROM vec_model WHERE id = 1`).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) || err != nil && strings.Contains(err.Error(), "no such table") {
		return nil, nil
	}
	if err != nil || !bytes.HasPrefix(data, []byte(extModelFormat)) {
		return nil, err
	}
	var m externalModel
	if err := json.Unmarshal(data[len(extModelFormat):], &m); err != nil {
		return nil, errors.New("index: the vector model is damaged: re-index with --force")
	}
	return &m, nil
}

// refreshExternal makes the missing vectors with an external embedder: the texts of the
// stale files' definitions, from the cache when it has them, else from the endpoint in
// batches. A failure of the endpoint stops it without failing the run: the stats say what
// is missing.
func (s Set) refreshExternal(ctx context.Context, ext *Embedder, stored *externalModel) (Stats, error) {
	st := Stats{Embedder: ext.Model + " at " + ext.URL}
	reset := false
	if stored == nil || stored.URL != ext.URL || stored.Model != ext.Model {
		reset = true
		// Another source's vectors: all are made again (the cache keeps what this model
		// embedded before).
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
		err := s.eachFileTexts(ctx, part, func(i int, fid []string, ftext []string) error {
			ids[i], texts[i] = fid, ftext
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
		tx, err := s.DB().BeginTx(ctx, nil)
		if err != nil {
			return st, err
		}
		for i, f := range part {
			var b bytes.Buffer
			for j, v := range vecs[i] {
				if dim == 0 {
					dim = len(v)
				}
				if len(v) != dim {
					tx.Rollback()
					return st, fmt.Errorf("%w: %s gave vectors of %d and %d dimensions", ErrEmbedder, ext.URL, dim, len(v))
				}
				b.WriteByte(byte(len(ids[i][j])))
				b.WriteString(ids[i][j])
				for _, x := range embed.Quantize(v) {
					b.WriteByte(byte(x))
				}
			}
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO symbol_vectors(file, hash, count, data) VALUES(?, ?, ?, ?)`, f.id, f.hash, len(vecs[i]), append([]byte{}, b.Bytes()...)); err != nil {
				tx.Rollback()
				return st, err
			}
			st.Symbols += len(vecs[i])
		}
		if stored == nil && dim > 0 {
			desc, _ := json.Marshal(externalModel{URL: ext.URL, Model: ext.Model, APIKeyEnv: ext.APIKeyEnv, Dim: dim})
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO vec_model(id, trained_on, data) VALUES(1, 0, ?)`, append([]byte(extModelFormat), desc...)); err != nil {
				tx.Rollback()
				return st, err
			}
			stored = &externalModel{URL: ext.URL, Model: ext.Model, Dim: dim}
		}
		if err := tx.Commit(); err != nil {
			return st, err
		}
		st.Files += len(part)
	}
	gone, err := s.dropGoneVectors(ctx)
	if err != nil {
		return st, err
	}
	if st.Files > 0 || gone || reset {
		if err := s.bumpVectors(ctx); err != nil {
			return st, err
		}
	}
	err = s.DB().QueryRowContext(ctx, `SELECT COALESCE(SUM(count), 0) FROM symbol_vectors`).Scan(&st.Vectored)
	return st, err
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

// eachFileTexts reads, on every core, the texts an external embedder is given of the
// definitions of each file that get a vector, with their ids.
func (s Set) eachFileTexts(ctx context.Context, files []vecFile, fn func(i int, ids, texts []string) error) error {
	return s.eachFileRaw(ctx, files, false, func(i int, syms []vecSym, content []byte) error {
		ids := make([]string, len(syms))
		texts := make([]string, len(syms))
		for j, x := range syms {
			ids[j], texts[j] = x.id, embedText(x.name, x.sig, x.doc, x.body(content))
		}
		return fn(i, ids, texts)
	})
}

func decodeVecModel(data []byte) (*embed.Model, error) {
	bad := errors.New("index: the vector model is damaged: re-index with --force")
	if !bytes.HasPrefix(data, []byte(vecModelFormat)) || len(data) < len(vecModelFormat)+6 {
		return nil, bad
	}
	r := data[len(vecModelFormat):]
	dim := int(binary.LittleEndian.Uint16(r))
	n := int(binary.LittleEndian.Uint32(r[2:]))
	r = r[6:]
	end := 0
	for seen := 0; end < len(r) && seen < n; end++ {
		if r[end] == 0 {
			seen++
		}
	}
	if n == 0 {
		end = 1
	}
	words := strings.Split(string(r[:max(end-1, 0)]), "\x00")
	if n == 0 {
		words = nil
	}
	r = r[end:]
	if len(words) != n || len(r) != n*4+n*dim {
		return nil, bad
	}
	prob := make([]float32, n)
	for i := range prob {
		prob[i] = math.Float32frombits(binary.LittleEndian.Uint32(r[i*4:]))
	}
	r = r[n*4:]
	vecs := make([]int8, n*dim)
	for i := range vecs {
		vecs[i] = int8(r[i])
	}
	return embed.Load(dim, words, prob, vecs), nil
}
