package clusterops

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// localPair is one process over clusterRepos' two repositories: a-go the primary
// workspace, b-py a reference.
func localPair(t testing.TB, roots map[string]string) *tools.Service {
	t.Helper()
	local, err := tools.NewService(roots["a-go"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := local.Workspace(context.Background(), tools.WorkspaceRequest{Operation: "add", Path: roots["b-py"], Name: "b-py"}); err != nil {
		t.Fatal(err)
	}
	return local
}

// pageKeys follows req's pages, a result a page, and returns their hits' keys (hitKeys).
func pageKeys(t testing.TB, svc *tools.Service, req tools.SearchRequest, names map[string]string) []string {
	t.Helper()
	one := 1
	req.Limit = &one
	var keys []string
	for range 100 {
		res, err := svc.Search(context.Background(), req)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		keys = append(keys, testkit.HitKeys(res.Results, names)...)
		if res.NextCursor == "" {
			return keys
		}
		req.Cursor = res.NextCursor
	}
	t.Fatalf("%+v: more than 100 pages", req)
	return nil
}

// benchMedian runs op once to warm up, then b.N times, and reports the median as p50-ms.
func benchMedian(b *testing.B, op func() error) {
	if err := op(); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
}
