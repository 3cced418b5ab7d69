package tools

import (
	"context"
	"os"
	"strings"
	"testing"
)

// BenchmarkNavigation measures warm refs, callers and callees (depth 3) of the definitions
// in bench/nav-queries.txt over the workspace QUARRY_CORPUS (indexed), reporting each one's
// median as p50-ms: asked again of the same resident service (whose store keeps what
// resolution read for the index generation), and refs asked first of a new service
// ("refs-first": the index opened, nothing resolved yet; files in the page cache).
func BenchmarkNavigation(b *testing.B) {
	s := corpusService(b)
	s.MaxBytes = AgentMaxBytes
	data, err := os.ReadFile("../bench/nav-queries.txt")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for line := range strings.SplitSeq(string(data), "\n") {
		sym := strings.TrimSpace(line)
		if sym == "" || strings.HasPrefix(sym, "#") {
			continue
		}
		ops := map[string]func() error{
			"refs": func() error { _, err := s.Refs(ctx, RefsRequest{Symbol: sym}); return err },
			"callers3": func() error {
				_, err := s.Calls(ctx, CallsRequest{Symbol: sym, Direction: CallsCallers, Depth: 3})
				return err
			},
			"callees3": func() error {
				_, err := s.Calls(ctx, CallsRequest{Symbol: sym, Direction: CallsCallees, Depth: 3})
				return err
			},
		}
		ops["refs-first"] = func() error {
			fresh, err := NewService(s.root)
			if err != nil {
				return err
			}
			defer fresh.Close()
			_, err = fresh.Refs(ctx, RefsRequest{Symbol: sym})
			return err
		}
		for _, name := range []string{"refs", "refs-first", "callers3", "callees3"} {
			op := ops[name]
			b.Run(name+"/"+sym, func(b *testing.B) { benchMedian(b, op) })
		}
	}
}
