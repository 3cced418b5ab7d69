// Package workspace turns a directory into an index and keeps it current: it finds the
// workspace root, discovers the files to index (ignore rules, size, binary and minified
// filters), re-indexes only what changed, keeps the registry of reference workspaces, and
// reports the index's health.
package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/cespare/xxhash/v2"

	"github.com/quarrysearch/quarry/index/store"
)

// Names inside a workspace's .quarry directory (see DESIGN.md, "Data on disk").
const (
	DataDir      = ".quarry"
	registryFile = "registry.json"
	indexesDir   = "indexes"
	logsDir      = "logs"
	storeFile    = "db/symbols.db"
	fulltextDir  = "fulltext"
)

// ErrNotDirectory is returned for a workspace path that is not a directory.
var ErrNotDirectory = errors.New("not a directory")

// FindRoot returns the workspace root for a command run in dir: the nearest directory at or
// above dir that holds .quarry/, failing that the root of the enclosing git work tree, failing
// that dir itself.
func FindRoot(dir string) (string, error) {
	abs, err := CanonicalDir(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if isDir(filepath.Join(d, DataDir)) {
			return d, nil
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, gitMetadataDir)); err == nil {
			return d, nil
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return abs, nil
}

// CanonicalDir returns the absolute path of dir with symlinks resolved, or an error that says
// what is wrong with it.
func CanonicalDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("workspace: %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("workspace: %s does not exist: %w", dir, os.ErrNotExist)
		}
		return "", fmt.Errorf("workspace: %s: %w", dir, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("workspace: %s: %w", dir, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("workspace: %s is a file, want a directory: %w", dir, ErrNotDirectory)
	}
	if _, err := os.ReadDir(real); err != nil {
		return "", fmt.Errorf("workspace: %s is not readable: %w", dir, err)
	}
	return real, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ID returns the workspace id of a canonical root: its sanitized directory name, "_", and the
// first 8 hex digits of a hash of the path, so two checkouts of one project never collide.
func ID(root string) string {
	name := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' {
			return unicode.ToLower(r)
		}
		return '_'
	}, filepath.Base(root))
	name = strings.Trim(name, "_.")
	if name == "" {
		name = "root"
	}
	return fmt.Sprintf("%s_%08x", name, uint32(xxhash.Sum64String(filepath.ToSlash(root))>>32))
}

// IndexDir returns the directory that holds the index of workspace id, under the primary
// workspace's data directory.
func IndexDir(primaryRoot, id string) string {
	return filepath.Join(primaryRoot, DataDir, indexesDir, id)
}

// StorePath returns the SQLite store of an index directory.
func StorePath(indexDir string) string { return filepath.Join(indexDir, filepath.FromSlash(storeFile)) }

// FulltextPath returns the bleve index directory of an index directory.
func FulltextPath(indexDir string) string { return filepath.Join(indexDir, fulltextDir) }

// tighten makes the data directory that holds indexDir (all of .quarry/: the registry, the
// socket, every index) private to its owner, as an older Quarry may have left it readable
// by everyone (store.Tighten). An index directory outside a data directory is tightened
// alone.
func tighten(indexDir string) error {
	dir := indexDir
	if parent := filepath.Dir(indexDir); filepath.Base(parent) == indexesDir && filepath.Base(filepath.Dir(parent)) == DataDir {
		dir = filepath.Dir(parent)
	}
	return store.Tighten(dir)
}
