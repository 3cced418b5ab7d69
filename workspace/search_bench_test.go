package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/index/search"
)

// benchQueries are the queries of BenchmarkSearch per target: names, fragments, words and
// phrases a developer types, common and rare.
var benchQueries = map[search.Target][]string{
	search.TargetDefinitions: {"ServeHTTP", "HandlerFunc", "get_user_data", "parse", "NewReader", "connection pool", "Model", "hash_table_insert", "tokenize", "String",
		"delete a folder and everything inside it", "read the whole file into a string"}, // prose
	search.TargetContent: {"connection pool", `"context deadline exceeded"`, "TODO", "unsafe pointer", "retry", "mutex lock", "json.Marshal", "import numpy", "fn main", "malloc"},
	search.TargetAuto:    {"ServeHTTP", "HandlerFunc", "connection pool", "index.ts", "mod.rs", "parse config", "UserService", `"not implemented"`, "Reader", "sort.Slice"},
	search.TargetFiles:   {"server.go", "mod.rs", "index.ts", "http/client", "test_utils", "README"},
}

// BenchmarkSearch measures warm search latency per target on the workspace at
// QUARRY_CORPUS, which must be indexed (quarry index). It reports the median and 95th
// percentile of single queries as p50-ms and p95-ms.
func BenchmarkSearch(b *testing.B) {
	root := os.Getenv("QUARRY_CORPUS")
	if root == "" {
		b.Skip("QUARRY_CORPUS is not set: point it at an indexed workspace (bench/corpus.sh full)")
	}
	root, err := CanonicalDir(root)
	if err != nil {
		b.Fatal(err)
	}
	e := Entry{ID: ID(root), Root: root, Name: filepath.Base(root)}
	x, err := OpenSearch(e, IndexDir(root, e.ID))
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	for _, target := range []search.Target{search.TargetDefinitions, search.TargetContent, search.TargetAuto, search.TargetFiles} {
		b.Run(string(target), func(b *testing.B) {
			var reqs []search.Request
			for _, text := range benchQueries[target] {
				reqs = append(reqs, withDefaults(search.Request{Query: q(text), Target: target}))
			}
			for _, req := range reqs { // warm up: caches, mmaps, the path list
				if _, err := Search(ctx, []*SearchIndex{x}, req); err != nil {
					b.Fatal(err)
				}
			}
			var lat []time.Duration
			i := 0
			for b.Loop() {
				start := time.Now()
				if _, err := Search(ctx, []*SearchIndex{x}, reqs[i%len(reqs)]); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				i++
			}
			slices.Sort(lat)
			b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
			b.ReportMetric(ms(lat[len(lat)*95/100]), "p95-ms")
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
