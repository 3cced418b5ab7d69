package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/blevesearch/bleve/v2"
)

// InspectFulltext reports the state of the full-text index in dir without changing it: its
// status (FulltextCreated meaning there is none) and, when it is ready, its symbol and file
// document counts. A writer holding the index open gives ErrFulltextLocked.
func InspectFulltext(dir string) (status FulltextStatus, symbols, files uint64, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0 {
		return FulltextCreated, 0, 0, nil
	}
	version, err := FulltextVersion()
	if err != nil {
		return "", 0, 0, err
	}
	status, err = ftCheck(dir, version)
	if err != nil || status != FulltextReady {
		return status, 0, 0, err
	}
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true, "bolt_timeout": ftLockTimeout})
	if err != nil {
		return FulltextCorrupt, 0, 0, fmt.Errorf("index: inspect fulltext %s: %w", dir, err)
	}
	f := &Fulltext{idx: idx}
	defer f.Close()
	symbols, files, err = f.Counts()
	return FulltextReady, symbols, files, err
}
