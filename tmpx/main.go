package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/workspace"
)

func rss() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS") {
			return l
		}
	}
	return ""
}

func main() {
	ctx := context.Background()
	n := 300
	work := "/tmp/memx"
	langs, err := languages.Default()
	if err != nil {
		panic(err)
	}
	var dirs []string
	for i := range n {
		root := filepath.Join(work, "repos", fmt.Sprintf("r%05d", i))
		build := filepath.Join(work, "build", fmt.Sprintf("r%05d", i))
		dirs = append(dirs, build)
		if _, err := os.Stat(workspace.StorePath(build)); err == nil {
			continue
		}
		os.MkdirAll(root, 0o755)
		os.WriteFile(filepath.Join(root, "main.go"), []byte(fmt.Sprintf("package r%05d\n\n// Serve%05d serves.\nfunc Serve%05d() { helper%05d() }\n\nfunc helper%05d() {}\n", i, i, i, i, i)), 0o644)
		os.WriteFile(filepath.Join(root, "util.py"), []byte(fmt.Sprintf("def parse_%05d(text):\n    \"\"\"Parse the text.\"\"\"\n    return text\n", i)), 0o644)
		os.WriteFile(filepath.Join(root, "index.ts"), []byte(fmt.Sprintf("export function render%05d(x: number): string { return String(x) }\n", i)), 0o644)
		os.MkdirAll(build, 0o700)
		t := time.Now()
		if _, err := workspace.Index(ctx, root, build, langs, workspace.IndexOptions{}); err != nil {
			panic(err)
		}
		if i%50 == 0 {
			fmt.Println("index", i, time.Since(t))
		}
	}
	q, _ := query.Parse("Serve00123")
	req := search.Request{Query: q, Target: search.TargetAuto, Limit: 10}
	runtime.GC()
	fmt.Println("before open", rss())
	var xs []*workspace.SearchIndex
	t := time.Now()
	for i, d := range dirs {
		x, err := workspace.OpenShard(workspace.Entry{ID: fmt.Sprintf("r%05d", i), Root: d}, d)
		if err != nil {
			panic(err)
		}
		xs = append(xs, x)
	}
	fmt.Println("open", n, time.Since(t))
	runtime.GC()
	fmt.Println("after open", rss())
	for k := range 3 {
		t = time.Now()
		res, err := workspace.Search(ctx, xs, req)
		if err != nil {
			panic(err)
		}
		fmt.Println("search", k, time.Since(t), len(res.Hits))
	}
	runtime.GC()
	fmt.Println("after search", rss(), "goroutines", runtime.NumGoroutine())
	f, _ := os.Create("/tmp/memx/heap.pprof")
	pprof.WriteHeapProfile(f)
	f.Close()
	f, _ = os.Create("/tmp/memx/cpu.pprof")
	pprof.StartCPUProfile(f)
	for range 10 {
		workspace.Search(ctx, xs, req)
	}
	pprof.StopCPUProfile()
}
