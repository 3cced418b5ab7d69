package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/extract"
)

// Counts are the sizes of a store's tables.
type Counts struct {
	Files         int `json:"files"`
	Symbols       int `json:"symbols"`
	Identifiers   int `json:"identifiers"`
	Relationships int `json:"relationships"`
	Types         int `json:"types"`
	Pending       int `json:"fulltext_pending"`
}

// Counts counts the rows of each table, from the per-file counts kept in files.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(symbol_count), 0), coalesce(sum(identifier_count), 0),
		coalesce(sum(relationship_count), 0), coalesce(sum(type_count), 0) FROM files WHERE skipped = ''`).
		Scan(&c.Files, &c.Symbols, &c.Identifiers, &c.Relationships, &c.Types)
	if err != nil {
		return c, fmt.Errorf("index: count: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM fulltext_pending`).Scan(&c.Pending); err != nil {
		return c, fmt.Errorf("index: count pending: %w", err)
	}
	return c, nil
}

// LanguageStats are the counts of one language.
type LanguageStats struct {
	Language         string `json:"language"`
	Files            int    `json:"files"`
	Symbols          int    `json:"symbols"`
	FilesParseErrors int    `json:"files_with_parse_errors"`
}

// Languages returns per-language counts, most files first; files of no known language are
// counted under "".
func (s *Store) Languages(ctx context.Context) ([]LanguageStats, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT language, count(*), sum(symbol_count), sum(parse_errors > 0) FROM files WHERE skipped = '' GROUP BY language ORDER BY count(*) DESC, language`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []LanguageStats
	for rows.Next() {
		var l LanguageStats
		if err := rows.Scan(&l.Language, &l.Files, &l.Symbols, &l.FilesParseErrors); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// NameCount is a number of files under a name.
type NameCount struct {
	Name  string `json:"name"`
	Files int    `json:"files"`
}

// maxWithoutExtractor caps the names WithoutExtractor lists; the rest are summed under
// "(other)".
const maxWithoutExtractor = 20

// WithoutExtractor returns the files indexed for their content only, with no symbols: those
// of a language Quarry knows but has no extractor for, by language, and those of no known
// language, by extension (.json) or, for a name without one, by name (Makefile); most files
// first, at most maxWithoutExtractor names and "(other)".
func (s *Store) WithoutExtractor(ctx context.Context) ([]NameCount, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT language, path FROM files WHERE skipped = '' AND symbol_count = 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var lang, p string
		if err := rows.Scan(&lang, &p); err != nil {
			return nil, err
		}
		switch {
		case lang != "" && !extract.Supported(lang):
			counts[lang]++
		case lang == "":
			base := path.Base(p)
			if ext := strings.ToLower(path.Ext(base)); ext != "" && ext != base {
				counts[ext]++
			} else {
				counts[base]++
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]NameCount, 0, len(counts))
	for name, n := range counts {
		out = append(out, NameCount{name, n})
	}
	slices.SortFunc(out, func(a, b NameCount) int { return cmp.Or(cmp.Compare(b.Files, a.Files), cmp.Compare(a.Name, b.Name)) })
	if len(out) > maxWithoutExtractor {
		other := 0
		for _, c := range out[maxWithoutExtractor:] {
			other += c.Files
		}
		out = append(out[:maxWithoutExtractor], NameCount{"(other)", other})
	}
	return out, nil
}

// DiskSize returns the bytes the store takes on disk (database, WAL and shared memory files).
func (s *Store) DiskSize() int64 {
	var n int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if st, err := os.Stat(s.path + suffix); err == nil {
			n += st.Size()
		}
	}
	return n
}

// Checkpoint folds the WAL into the database file and truncates it.
func (s *Store) Checkpoint(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("index: write the log into %s: %w", s.path, err)
	}
	return nil
}

// MaxCodeBody caps the source text of a symbol given to the full-text index.
const MaxCodeBody = 2 << 10

// SymbolBody returns the code_body of a symbol of kind spanning content[start:end]: its
// source capped at MaxCodeBody bytes on a line boundary for the kinds with a body of
// statements (extract.Kind.HasBody), else empty. A container's body is made of other
// symbols (a class's methods, a module's functions), each indexed on its own, so its own
// code_body would index the same text again; a declaration's (variable, constant, field,
// import, enum member, type alias) is the declaration itself, already in its signature, or
// a data initializer (tables, literals) that only buries real definitions. On corpus.sh
// full, leaving those out of code_body is 30 MB of text (of 300 MB) the full-text index no
// longer analyzes.
func SymbolBody(kind string, content []byte, start, end int) string {
	if k, _ := extract.KindNamed(kind); !k.HasBody() {
		return ""
	}
	return CodeBody(content, start, end)
}

// StoredSymbol is a symbol as the store returns it for full-text indexing.
type StoredSymbol struct {
	ID, Path, Name, Kind, Language, Signature, DocComment string
	StartLine, StartByte, EndByte                         int
}

// FileDocs calls fn for every stored file with its content, in path order.
func (s *Store) FileDocs(ctx context.Context, fn func(path, language string, content []byte) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT path, language, content FROM files WHERE skipped = '' ORDER BY path`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var path, lang string
		var content []byte
		if err := rows.Scan(&path, &lang, &content); err != nil {
			return err
		}
		content, err := unpackContent(content)
		if err != nil {
			return fmt.Errorf("index: read %s: %w", path, err)
		}
		if err := fn(path, lang, content); err != nil {
			return err
		}
	}
	return rows.Err()
}

// FileSymbols returns the stored symbols of path.
func (s *Store) FileSymbols(ctx context.Context, path string) ([]StoredSymbol, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, f.path, s.name, s.kind, s.language, s.signature, s.doc_comment, s.start_line, s.start_byte, s.end_byte
		FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ? ORDER BY s.start_byte`, path)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StoredSymbol
	for rows.Next() {
		var x StoredSymbol
		if err := rows.Scan(&x.ID, &x.Path, &x.Name, &x.Kind, &x.Language, &x.Signature, &x.DocComment, &x.StartLine, &x.StartByte, &x.EndByte); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// SymbolPath returns the path of the file that holds the symbol id, or "" when there is none.
func (s *Store) SymbolPath(ctx context.Context, id string) (string, error) {
	paths, err := s.Strings(ctx, `SELECT f.path FROM symbols s JOIN files f ON f.id = s.file WHERE s.id = ?`, id)
	if err != nil || len(paths) == 0 {
		return "", err
	}
	return paths[0], nil
}

// CodeBody returns the source of a symbol, capped at MaxCodeBody bytes on a line boundary.
func CodeBody(content []byte, start, end int) string {
	if start < 0 || end > len(content) || start >= end {
		return ""
	}
	body := content[start:end]
	if len(body) > MaxCodeBody {
		body = body[:MaxCodeBody]
		if i := strings.LastIndexByte(string(body), '\n'); i > 0 {
			body = body[:i]
		}
	}
	return string(body)
}

// FileCount returns the number of indexed (not skipped) files.
// The count is kept for the store's generation: a resident server answers every search
// with it, and counting read the whole covering index each time.
func (s *Store) FileCount(ctx context.Context) (int, error) {
	gen, err := s.Generation(ctx)
	if err != nil {
		return 0, err
	}
	if c := s.fileCount.Load(); c != nil && c.gen == gen {
		return c.n, nil
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM files WHERE skipped = ''`).Scan(&n); err != nil {
		return 0, fmt.Errorf("index: count files: %w", err)
	}
	if again, err := s.Generation(ctx); err == nil && again == gen {
		s.fileCount.Store(&genCount{gen, n})
	}
	return n, nil
}

// maxLineText caps the text of a line shown with a hit, in bytes.
const maxLineText = 400

// LineText returns a line as shown: without its line ending, capped at maxLineText bytes
// on a character boundary.
func LineText(b []byte) string {
	b = bytes.TrimRight(b, "\r")
	if len(b) > maxLineText {
		cut := maxLineText
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return string(b[:cut]) + "…"
	}
	return string(b)
}

// FileContent returns the language and content of the stored file at path (none when the
// store no longer has it).
func (s *Store) FileContent(ctx context.Context, path string) (lang string, content []byte, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT language, content FROM files WHERE path = ?`, path).Scan(&lang, &content)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("index: read %s: %w", path, err)
	}
	if content, err = unpackContent(content); err != nil {
		return "", nil, fmt.Errorf("index: read %s: %w", path, err)
	}
	return lang, content, nil
}
