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

// Inspect reports the state of the full-text index in dir without changing it: its
// status (Created meaning there is none) and, when it is ready, its symbol document count.
// A writer holding the index open gives ErrLocked.
func Inspect(dir string) (status Status, symbols uint64, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0 {
		return Created, 0, nil
	}
	version, err := Version()
	if err != nil {
		return "", 0, err
	}
	status, err = ftCheck(dir, version)
	if err != nil || status != Ready {
		return status, 0, err
	}
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true, "bolt_timeout": ftLockTimeout})
	if err != nil {
		return Corrupt, 0, fmt.Errorf("index: inspect fulltext %s: %w", dir, err)
	}
	f := &Index{idx: idx}
	defer f.Close()
	symbols, err = f.Symbols()
	return Ready, symbols, err
}

// OpenReader opens the full-text index in dir read-only, for searching. Unlike
// openFulltext it never removes or rebuilds anything: an index built by another
// Version (older tokenizer rules, a reference workspace indexed by an older Quarry) is
// opened as it is, with status Stale, and its analyzers are the ones defined in its
// own mapping, so its queries are tokenized by the rules its terms were made with. With no
// index in dir, or one that cannot be opened, it returns a nil Index and the status
// Created or Corrupt. A writer holding the index open gives ErrLocked.
func OpenReader(dir string) (*Index, Status, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), err == nil && len(entries) == 0:
		return nil, Created, nil
	case err != nil:
		return nil, Corrupt, nil
	}
	// One read-only open: the version check and the scorch snapshot check of ftCheck are
	// for writers; a search process opens the index as it is (a third of a one-shot
	// search's time went to opening it twice).
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true, "bolt_timeout": ftLockTimeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, "", fmt.Errorf("index: open fulltext %s: %w", dir, ErrLocked)
	}
	if err != nil {
		return nil, Corrupt, nil
	}
	got, err := idx.GetInternal([]byte(ftVersionKey))
	if err != nil || len(got) == 0 {
		_ = idx.Close()
		return nil, Corrupt, nil
	}
	status := Ready
	if version, err := Version(); err != nil {
		_ = idx.Close()
		return nil, "", err
	} else if string(got) != version {
		status = Stale
	}
	return &Index{idx: idx}, status, nil
}

// Analyzer returns the analyzer f's mapping defines for the language named lang (canonical
// name), or its language-neutral analyzer when lang is "" or was not known when f was built.
func (f *Index) Analyzer(lang string) analysis.Analyzer {
	m := f.idx.Mapping()
	if a := m.AnalyzerNamed(ftAnalyzerName(lang)); a != nil && lang != "" {
		return a
	}
	return m.AnalyzerNamed(ftNeutralAnalyzer)
}
