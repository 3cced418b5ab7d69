package fulltext

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/quarrysearch/quarry/index/store"
)

// BM25 needs the average length of each field it scores. bleve 2.6 takes it to be the
// count of distinct terms of the field over the count of every document, symbols and
// files: 1 or 2 tokens for every field, where a symbol's name has about 3, its signature 9,
// its doc comment and body dozens. A long doc comment or body was crushed by its length,
// so a symbol with one query word in its name beat one whose doc comment held six of
// seven. The writer measures the true averages on a sample of the symbols and keeps them
// in the store; a search hands them to bleve with the count of symbol documents.

// MetaFieldLengths is the meta key of the measured field lengths (JSON of fieldLengths).
const MetaFieldLengths = "fulltext_field_lengths"

// fieldLengthSample is how many symbols the averages are measured on.
const fieldLengthSample = 20000

// FieldLengths are the average lengths in tokens of the symbol text fields, over every
// symbol document (an absent doc comment counts as 0), and the count of symbol documents.
type FieldLengths struct {
	Symbols int                `json:"symbols"`
	Avg     map[string]float64 `json:"avg"`
}

// defaultFieldLengths stand in until an index run measured the workspace's (an index
// built before they were measured): the averages on corpus.sh small.
var defaultFieldLengths = map[string]float64{FieldName: 3, FieldSignature: 9, FieldDocComment: 20, FieldCodeBody: 40}

// fieldLengthDrift is how far the count of symbols may move before an update measures the
// field lengths again.
const fieldLengthDrift = 0.1

// MeasureFieldLengths measures the field lengths on an even sample of the stored symbols,
// tokenized as the full-text index tokenizes them, and keeps them in the store: after a
// full build (force), when none were measured, or when the count of symbols moved by more
// than fieldLengthDrift since they were.
func (f *Index) MeasureFieldLengths(ctx context.Context, st *store.Store, force bool) error {
	// Counted from the files' totals (a covering index): count(*) over the symbols read
	// every page of the table, a third of a second on corpus.sh full at the end of every
	// update.
	var n int64
	if err := st.DB().QueryRowContext(ctx, `SELECT coalesce(sum(symbol_count), 0) FROM files WHERE skipped = ''`).Scan(&n); err != nil {
		return fmt.Errorf("index: count symbols: %w", err)
	}
	if !force {
		if v, err := st.Meta(MetaFieldLengths); err == nil && v != "" {
			var old FieldLengths
			if json.Unmarshal([]byte(v), &old) == nil && math.Abs(float64(n-int64(old.Symbols))) <= fieldLengthDrift*float64(old.Symbols) {
				return nil
			}
		}
	}
	fl := FieldLengths{Symbols: int(n), Avg: map[string]float64{}}
	if n == 0 {
		return saveFieldLengths(st, fl)
	}
	// The sample is the symbols whose id (a hash, hex) is below a threshold: the same
	// symbols give the same sample and the same lengths whatever order a run wrote them in
	// (by rowid, two builds of one tree scored alike names apart in the fourth digit).
	below := "g" // above every hex id: all of them
	if n > fieldLengthSample {
		below = fmt.Sprintf("%016x", uint64(float64(math.MaxUint64)*float64(fieldLengthSample)/float64(n)))
	}
	rows, err := st.DB().QueryContext(ctx, `SELECT f.path, s.language, s.kind, s.name, s.signature, s.doc_comment, s.start_byte, s.end_byte
		FROM symbols s JOIN files f ON f.id = s.file WHERE s.id < ? ORDER BY f.path, s.id`, below)
	if err != nil {
		return fmt.Errorf("index: sample symbols: %w", err)
	}
	defer rows.Close()
	var (
		sampled int
		curPath string
		content []byte
		totals  = map[string]int{}
	)
	for rows.Next() {
		var path, lang, kind, name, sig, doc string
		var start, end int
		if err := rows.Scan(&path, &lang, &kind, &name, &sig, &doc, &start, &end); err != nil {
			return err
		}
		if path != curPath {
			if content, err = st.Content(ctx, path); err != nil {
				content = nil
			}
			curPath = path
		}
		tk := f.Tokenizer(lang)
		count := func(text string) int { return len(tk.Append(nil, text)) }
		totals[FieldName] += count(name)
		totals[FieldSignature] += count(sig)
		totals[FieldDocComment] += count(doc)
		if start >= 0 && end <= len(content) && start <= end {
			totals[FieldCodeBody] += count(store.SymbolBody(kind, content, start, end))
		}
		sampled++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for field, t := range totals {
		fl.Avg[field] = float64(t) / float64(max(sampled, 1))
	}
	return saveFieldLengths(st, fl)
}

func saveFieldLengths(st *store.Store, fl FieldLengths) error {
	b, err := json.Marshal(fl)
	if err != nil {
		return err
	}
	return st.SetMeta(MetaFieldLengths, string(b))
}

// BM25 are the statistics a search of symbol documents hands bleve, read from the store
// once per searcher.
type BM25 struct {
	once  sync.Once
	stats *search.BM25Stats
}

// Get returns the statistics: the measured averages (or the defaults) for the symbol text
// fields and 1 for every other field, over the symbol documents.
func (b *BM25) Get(store *store.Store, ft *Index) *search.BM25Stats {
	b.once.Do(func() {
		fl := FieldLengths{Avg: defaultFieldLengths}
		if v, err := store.Meta(MetaFieldLengths); err == nil && v != "" {
			var m FieldLengths
			if json.Unmarshal([]byte(v), &m) == nil && len(m.Avg) > 0 {
				fl = m
			}
		}
		if fl.Symbols == 0 {
			n, err := ft.idx.DocCount()
			if err != nil || n == 0 {
				return
			}
			fl.Symbols = int(n)
		}
		fields, err := ft.idx.Fields()
		if err != nil {
			return
		}
		st := &search.BM25Stats{DocCount: float64(fl.Symbols), FieldCardinality: map[string]int{}}
		for _, f := range fields {
			st.FieldCardinality[f] = fl.Symbols // an average length of 1: keyword fields, files' content
		}
		for f, avg := range fl.Avg {
			// bleve divides by the document count and rounds up.
			st.FieldCardinality[f] = int(math.Max(avg, 1) * float64(fl.Symbols))
		}
		b.stats = st
	})
	return b.stats
}

// Symbols returns the count of symbol documents the statistics are over (0: unknown).
func (b *BM25) Symbols(store *store.Store, ft *Index) int {
	if st := b.Get(store, ft); st != nil {
		return int(st.DocCount)
	}
	return 0
}

// WithBM25 returns ctx carrying stats for bleve (nil: none).
func WithBM25(ctx context.Context, stats *search.BM25Stats) context.Context {
	if stats == nil {
		return ctx
	}
	return context.WithValue(ctx, search.BM25StatsKey, stats)
}
