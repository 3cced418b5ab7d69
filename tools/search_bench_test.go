package tools

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/index/query"
)

// benchExprQueries are query-language searches of BenchmarkExprSearch: the content regexes
// of the issue, compared with zoekt in bench/, and fielded definition searches.
var benchExprQueries = []struct{ name, q, target string }{
	{"regex_server_method", `/func \(\w+ \*Server\) \w+\(/`, "content"},
	{"regex_exception_class", `/class \w+(Exception|Error)\b/`, "content"},
	{"regex_todo_fixme", `/TODO|FIXME/`, "content"},
	{"fields_go_serve", `kind:(function OR method) lang:go name:Serve* -path:**/*_test.go`, "auto"},
	{"doc_phrase", `doc:"connection pool" -lang:java`, "auto"},
	{"case_context", `case:yes Context lang:go -file:_test`, "auto"},
	{"plain_word", `ServeHTTP`, "auto"},
}

// BenchmarkExprSearch measures warm query-language searches through the service, as the
// MCP server runs them (the index kept open), on the workspace at QUARRY_CORPUS, which must
// be indexed. It reports each query's median as p50-ms.
func BenchmarkExprSearch(b *testing.B) {
	s := corpusService(b)
	for _, bq := range benchExprQueries {
		b.Run(bq.name, func(b *testing.B) {
			req := SearchRequest{Query: bq.q, Target: bq.target}
			if bq.target == "content" {
				limit := 500 // a page of lines, as bench/regex.sh asks zoekt and Quarry
				req.Limit = &limit
			}
			benchSearch(b, s, req)
		})
	}
}

// BenchmarkParseCompile parses a query of 20 clauses and checks it as a search request
// (the expression, its directives and fields), without searching.
func BenchmarkParseCompile(b *testing.B) {
	q := `kind:(function OR method) lang:go name:Serve* -path:**/*_test.go doc:"connection pool"~2 ` +
		`body:retry^2 parent:Server vis:public line:[10 TO 500] ext:go case:yes Context ` +
		`/func \w+Handler\(/ test:no (sig:context OR sig:ctx) parse~1 "not implemented" ` +
		`NOT deprecated`
	s, err := NewService(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if !query.Engages(q) {
		b.Fatal("the query does not engage the parser")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ParseQuery(SearchRequest{Query: q}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWarmSearch measures the queries of bench/warm-queries.txt as bench/warm.sh sends
// them to the MCP server (target auto, limit 20, the agents' byte budget), in-process, on
// the indexed workspace at QUARRY_CORPUS. It reports each query's median as p50-ms; run
// one with -bench 'BenchmarkWarmSearch/NAME' -cpuprofile to see where its time goes.
func BenchmarkWarmSearch(b *testing.B) {
	s := corpusService(b)
	s.MaxBytes = AgentMaxBytes
	data, err := os.ReadFile("../bench/warm-queries.txt")
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		q := strings.TrimSpace(line)
		if q == "" || strings.HasPrefix(q, "#") {
			continue
		}
		b.Run(q, func(b *testing.B) {
			req := SearchRequest{Query: q, Target: "auto", Limit: intp(20)}
			benchSearch(b, s, req)
		})
	}
}

// benchSearch runs req once to warm up, then b.N times, and reports the median as p50-ms.
func benchSearch(b *testing.B, s *Service, req SearchRequest) {
	benchMedian(b, func() error { _, err := s.Search(context.Background(), req); return err })
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

// benchDocQueries are query documents of BenchmarkDocumentSearch: vec: alone, and fused
// with lex:.
var benchDocQueries = []struct{ name, q string }{
	{"vec_range_header", "vec: parse the byte range header"},
	{"vec_retry_upload", "vec: where do we retry failed uploads"},
	{"vec_cookie", "vec: expire a cookie so the browser drops it"},
	{"fused_range_header", "lex: range header\nvec: parse the byte range header"},
	{"fused_pool", "lex: connection pool\nvec: reuse idle connections to a host"},
}

// BenchmarkDocumentSearch measures warm query documents (the vectors loaded) through the
// service on the workspace at QUARRY_CORPUS, indexed with its symbol vectors; each query's
// median as p50-ms.
func BenchmarkDocumentSearch(b *testing.B) {
	s := corpusService(b)
	for _, bq := range benchDocQueries {
		b.Run(bq.name, func(b *testing.B) {
			benchSearch(b, s, SearchRequest{Query: bq.q})
		})
	}
}

// corpusService is the service of the indexed workspace at QUARRY_CORPUS, keeping its
// indexes open (as the MCP server does); the benchmark is skipped without one.
func corpusService(b *testing.B) *Service {
	b.Helper()
	root := os.Getenv("QUARRY_CORPUS")
	if root == "" {
		b.Skip("QUARRY_CORPUS is not set: point it at an indexed workspace (bench/corpus.sh full)")
	}
	s, err := NewService(root)
	if err != nil {
		b.Fatal(err)
	}
	s.Keep = time.Hour
	return s
}
