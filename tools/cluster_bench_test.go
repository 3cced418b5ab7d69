package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

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
	s, err := NewService(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	build := b.TempDir()
	if _, err := workspace.Index(ctx, src, build, s.langs, workspace.IndexOptions{}); err != nil {
		b.Fatal(err)
	}
	x, err := workspace.OpenShard(workspace.Entry{ID: "json", Root: build}, build)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	svc := s.shardService([]*workspace.SearchIndex{x})
	for _, q := range []string{"NewDecoder", "Unmarshal", "valid utf8", "decode.go"} {
		b.Run(q, func(b *testing.B) {
			args, _ := json.Marshal(SearchRequest{Query: q, Workspace: "all"})
			benchMedian(b, func() error { _, err := svc.Call(ctx, "search", args); return err })
		})
	}
}
