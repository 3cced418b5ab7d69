package workspace

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/quarrysearch/quarry/index/store"
)

// A comparison of the disk with the index (compareDisk: every search without a watcher, and
// health) keeps what it learnt in fresh.cache, beside the store, so that the next one reads
// less:
//
//   - each directory's entries (names and types) with the directory's modification time:
//     a directory's entries change only with its modification time (a file created,
//     removed or renamed in it), so a directory whose time has not moved is not listed
//     again; its files are still looked at one by one (an edit in place moves only the
//     file's time). A listing taken less than racyListing after the directory's time is not
//     trusted (a change in the same clock tick would not move the time), as git does with
//     its index;
//   - the stored files' sizes and times, under the store's StateKey: read again from the
//     store only when a batch was committed since.
//
// The cache is only ever a copy: a missing, unreadable or foreign file is ignored and
// written again, and nothing in it is trusted without its key or its directory's time.

// freshCacheFile is the cache's name in the store's directory.
const freshCacheFile = "fresh.cache"

// freshCacheMagic starts the file; its last byte is the format's version.
const freshCacheMagic = "QFC\x01"

// racyListing: a listing taken less than this after its directory's time is listed again.
const racyListing = time.Second

// storedState is what the comparison needs of a stored file.
type storedState struct{ size, mtime int64 }

// dirListing is one directory's entries as a walk read them.
type dirListing struct {
	mtime    int64 // the directory's modification time, Unix ns, read before its entries
	listedAt int64 // when they were read, Unix ns
	entries  []cachedEntry
}

// cachedEntry is a directory entry from the cache: an os.DirEntry whose Info reads the
// file's current stat data.
type cachedEntry struct {
	dir  *string // the directory's absolute path, shared by its entries
	name string
	typ  fs.FileMode
}

func (e cachedEntry) Name() string               { return e.name }
func (e cachedEntry) IsDir() bool                { return e.typ.IsDir() }
func (e cachedEntry) Type() fs.FileMode          { return e.typ }
func (e cachedEntry) Info() (fs.FileInfo, error) { return os.Lstat(walkAbsPath(*e.dir, e.name)) }

// freshCache is fresh.cache in memory: what the last comparison read, and what this one
// reads (the next file's content).
type freshCache struct {
	path string // "" when there is no place to keep it

	stateKey string // the store's StateKey the states are of ("": none)
	states   map[string]storedState

	mu       sync.Mutex            // guards what follows, and the states once read again
	old      map[string]dirListing // the listings read from the file, by directory (rel)
	next     map[string]dirListing // the listings this walk used, by directory
	relisted bool                  // a directory was listed again, or the states read again
	files    int                   // how many states the file held: the size of the next walk
}

// loadFreshCache reads the cache of the index whose store is in storeDir; a missing or
// unreadable one is an empty cache.
func loadFreshCache(storeDir string) *freshCache {
	c := &freshCache{old: map[string]dirListing{}, next: map[string]dirListing{}}
	if storeDir == "" {
		return c
	}
	c.path = filepath.Join(storeDir, freshCacheFile)
	data, err := os.ReadFile(c.path)
	if err != nil || c.decode(data) != nil {
		c.stateKey, c.states, c.old = "", nil, map[string]dirListing{}
	}
	c.files = len(c.states)
	return c
}

// listing returns the entries of the directory abs (rel below the root): the cached ones
// when its time has not moved, else read now (and kept for the next file).
func (c *freshCache) listing(abs, rel string) ([]os.DirEntry, error) {
	now := time.Now().UnixNano()
	info, err := os.Lstat(abs)
	if err != nil || !info.IsDir() {
		return os.ReadDir(abs) // says what is wrong, as an uncached walk does
	}
	mtime := info.ModTime().UnixNano()
	c.mu.Lock()
	old, ok := c.old[rel]
	c.mu.Unlock()
	if ok && old.mtime == mtime && old.listedAt-mtime >= int64(racyListing) {
		dir := abs
		out := make([]os.DirEntry, len(old.entries))
		for i, e := range old.entries {
			e.dir = &dir
			out[i] = e
		}
		c.mu.Lock()
		c.next[rel] = old
		c.mu.Unlock()
		return out, nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return entries, err // an unreadable directory is never cached: listed every time
	}
	l := dirListing{mtime: mtime, listedAt: now, entries: make([]cachedEntry, len(entries))}
	for i, e := range entries {
		l.entries[i] = cachedEntry{name: e.Name(), typ: e.Type()}
	}
	c.mu.Lock()
	c.next[rel] = l
	c.relisted = true
	c.mu.Unlock()
	return entries, nil
}

// storedStates returns the stored files' sizes and times: the cached ones when the store's
// StateKey is the one they were read under, else read from the store now.
func (c *freshCache) storedStates(ctx context.Context, st *store.Store) (map[string]storedState, error) {
	key, err := st.StateKey(ctx)
	if err != nil {
		return nil, err
	}
	if key != "" && key == c.stateKey && c.states != nil {
		return c.states, nil
	}
	// the key first: rows read after it are of that state or a later one, and a later one
	// moves the key, so they are never kept under a key older than themselves
	files, err := st.Files(ctx)
	if err != nil {
		return nil, err
	}
	states := make(map[string]storedState, len(files))
	for p, f := range files {
		states[p] = storedState{size: f.Size, mtime: f.MTime}
	}
	c.mu.Lock()
	c.stateKey, c.states, c.relisted = key, states, true
	c.mu.Unlock()
	return states, nil
}

// save writes what this comparison read for the next one, when it read anything anew or
// left a directory out: atomically (a new file renamed over the old), private to the
// owner. It fails quietly: the cache only saves work.
func (c *freshCache) save() {
	if c.path == "" || !c.relisted && len(c.next) == len(c.old) {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), freshCacheFile+".*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(c.encode())
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Chmod(tmp.Name(), 0o600) != nil || os.Rename(tmp.Name(), c.path) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// The file: the magic, then varint-prefixed strings and varints: the state key, the number
// of states, each state (path, size, mtime); the number of listings, each listing
// (directory, mtime, listedAt, number of entries, each entry: name, type bits).

func (c *freshCache) encode() []byte {
	b := []byte(freshCacheMagic)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	str(c.stateKey)
	num(int64(len(c.states)))
	for p, s := range c.states {
		str(p)
		num(s.size)
		num(s.mtime)
	}
	num(int64(len(c.next)))
	for rel, l := range c.next {
		str(rel)
		num(l.mtime)
		num(l.listedAt)
		num(int64(len(l.entries)))
		for _, e := range l.entries {
			str(e.name)
			num(int64(e.typ))
		}
	}
	return b
}

var errBadCache = errors.New("not a cache of this Quarry")

func (c *freshCache) decode(data []byte) error {
	if len(data) < len(freshCacheMagic) || string(data[:len(freshCacheMagic)]) != freshCacheMagic {
		return errBadCache
	}
	all := string(data) // one copy: every name below is a slice of it
	i := len(freshCacheMagic)
	var bad bool
	num := func() int64 {
		v, n := binary.Varint(data[i:])
		if n <= 0 {
			bad = true
			return 0
		}
		i += n
		return v
	}
	str := func() string {
		l, n := binary.Uvarint(data[i:])
		if n <= 0 || uint64(len(data)-i-n) < l {
			bad = true
			return ""
		}
		i += n
		s := all[i : i+int(l)]
		i += int(l)
		return s
	}
	count := func() int {
		v := num()
		if v < 0 || v > int64(len(data)) {
			bad = true
			return 0
		}
		return int(v)
	}
	c.stateKey = str()
	n := count()
	c.states = make(map[string]storedState, n)
	for range n {
		if bad {
			return errBadCache
		}
		p := str()
		c.states[p] = storedState{size: num(), mtime: num()}
	}
	n = count()
	for range n {
		if bad {
			return errBadCache
		}
		rel := str()
		l := dirListing{mtime: num(), listedAt: num()}
		k := count()
		l.entries = make([]cachedEntry, 0, k)
		for range k {
			name := str()
			l.entries = append(l.entries, cachedEntry{name: name, typ: fs.FileMode(num())})
		}
		c.old[rel] = l
	}
	if bad || i != len(data) {
		return fmt.Errorf("%w: %d bytes left over", errBadCache, len(data)-i)
	}
	return nil
}
