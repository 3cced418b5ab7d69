// Package store is a workspace's SQLite store, the source of truth of its index: files
// with their content, symbols, identifiers, relationships and types, written in
// transactions with the full-text index's pending log and read back by the packages above.
package store

// The SQLite schema (schema version 2), in db/symbols.db of a workspace's index directory,
// opened in WAL mode:
//
//	meta(key PRIMARY KEY, value)      schema_version, generation, last index run, ...
//	files(id INTEGER PRIMARY KEY, path UNIQUE, language, hash, size, mtime, parse_errors,
//	    symbol_count, identifier_count, relationship_count, type_count, skipped, content)
//	    the *_count columns count the file's rows in the other tables, so the totals are a
//	    sum over files instead of a scan of millions of identifiers;
//	    path is workspace-relative POSIX; hash the xxhash64 of content in hex; mtime in Unix
//	    nanoseconds; content the whole file compressed with zstd (packContent). A file
//	    found binary or minified once read keeps a row with skipped set to the reason and no
//	    content, so it is not read again until it changes; it has no other rows and no
//	    full-text documents. A file keeps its id while it is stored.
//	symbols(id PRIMARY KEY, file, name, kind, language, start_line, start_column, end_line,
//	    end_column, start_byte, end_byte, signature, doc_comment, visibility, parent_id, metadata)
//	    file is the id of the symbol's file (its path is in files: 47 bytes a symbol, and
//	    its index, took 75 MB on corpus.sh full); metadata is a JSON object or ''. Indexed
//	    by lower(name) and by file: no query looks a symbol up by its exact name or its
//	    parent (26 MB of indexes on corpus.sh full went unread).
//	identifiers(file INTEGER PRIMARY KEY, data)
//	    a file's identifiers in one blob (encodeIdents): a name table and, per identifier,
//	    its name's index, kind, line, column, start byte, containing symbol and qualifier
//	    (what the name is looked up in: pkg of pkg.F), delta-coded.
//	    A row each would take 4 million rows and two lookup indexes on corpus.sh full (626
//	    MB); the blobs take a tenth of that.
//	identifier_names(name, file, uses, kinds) WITHOUT ROWID, keyed by (name, file)
//	    which files use a name, how often and with which kinds (bit k: extract.IdentKind k):
//	    the lookup of Refs, which decodes only the blobs of the files it returns
//	relationships(file INTEGER PRIMARY KEY, data), types(file INTEGER PRIMARY KEY, data)
//	    a file's relationships (from id, from name, to, kind, line) and types (symbol id,
//	    role, type) in one blob each (encodeRels, encodeTypes), with a string table: they
//	    are read a file at a time (730,000 relationship and 380,000 type rows with their
//	    lookup indexes took 190 MB on corpus.sh full; the blobs a tenth of that)
//	fulltext_pending(doc_id PRIMARY KEY)
//	    full-text documents ("f:<path>", "s:<symbol id>") changed in the store but not yet
//	    confirmed written to bleve; written in the same transaction as the change, removed
//	    once bleve has them, replayed on the next open after a crash.
//
// A file's rows in every table (by path, or by file id) are replaced or deleted together in
// one transaction, so the store never holds half a file.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	sqlite3 "github.com/mattn/go-sqlite3" // the SQLite driver; the one cgo build of SQLite in Quarry

	"github.com/quarrysearch/quarry/extract"
)

// SchemaVersion is the version of the SQLite schema this code reads and writes.
const SchemaVersion = 3

// schema creates the tables of SchemaVersion. A store of an older schema is emptied and
// created again (migrate): everything in it comes back from the files on the next index
// run, and the full-text index, whose version includes SchemaVersion, is rebuilt with it.
const schema = `CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
	id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, language TEXT NOT NULL, hash TEXT NOT NULL,
	size INTEGER NOT NULL, mtime INTEGER NOT NULL, parse_errors INTEGER NOT NULL,
	symbol_count INTEGER NOT NULL, identifier_count INTEGER NOT NULL,
	relationship_count INTEGER NOT NULL, type_count INTEGER NOT NULL, skipped TEXT NOT NULL,
	content BLOB NOT NULL);
CREATE TABLE symbols(
	id TEXT PRIMARY KEY, file INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
	language TEXT NOT NULL, start_line INTEGER NOT NULL, start_column INTEGER NOT NULL,
	end_line INTEGER NOT NULL, end_column INTEGER NOT NULL, start_byte INTEGER NOT NULL,
	end_byte INTEGER NOT NULL, signature TEXT NOT NULL, doc_comment TEXT NOT NULL,
	visibility TEXT NOT NULL, parent_id TEXT NOT NULL, metadata TEXT NOT NULL);
CREATE TABLE identifiers(file INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE identifier_names(
	name TEXT NOT NULL, file INTEGER NOT NULL, uses INTEGER NOT NULL, kinds INTEGER NOT NULL,
	PRIMARY KEY(name, file)) WITHOUT ROWID;
CREATE TABLE relationships(file INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE types(file INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE fulltext_pending(doc_id TEXT PRIMARY KEY);`

// vectorTables hold the symbol vectors (package vectors): made after the rest from what the
// store holds, so a store of this schema without them gets them, empty, when opened.
const vectorTables = `CREATE TABLE IF NOT EXISTS vec_model(id INTEGER PRIMARY KEY, trained_on INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS symbol_vectors(file INTEGER PRIMARY KEY, hash TEXT NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS embed_cache(key TEXT PRIMARY KEY, vec BLOB NOT NULL);`

// secondaryIndexes are the lookup indexes of the schema. A bulk load into an empty store
// drops them and builds them once at the end, which is faster than keeping them up to date
// row by row; OpenStore creates any that are missing, so a crash in between only costs time.
var secondaryIndexes = []string{
	// Covering: listing the paths reads this index, not the table with every file's content.
	`CREATE INDEX IF NOT EXISTS files_paths ON files(skipped, path, language)`,
	// Covering: totals (Counts, quarry workspace list, health) read this index, not the table.
	`CREATE INDEX IF NOT EXISTS files_counts ON files(skipped, symbol_count, identifier_count, relationship_count, type_count)`,
	// Covering: planning an update (Files) reads this index, not the table's leaf pages,
	// which hold the start of every file's content (0.44 s of a 1.2 s one-file update on
	// corpus.sh full).
	`CREATE INDEX IF NOT EXISTS files_state ON files(path, language, hash, size, mtime, parse_errors, symbol_count, skipped)`,
	// Covering: the languages' totals (Languages, at the end of every index run and in
	// health) read this index, not the table: 0.2 s of a 0.35 s one-file update on
	// corpus.sh full.
	`CREATE INDEX IF NOT EXISTS files_langs ON files(skipped, language, symbol_count, parse_errors)`,
	`CREATE INDEX IF NOT EXISTS symbols_lname ON symbols(lower(name))`,
	`CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file)`,
}

// MetaFirstLoad is the meta key set while a first load into an empty store runs.
const MetaFirstLoad = "first_load"

// FirstLoadUnfinished reports whether a first load into the store started and did not
// finish: the full-text index may lack some of what the store holds, until the next run
// refills it.
func (s *Store) FirstLoadUnfinished() (bool, error) {
	v, err := s.Meta(MetaFirstLoad)
	return v != "", err
}

// ErrNotWritable is returned when an index cannot be written: a read-only file system or
// directory, or another user's files. The index can still be searched as it is.
var ErrNotWritable = errors.New("the index cannot be written (read-only file system or permissions)")

// ErrNewerSchema is returned when a store was written by a newer Quarry.
var ErrNewerSchema = errors.New("index: the store was written by a newer version of Quarry")

// Store is a workspace's SQLite store.
type Store struct {
	db        *sql.DB
	path      string
	bulk      bool                     // see setBulk
	readOnly  bool                     // see ReadOnly
	fileCount atomic.Pointer[genCount] // FileCount's last count, and the generation it is of
	frozen    atomic.Pointer[int64]    // the generation, once nothing writes the store (Freeze)
	exts      sync.Map                 // what packages above keep with the store (Store.Extension)
	stmtMu    sync.Mutex
	stmts     map[string]*sql.Stmt // prepared read statements (Store.stmt)
}

// DB returns the store's database, for the packages above that keep tables of their own
// in it (the symbol vectors) or read its rows with joins of their own (navigation, search).
// The schema is the store's: see the top of this file.
func (s *Store) DB() *sql.DB { return s.db }

// Extension returns the value kept with the store under key, made by make on first use:
// the packages above keep their caches of what they read from this store there (what
// resolution read, the vectors a vector search reads), so they live as long as it does.
func (s *Store) Extension(key any, make func() any) any {
	if v, ok := s.exts.Load(key); ok {
		return v
	}
	v, _ := s.exts.LoadOrStore(key, make())
	return v
}

// Stmt returns the statement query, prepared once per store.
func (s *Store) Stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	s.stmtMu.Lock()
	defer s.stmtMu.Unlock()
	if st, ok := s.stmts[query]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if s.stmts == nil {
		s.stmts = map[string]*sql.Stmt{}
	}
	s.stmts[query] = st
	return st, nil
}

// genCount is a count of a store's generation.
type genCount struct {
	gen int64
	n   int
}

// SetBulk tells the store that every Put until setBulk(false) is for a path it does not hold
// yet (a load into an empty store), so Put need not look for old rows to replace.
func (s *Store) SetBulk(on bool) { s.bulk = on }

// sqliteDriver is SQLite with the settings every connection of a store gets: reads through
// a memory map of the database file (up to 1 GiB) rather than a read system call per page,
// which made reading candidate files' content during a search about twice as fast.
const sqliteDriver = "sqlite3_quarry"

func init() {
	sql.Register(sqliteDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		_, err := c.Exec("PRAGMA mmap_size = 1073741824", nil)
		return err
	}})
}

// Open opens the store at path, creating it (and its directory) when missing, and
// migrates it to SchemaVersion.
func Open(path string) (*Store, error) { return open(path, walDSN) }

// OpenUnjournaled opens the store at path like Open, but for a store being built where it
// is thrown away unless the build finishes (a forced run's rebuild/): no journal and no
// syncs, so each page is written once, not to the WAL and then again to the database
// (bytes written by a full build of corpus.sh full: see bench/perf.sh). Sync makes it
// durable once the build is done; the next Open turns it to WAL.
func OpenUnjournaled(path string) (*Store, error) {
	return open(path, "?_journal_mode=OFF&_synchronous=OFF&_busy_timeout=10000&_txlock=immediate")
}

// walDSN are the settings of a store's connections: WAL, synced at each checkpoint.
const walDSN = "?_journal_mode=WAL&_synchronous=NORMAL&_busy_timeout=10000&_txlock=immediate"

// Sync writes the store's file to the disk (fsync): a store opened by OpenUnjournaled is
// durable after Sync.
func (s *Store) Sync() error {
	f, err := os.OpenFile(s.path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("index: sync %s: %w", s.path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("index: sync %s: %w", s.path, err)
	}
	return nil
}

func open(path, params string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), DirMode); err != nil {
		return nil, fmt.Errorf("index: create %s: %w", filepath.Dir(path), err)
	}
	// SQLite creates a database with mode 0644 less the umask, and its -wal and -shm files
	// with the database's mode: an empty file of FileMode is an empty database that keeps
	// all three private. When it cannot be created, SQLite's own open says why.
	if f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, FileMode); err == nil {
		f.Close()
	}
	dsn := "file:" + path + params
	db, err := sql.Open(sqliteDriver, dsn)
	if err != nil {
		return nil, fmt.Errorf("index: open %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	err = s.migrate()
	if err == nil {
		_, err = db.Exec(vectorTables)
	}
	if err == nil {
		err = s.CreateSecondaryIndexes(context.Background())
	}
	if err != nil {
		db.Close()
		if readOnly(err) {
			// An index this process cannot write (a read-only .quarry/, another user's) is
			// still searched: opened read-only, as it is.
			return openStoreReadOnly(path)
		}
		return nil, fmt.Errorf("index: open %s: %w", path, err)
	}
	return s, nil
}

// NotWritable reports whether err says a file of the index cannot be written (permissions,
// a read-only file system).
func NotWritable(err error) bool { return readOnly(err) || errors.Is(err, syscall.EROFS) }

// readOnly reports whether err says the database or its directory cannot be written.
func readOnly(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrReadonly || se.Code == sqlite3.ErrCantOpen || se.Code == sqlite3.ErrPerm) {
		return true
	}
	return errors.Is(err, os.ErrPermission)
}

// openStoreReadOnly opens the store at path for reading only; it must be of this schema.
func openStoreReadOnly(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("index: open %s: %w", path, err)
	}
	// A WAL database opened read-only still writes its shared-memory file; where that
	// cannot be written either, the store is read as immutable (no one can change it).
	var (
		db  *sql.DB
		s   *Store
		v   string
		err error
	)
	for _, params := range []string{"mode=ro&_busy_timeout=10000", "immutable=1"} {
		if db, err = sql.Open(sqliteDriver, "file:"+path+"?"+params); err != nil {
			return nil, fmt.Errorf("index: open %s read-only: %w", path, err)
		}
		s = &Store{db: db, path: path, readOnly: true}
		if v, err = s.Meta("schema_version"); err == nil || !readOnly(err) {
			break
		}
		db.Close()
	}
	if err == nil && v != strconv.Itoa(SchemaVersion) {
		err = fmt.Errorf("schema %q, this Quarry reads %d and cannot migrate a store it cannot write", v, SchemaVersion)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("index: open %s read-only: %w", path, err)
	}
	return s, nil
}

// ReadOnly reports whether the store was opened read-only (its files cannot be written).
func (s *Store) ReadOnly() bool { return s.readOnly }

// CreateSecondaryIndexes creates the lookup indexes that are missing.
func (s *Store) CreateSecondaryIndexes(ctx context.Context) error {
	for _, q := range secondaryIndexes {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("index: %s: %w", q, err)
		}
	}
	return nil
}

// DropSecondaryIndexes drops the lookup indexes before a bulk load into an empty store.
func (s *Store) DropSecondaryIndexes(ctx context.Context) error {
	for _, q := range secondaryIndexes {
		name := strings.Fields(q)[5] // CREATE INDEX IF NOT EXISTS <name> ON ...
		if _, err := s.db.ExecContext(ctx, "DROP INDEX IF EXISTS "+name); err != nil {
			return fmt.Errorf("index: drop %s: %w", name, err)
		}
	}
	return nil
}

// Path returns the file the store lives in.
func (s *Store) Path() string { return s.path }

// MetaGrams is the meta key holding the manifest of the content index (index/grams): the
// segments that answer for the files the store holds, with their deleted documents. It is
// written in the transaction that clears the file documents those segments took from the
// pending log, so the two never disagree.
const MetaGrams = "grams"

// GramsDir returns the directory of the content index's segments, beside the store's file:
// a forced run's rebuild moves both at once.
func (s *Store) GramsDir() string { return filepath.Join(filepath.Dir(s.path), "grams") }

// Close closes the store.
func (s *Store) Close() error {
	s.stmtMu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.stmtMu.Unlock()
	return s.db.Close()
}

func (s *Store) migrate() error {
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'`).Scan(&n); err != nil {
		return err
	}
	version := 0
	if n > 0 {
		v, err := s.Meta("schema_version")
		if err != nil {
			return err
		}
		if version, err = strconv.Atoi(v); err != nil {
			return fmt.Errorf("bad schema_version %q", v)
		}
	}
	if version > SchemaVersion {
		return fmt.Errorf("%w (schema %d, this one reads %d)", ErrNewerSchema, version, SchemaVersion)
	}
	if version == SchemaVersion {
		return s.ensureStoreID()
	}
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	if version > 0 {
		// An older schema: its tables go, and the next index run fills the new ones.
		if err := dropTables(tx); err != nil {
			tx.Rollback()
			return fmt.Errorf("empty the store of schema %d: %w", version, err)
		}
	}
	if _, err := tx.Exec(schema); err != nil {
		tx.Rollback()
		return fmt.Errorf("create schema %d: %w", SchemaVersion, err)
	}
	if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES('schema_version', ?), ('store_id', ?)`, strconv.Itoa(SchemaVersion), newStoreID()); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if version > 0 {
		// Give the emptied pages back to the file system.
		if _, err := s.db.Exec(`VACUUM`); err != nil {
			return fmt.Errorf("vacuum the emptied store: %w", err)
		}
	}
	return nil
}

// dropTables drops every table and index of the store.
func dropTables(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, n := range names {
		if _, err := tx.Exec(`DROP TABLE "` + n + `"`); err != nil {
			return err
		}
	}
	return nil
}

// Meta returns the value of a meta key, or "" when it is not set.
func (s *Store) Meta(key string) (string, error) {
	var v string
	err := s.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetMeta sets a meta key.
func (s *Store) SetMeta(key, value string) error {
	if _, err := s.db.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)`, key, value); err != nil {
		return fmt.Errorf("index: record %s in %s: %w", key, s.path, err)
	}
	return nil
}

// Generation returns the number of batches committed to the store so far: a reader that
// reads it before and after reading several rows knows whether they are of one state.
func (s *Store) Generation(ctx context.Context) (int64, error) {
	if g := s.frozen.Load(); g != nil {
		return *g, nil
	}
	var v string
	st, err := s.Stmt(ctx, `SELECT value FROM meta WHERE key = 'generation'`)
	if err != nil {
		return 0, fmt.Errorf("index: read the generation: %w", err)
	}
	err = st.QueryRowContext(ctx).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("index: read the generation: %w", err)
	}
	return strconv.ParseInt(v, 10, 64)
}

// ensureStoreID gives a store made before store ids its own (StateKey). It is best effort:
// while another process writes the store it may fail, and a later open tries again.
func (s *Store) ensureStoreID() error {
	if id, err := s.Meta(metaStoreID); err != nil || id != "" {
		return err
	}
	_, _ = s.db.Exec(`INSERT OR IGNORE INTO meta(key, value) VALUES(?, ?)`, metaStoreID, newStoreID())
	return nil
}

// metaStoreID is the meta key of a store's id: random, chosen when its tables are made.
const metaStoreID = "store_id"

func newStoreID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// StateKey names the state of the stored files: the store's id and its generation, so it
// changes with every committed batch and differs between two stores (one emptied and
// filled again counts from 1 again). A copy of what Files returned, kept under this key,
// is that state as long as StateKey answers the same. "" when the store has no id yet
// (made by an older Quarry and not written since): no copy can be trusted.
func (s *Store) StateKey(ctx context.Context) (string, error) {
	id, err := s.Meta(metaStoreID)
	if err != nil || id == "" {
		return "", err
	}
	g, err := s.Generation(ctx)
	if err != nil {
		return "", err
	}
	return id + ":" + strconv.FormatInt(g, 10), nil
}

// Freeze tells the store that nothing will write it any more (a copy of an index, as a
// cluster's node serves it): Generation answers the generation it reads now, without
// asking the database again.
func (s *Store) Freeze(ctx context.Context) error {
	g, err := s.Generation(ctx)
	if err != nil {
		return err
	}
	s.frozen.Store(&g)
	return nil
}

// Vacuum rewrites the database without its free pages (a copy about to be shipped).
func (s *Store) Vacuum(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `VACUUM`); err != nil {
		return fmt.Errorf("index: vacuum the store: %w", err)
	}
	return nil
}

// Empty reports whether the store holds no file at all (not even a skipped one).
func (s *Store) Empty(ctx context.Context) (bool, error) {
	var any bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM files)`).Scan(&any); err != nil {
		return false, fmt.Errorf("index: %w", err)
	}
	return !any, nil
}

// FileState is what the store knows of a file without its content.
type FileState struct {
	Path        string
	Language    string
	Hash        string
	Size        int64
	MTime       int64 // Unix nanoseconds
	ParseErrors int
	Symbols     int
	Skipped     extract.SkipReason // why the file is not indexed, or ""
}

// Files returns the state of every stored file, by path.
func (s *Store) Files(ctx context.Context) (map[string]FileState, error) {
	out := map[string]FileState{}
	return out, s.readFileStates(ctx, out, ``)
}

// fileStateColumns are the columns readFileStates reads.
const fileStateColumns = `path, language, hash, size, mtime, parse_errors, symbol_count, skipped`

// readFileStates adds the states of the stored files matching where (a WHERE clause, or ""
// for all) with args to out.
func (s *Store) readFileStates(ctx context.Context, out map[string]FileState, where string, args ...any) error {
	q := `SELECT ` + fileStateColumns + ` FROM files`
	if where != "" {
		q += ` WHERE ` + where
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("index: read file states: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f FileState
		if err := rows.Scan(&f.Path, &f.Language, &f.Hash, &f.Size, &f.MTime, &f.ParseErrors, &f.Symbols, &f.Skipped); err != nil {
			return err
		}
		out[f.Path] = f
	}
	return rows.Err()
}

// FilesUnder returns the state of the stored files below the directories dirs
// (workspace-relative, POSIX; "" is the root: every file), by path.
func (s *Store) FilesUnder(ctx context.Context, dirs []string) (map[string]FileState, error) {
	if slices.Contains(dirs, "") {
		return s.Files(ctx)
	}
	out := map[string]FileState{}
	for _, d := range dirs {
		// Paths below d sort from "d/" to just before "d0" ('0' follows '/').
		if err := s.readFileStates(ctx, out, `path >= ? AND path < ?`, d+"/", d+"0"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FileStates returns the state of the stored files among paths, by path.
func (s *Store) FileStates(ctx context.Context, paths []string) (map[string]FileState, error) {
	out := make(map[string]FileState, len(paths))
	for len(paths) > 0 {
		batch := paths[:min(len(paths), MaxSQLParams)]
		paths = paths[len(batch):]
		args := make([]any, len(batch))
		for i, p := range batch {
			args[i] = p
		}
		if err := s.readFileStates(ctx, out, `path IN (?`+strings.Repeat(",?", len(batch)-1)+`)`, args...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Content returns the stored content of the file at path.
func (s *Store) Content(ctx context.Context, path string) ([]byte, error) {
	var c []byte
	err := s.db.QueryRowContext(ctx, `SELECT content FROM files WHERE path = ?`, path).Scan(&c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("index: %s is not in the store: %w", path, os.ErrNotExist)
	}
	if err != nil {
		return nil, err
	}
	return unpackContent(c)
}

// SymbolIDs returns the ids of the symbols stored for path.
func (s *Store) SymbolIDs(ctx context.Context, path string) ([]string, error) {
	return s.Strings(ctx, `SELECT s.id FROM symbols s JOIN files f ON f.id = s.file WHERE f.path = ?`, path)
}

// Strings runs query and returns its rows' one string column.
func (s *Store) Strings(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// PendingDocs returns the full-text documents not yet confirmed written to bleve.
func (s *Store) PendingDocs(ctx context.Context) ([]string, error) {
	return s.Strings(ctx, `SELECT doc_id FROM fulltext_pending`)
}

// PendingCount returns how many full-text documents the store logged and bleve was not
// confirmed to have: none between index runs, unless a run did not finish (killed,
// crashed); the next writer replays them.
func (s *Store) PendingCount(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM fulltext_pending`).Scan(&n); err != nil {
		return 0, fmt.Errorf("index: count the full-text log: %w", err)
	}
	return n, nil
}

// ClearPending forgets the given pending documents: bleve has them.
func (s *Store) ClearPending(ctx context.Context, docIDs []string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `DELETE FROM fulltext_pending WHERE doc_id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, id := range docIDs {
		if _, err := stmt.ExecContext(ctx, id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// marshalMeta encodes symbol metadata as JSON ("" when empty).
func marshalMeta(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m) // a map[string]string always encodes
	return string(b)
}

// unmarshalMeta decodes symbol metadata.
func unmarshalMeta(s string) map[string]string {
	if s == "" {
		return nil
	}
	var m map[string]string
	if json.Unmarshal([]byte(s), &m) != nil {
		return nil
	}
	return m
}

// FileRecord is a file to store with what was extracted from it.
type FileRecord struct {
	Path     string
	Language string
	Hash     string
	Size     int64
	MTime    int64
	Content  []byte
	Extract  *extract.File      // nil for a file without an extractor (content only)
	Skipped  extract.SkipReason // why the file is not indexed (then Content is empty), or ""
}

// Document ids: a prefix for the kind of document, then the id of what it stands for.
const (
	SymbolDocPrefix = "s:"
	FileDocPrefix   = "f:"
)

// SymbolDocID returns the document id of the symbol with the store id symbolID.
func SymbolDocID(symbolID string) string { return SymbolDocPrefix + symbolID }

// FileDocID returns the document id of the file at path.
func FileDocID(path string) string { return FileDocPrefix + path }

// MaxSQLParams caps the parameters of one SQLite statement.
const MaxSQLParams = 30000
