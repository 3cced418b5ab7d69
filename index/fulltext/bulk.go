package fulltext

// Filling an empty full-text index in bulk (a first load, a rebuild from the store): bleve's
// offline builder instead of scorch's batches.
//
// Scorch checks every document of a batch against every segment it already has (the
// batch's ids looked up in each segment's id dictionary, in case the batch replaces one):
// a first load of corpus.sh full in 434 batches made 434 segments and spent 27 s of 322 s of
// CPU on those lookups, for documents that cannot be there. It also built a term
// dictionary per batch and merged them all at the end (24 s and 37 s). The builder writes a
// segment every ftBulkSegmentDocs documents, checks nothing, and merges its segments into
// one in a single pass when it finishes: the index comes out compacted.
//
// While it runs the index cannot be searched (a writer's searcher is nil during a first
// load anyway). A run that stops before finishing leaves ftDir without the version mark
// (ftCheck then reports it stale or corrupt, and it is rebuilt) and a build directory that
// the next bulk fill, or the next writer, removes.

import (
	"context"
	"path/filepath"
	"time"

	"fmt"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"os"

	"github.com/blevesearch/bleve/v2"

	"github.com/quarrysearch/quarry/index/store"
)

// ftBulkSegmentDocs is how many documents the builder puts in one segment before the final
// merge: more make fewer segments to merge but hold more documents in memory at once.
const ftBulkSegmentDocs = 5000

// ftBulk is an index being filled by bleve's builder.
type ftBulk struct {
	b        bleve.Builder
	dir      string // the index's directory
	buildDir string // the builder's segments before the merge (ftBuildDir)
	version  string
	added    int
}

// BuildDir is where the builder of the index in dir keeps its segments.
func BuildDir(dir string) string { return dir + ".build" }

// StartBulk empties the index and starts filling it in bulk: until finishBulk, batches add
// documents to the builder, and the index cannot be searched.
func (f *Index) StartBulk() error {
	f.dropBulk()
	if f.idx != nil {
		if err := f.idx.Close(); err != nil {
			return fmt.Errorf("index: close the full-text index for a bulk fill: %w", err)
		}
		f.idx = nil
	}
	if err := os.RemoveAll(f.dir); err != nil {
		return fmt.Errorf("index: empty the full-text index: %w", err)
	}
	return f.newBulk()
}

func (f *Index) newBulk() error {
	build := BuildDir(f.dir)
	if err := os.RemoveAll(build); err != nil {
		return fmt.Errorf("index: remove the full-text build directory: %w", err)
	}
	if err := os.MkdirAll(build, store.DirMode); err != nil {
		return fmt.Errorf("index: full-text build directory: %w", err)
	}
	im, err := ftIndexMapping(f.reg, f.opts)
	if err != nil {
		return err
	}
	version, err := ftVersionOf(f.reg, f.opts)
	if err != nil {
		return err
	}
	b, err := bleve.NewBuilder(f.dir, im, map[string]any{
		"buildPathPrefix": build,
		"batchSize":       ftBulkSegmentDocs,
		"mergeMax":        1 << 30, // one merge of every segment
	})
	if err != nil {
		return fmt.Errorf("index: start a bulk fill of the full-text index: %w", err)
	}
	f.bulk = &ftBulk{b: b, dir: f.dir, buildDir: build, version: version}
	return nil
}

// dropBulk abandons a bulk fill: the builder's segments are removed; the index directory is
// left without its version mark.
func (f *Index) dropBulk() {
	if f.bulk == nil {
		return
	}
	_ = os.RemoveAll(f.bulk.buildDir)
	f.bulk = nil
}

// FinishBulk merges the builder's segments into the index, marks it with its version and
// opens it.
func (f *Index) FinishBulk() error {
	bk := f.bulk
	if bk == nil {
		return nil
	}
	f.bulk = nil
	defer os.RemoveAll(bk.buildDir)
	if bk.added == 0 {
		// The builder cannot finish with no segment: an empty index is created instead.
		if err := os.RemoveAll(bk.dir); err != nil {
			return fmt.Errorf("index: empty the full-text index: %w", err)
		}
		idx, err := ftCreate(bk.dir, f.reg, f.opts, bk.version)
		if err != nil {
			return err
		}
		f.idx = idx
		return nil
	}
	if err := bk.b.Close(); err != nil {
		return fmt.Errorf("index: finish the bulk fill of the full-text index: %w", err)
	}
	if err := store.Tighten(bk.dir); err != nil {
		return err
	}
	idx, err := bleve.OpenUsing(bk.dir, map[string]any{"bolt_timeout": ftLockTimeout})
	if err != nil {
		return fmt.Errorf("index: open the full-text index after a bulk fill: %w", err)
	}
	if err := idx.SetInternal([]byte(ftVersionKey), []byte(bk.version)); err != nil {
		_ = idx.Close()
		return fmt.Errorf("index: mark the full-text index's version: %w", err)
	}
	f.idx = idx
	return nil
}

// bulkAdd adds the documents of b to the builder.
func (f *Index) bulkAdd(b *Batch) error {
	for _, d := range b.docs {
		if err := f.bulk.b.Index(d.id, d.doc); err != nil {
			return fmt.Errorf("index: fulltext add %s: %w", docID(d.id), err)
		}
		f.bulk.added++
	}
	return nil
}

// compactWait bounds Compact's wait for scorch to remove the merged segments' files.
const compactWait = 30 * time.Second

// Compact merges the index's segments into one (a copy about to be shipped: an edit's
// segments and the deleted documents of the ones before go). An index not kept by scorch
// is left as it is.
func (f *Index) Compact(ctx context.Context) error {
	if f.idx == nil {
		return nil
	}
	adv, err := f.idx.Advanced()
	if err != nil {
		return err
	}
	if sc, ok := adv.(*scorch.Scorch); ok {
		if err := sc.ForceMerge(ctx, nil); err != nil {
			return fmt.Errorf("index: merge the full-text index's segments: %w", err)
		}
		// Scorch removes the merged segments' files once it has persisted the merge, in
		// the background: wait for that, so that they are not shipped. It takes
		// milliseconds, and over 3 s under the race detector on a busy machine; the bound
		// only keeps a stuck removal from holding an upload for good.
		for deadline := time.Now().Add(compactWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			zaps, _ := filepath.Glob(filepath.Join(f.dir, "store", "*.zap"))
			if len(zaps) <= 1 {
				break
			}
		}
	}
	return nil
}
