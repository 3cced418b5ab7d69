package clusterops

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// BenchmarkShardCall measures what one shard costs a cluster's query on the node that
// serves it: a search as a router sends it (ShardCall's op and args), answered by the
// shard's service from a small index (Go's encoding/json, about the size of the cluster
// suite's repositories), without NATS. It reports the median as p50-ms.
func BenchmarkShardCall(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src", "encoding", "json")
	if _, err := os.Stat(src); err != nil {
		b.Skip("Go's source is not installed: ", err)
	}
	ctx := context.Background()
	s, err := tools.NewService(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	build := b.TempDir()
	if _, err := workspace.Index(ctx, src, build, s.Languages(), workspace.IndexOptions{}); err != nil {
		b.Fatal(err)
	}
	x, err := workspace.OpenShard(workspace.Entry{ID: "json", Root: build}, build)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	svc := s.ShardService([]*workspace.SearchIndex{x})
	for _, q := range []string{"NewDecoder", "Unmarshal", "valid utf8", "decode.go"} {
		b.Run(q, func(b *testing.B) {
			args, _ := json.Marshal(tools.SearchRequest{Query: q, Workspace: "all"})
			benchMedian(b, func() error { _, err := svc.Call(ctx, "search", args); return err })
		})
	}
}

// fanOutPackages are the repositories of BenchmarkClusterFanOut: 48 small packages of Go's
// own source.
var fanOutPackages = []string{"bufio", "bytes", "cmp", "container/heap", "container/list", "container/ring",
	"context", "crypto/aes", "crypto/cipher", "crypto/des", "crypto/hmac", "crypto/md5", "crypto/rc4",
	"crypto/sha1", "crypto/sha256", "crypto/sha512", "embed", "encoding/ascii85", "encoding/base32",
	"encoding/base64", "encoding/binary", "encoding/csv", "encoding/hex", "encoding/pem", "errors", "expvar",
	"flag", "hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "html", "image/color", "image/draw",
	"index/suffixarray", "io/fs", "log", "maps", "math/bits", "math/cmplx", "mime/quotedprintable",
	"net/mail", "net/textproto", "path", "slices", "sort", "strconv", "unicode/utf8"}

// BenchmarkClusterFanOut measures one search over 48 small repositories through a cluster
// (an embedded NATS server, one node in this process): each repository a shard of its own,
// against all of them in compound shards, alternately. It reports the medians (own-ms,
// compound-ms) and the shards asked: what a compound saves of a query's cost per
// repository (a message, a reply, a merge, and, a compound being one index of its
// members, the search itself).
func BenchmarkClusterFanOut(b *testing.B) {
	goroot := runtime.GOROOT()
	type setup struct {
		router *tools.Service
		shards int
	}
	start := func(compounding cluster.Compounding) setup {
		ctx, c := testCluster(b)
		nodeSvc, err := tools.NewService(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		nctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			done <- RunNode(nctx, nodeSvc, c, NodeOptions{ID: "n1", Data: b.TempDir(), Index: true, Serve: true, Compounding: &compounding})
		}()
		b.Cleanup(func() { stop(); <-done })
		for _, p := range fanOutPackages {
			if _, err := ClusterAdd(ctx, c, strings.ReplaceAll(p, "/", "-"), filepath.Join(goroot, "src", filepath.FromSlash(p)), false); err != nil {
				b.Fatal(err)
			}
		}
		router, err := tools.NewService(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		if err := Attach(ctx, router, c); err != nil {
			b.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
			repos, err1 := c.Repos(ctx)
			nodes, err2 := c.Nodes(ctx)
			shards := cluster.Shards(repos)
			served := err1 == nil && err2 == nil && len(nodes) == 1 && len(shards) > 0
			built := 0
			for _, sh := range shards {
				built += len(sh.Repos)
				served = served && nodes[0].Shards[sh.Name] == sh.Version
			}
			if served && built == len(fanOutPackages) {
				return setup{router, len(shards)}
			}
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d repositories served after 5 minutes", built, len(fanOutPackages))
			}
		}
	}
	own, compound := start(cluster.Compounding{}), start(cluster.DefaultCompounding)
	ctx := context.Background()
	limit := 10
	median := func(s setup) float64 {
		var ms []float64
		for range 20 {
			t := time.Now()
			res, err := s.router.Search(ctx, tools.SearchRequest{Query: "Reader", Limit: &limit})
			if err != nil || len(res.Errors) > 0 {
				b.Fatalf("%v %+v", err, res)
			}
			ms = append(ms, float64(time.Since(t).Microseconds())/1000)
		}
		slices.Sort(ms)
		return ms[len(ms)/2]
	}
	var o, c []float64
	for b.Loop() {
		o, c = append(o, median(own)), append(c, median(compound))
	}
	slices.Sort(o)
	slices.Sort(c)
	b.ReportMetric(o[len(o)/2], "own-ms")
	b.ReportMetric(c[len(c)/2], "compound-ms")
	b.ReportMetric(float64(own.shards), "own-shards")
	b.ReportMetric(float64(compound.shards), "compound-shards")
}
