package fulltext

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bolterrors "go.etcd.io/bbolt/errors"
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

// OpenFulltextReader opens the full-text index in dir read-only, for searching. Unlike
// openFulltext it never removes or rebuilds anything: an index built by another
// FulltextVersion (older tokenizer rules, a reference workspace indexed by an older Quarry) is
// opened as it is, with status FulltextStale, and its analyzers are the ones defined in its
// own mapping, so its queries are tokenized by the rules its terms were made with. With no
// index in dir, or one that cannot be opened, it returns a nil Fulltext and the status
// FulltextCreated or FulltextCorrupt. A writer holding the index open gives ErrFulltextLocked.
func OpenFulltextReader(dir string) (*Fulltext, FulltextStatus, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), err == nil && len(entries) == 0:
		return nil, FulltextCreated, nil
	case err != nil:
		return nil, FulltextCorrupt, nil
	}
	// One read-only open: the version check and the scorch snapshot check of ftCheck are
	// for writers; a search process opens the index as it is (a third of a one-shot
	// search's time went to opening it twice).
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true, "bolt_timeout": ftLockTimeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, "", fmt.Errorf("index: open fulltext %s: %w", dir, ErrFulltextLocked)
	}
	if err != nil {
		return nil, FulltextCorrupt, nil
	}
	got, err := idx.GetInternal([]byte(ftVersionKey))
	if err != nil || len(got) == 0 {
		_ = idx.Close()
		return nil, FulltextCorrupt, nil
	}
	status := FulltextReady
	if version, err := FulltextVersion(); err != nil {
		_ = idx.Close()
		return nil, "", err
	} else if string(got) != version {
		status = FulltextStale
	}
	return &Fulltext{idx: idx}, status, nil
}

// Analyzer returns the analyzer f's mapping defines for the language named lang (canonical
// name), or its language-neutral analyzer when lang is "" or was not known when f was built.
func (f *Fulltext) Analyzer(lang string) analysis.Analyzer {
	m := f.idx.Mapping()
	if a := m.AnalyzerNamed(ftAnalyzerName(lang)); a != nil && lang != "" {
		return a
	}
	return m.AnalyzerNamed(ftNeutralAnalyzer)
}
