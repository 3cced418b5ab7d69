package workspace

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
)

var updateBaseline = flag.Bool("update-baseline", false, "write the search quality figures as the new baseline")

// qualityGolden is one ranking golden of testdata/search/goldens.json.
type qualityGolden struct {
	Query       string `json:"query"`
	Target      string `json:"target"`
	Lang        string `json:"lang"`
	Kind        string `json:"kind"`
	FilePattern string `json:"file_pattern"`
	Expect      struct {
		Path string `json:"path"`
		Name string `json:"name"`
		Line int    `json:"line"`
		Hit  string `json:"hit"`
	} `json:"expect"`
	Why string `json:"why"`
}

// qualityBaseline is testdata/search/baseline.json: the figures the suite must not drop below.
type qualityBaseline struct {
	Goldens int     `json:"goldens"`
	Top1    float64 `json:"top1"`
	MRR     float64 `json:"mrr"`
}

const qualityDepth = 10 // results looked at for the reciprocal rank

// TestSearchQuality indexes the fixture repository and runs every ranking golden: it reports
// top-1 (the expected result ranked first) and MRR (mean reciprocal rank within the first
// qualityDepth), and fails when either drops below the committed baseline.
func TestSearchQuality(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join("..", "testdata", "search")
	data, err := os.ReadFile(filepath.Join(dir, "goldens.json"))
	if err != nil {
		t.Fatal(err)
	}
	var goldens []qualityGolden
	if err := json.Unmarshal(data, &goldens); err != nil {
		t.Fatalf("goldens.json: %v", err)
	}
	if len(goldens) < 40 {
		t.Fatalf("%d goldens, want at least 40", len(goldens))
	}
	root, err := filepath.Abs(filepath.Join(dir, "repo"))
	if err != nil {
		t.Fatal(err)
	}
	indexDir := t.TempDir()
	if _, err := Index(ctx, root, indexDir, langs(t), IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	x, err := OpenSearch(Entry{ID: "fixture", Root: root}, indexDir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()

	top1, mrr := 0, 0.0
	var misses []string
	for _, g := range goldens {
		rank, got, err := qualityRank(ctx, x, g)
		if err != nil {
			t.Errorf("%q (%s): %v", g.Query, g.Target, err)
			continue
		}
		if rank == 1 {
			top1++
		}
		if rank > 0 {
			mrr += 1 / float64(rank)
		}
		if rank != 1 {
			misses = append(misses, fmt.Sprintf("rank %d: %q target=%s lang=%s kind=%s pattern=%s: want %s %s:%d %s; first: %s",
				rank, g.Query, g.Target, g.Lang, g.Kind, g.FilePattern, g.Expect.Hit, g.Expect.Path, g.Expect.Line, g.Expect.Name, got))
		}
	}
	n := float64(len(goldens))
	cur := qualityBaseline{Goldens: len(goldens), Top1: round3(float64(top1) / n), MRR: round3(mrr / n)}
	t.Logf("search quality: %d goldens, top-1 %.3f (%d), MRR %.3f", len(goldens), cur.Top1, top1, cur.MRR)
	for _, m := range misses {
		t.Log(m)
	}
	basePath := filepath.Join(dir, "baseline.json")
	if *updateBaseline {
		out, _ := json.MarshalIndent(cur, "", "  ")
		if err := os.WriteFile(basePath, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err = os.ReadFile(basePath)
	if err != nil {
		t.Fatalf("no baseline (run with -update-baseline to write one): %v", err)
	}
	var base qualityBaseline
	if err := json.Unmarshal(data, &base); err != nil {
		t.Fatalf("baseline.json: %v", err)
	}
	if cur.Top1 < base.Top1 || cur.MRR < base.MRR {
		t.Errorf("search quality dropped: top-1 %.3f (baseline %.3f), MRR %.3f (baseline %.3f)", cur.Top1, base.Top1, cur.MRR, base.MRR)
	}
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

// qualityRank runs one golden and returns the 1-based rank of its expected result (0: not
// within qualityDepth) and a description of the first result.
func qualityRank(ctx context.Context, x *SearchIndex, g qualityGolden) (int, string, error) {
	target, err := search.ParseTarget(g.Target)
	if err != nil {
		return 0, "", err
	}
	parsed, err := query.Parse(g.Query)
	if err != nil {
		return 0, "", err
	}
	req := search.Request{Query: parsed, Target: target, Language: g.Lang, Limit: qualityDepth}
	if g.Kind != "" {
		req.Kinds = strings.Split(g.Kind, ",")
	}
	if req.Pattern, err = query.ParseFilePattern(g.FilePattern); err != nil {
		return 0, "", err
	}
	res, err := Search(ctx, []*SearchIndex{x}, req)
	if err != nil {
		return 0, "", err
	}
	first := "nothing"
	if len(res.Hits) > 0 {
		h := res.Hits[0]
		first = fmt.Sprintf("%s %s:%d %s", h.Hit, h.Path, h.Line, h.Name)
	}
	for i, h := range res.Hits {
		e := g.Expect
		if h.Path == e.Path && (e.Name == "" || h.Name == e.Name) && (e.Line == 0 || h.Line == e.Line) && (e.Hit == "" || string(h.Hit) == e.Hit) {
			return i + 1, first, nil
		}
	}
	return 0, first, nil
}
