package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/quarrysearch/quarry/index/store"
)

// Clean deletes the index directories under the primary root that no registry entry points
// to, and returns their ids.
func Clean(primaryRoot string, reg *Registry) ([]string, error) {
	dir := filepath.Join(primaryRoot, DataDir, indexesDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: clean: %w", err)
	}
	known := map[string]bool{}
	for _, e := range reg.All() {
		known[e.ID] = true
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || known[e.Name()] {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if isLocked(p) {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			return removed, fmt.Errorf("workspace: clean: %w", err)
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// StoreCounts returns the counts of the index in indexDir, or an error when it has none.
func StoreCounts(ctx context.Context, indexDir string) (store.Counts, error) {
	p := StorePath(indexDir)
	if _, err := os.Stat(p); err != nil {
		return store.Counts{}, err
	}
	s, err := store.Open(p)
	if err != nil {
		return store.Counts{}, err
	}
	defer s.Close()
	return s.Counts(ctx)
}
