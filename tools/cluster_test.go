package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/workspace"
)

// natsServer starts an embedded NATS server with JetStream on a free loopback port.
func natsServer(t *testing.T, user, pass string) *server.Server {
	t.Helper()
	opts := &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true}
	if user != "" {
		opts.Username, opts.Password = user, pass
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns
}

// clusterRepos writes two small repositories (Go and Python) and returns their roots.
func clusterRepos(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]map[string]string{
		"gorepo": {
			"server.go": "package web\n\n// Server answers HTTP requests.\ntype Server struct{ Addr string }\n\n// ServeHTTP answers one request.\nfunc (s *Server) ServeHTTP(w Writer, r *Request) { handle(w, r) }\n\nfunc handle(w Writer, r *Request) {}\n",
			"pool.go":   "package web\n\n// ConnectionPool keeps idle connections for reuse.\ntype ConnectionPool struct{ idle []Conn }\n\n// Get takes a connection from the pool.\nfunc (p *ConnectionPool) Get() Conn { return p.idle[0] }\n",
		},
		"pyrepo": {
			"pool.py":   "class ConnectionPool:\n    \"\"\"A pool of database connections.\"\"\"\n\n    def get(self):\n        return self.idle.pop()\n",
			"server.py": "def serve_http(request):\n    \"\"\"Answer one HTTP request.\"\"\"\n    return handle(request)\n\n\ndef handle(request):\n    return None\n",
		},
	}
	roots := map[string]string{}
	for repo, fs := range files {
		root := filepath.Join(t.TempDir(), repo)
		for name, text := range fs {
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		roots[repo] = root
	}
	return roots
}

// TestClusterSearchMatchesLocal runs a node that indexes and serves two repositories, and
// checks that a search through the cluster answers what the same two indexes answer in
// one process (workspace.Search, as --workspace all), hit for hit and score for score;
// then that a shard nobody serves is named in the answer.
func TestClusterSearchMatchesLocal(t *testing.T) {
	ns := natsServer(t, "", "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := cluster.Connect(ctx, cluster.Options{URL: ns.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	roots := clusterRepos(t)
	svc, err := NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	nodeCtx, stopNode := context.WithCancel(ctx)
	nodeDone := make(chan error, 1)
	go func() {
		nodeDone <- svc.RunNode(nodeCtx, c, NodeOptions{ID: "n1", Data: t.TempDir(), Index: true, Serve: true})
	}()
	for _, repo := range []string{"gorepo", "pyrepo"} {
		if _, err := ClusterAdd(ctx, c, repo, roots[repo], false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ClusterAdd(ctx, c, "gorepo", roots["pyrepo"], false); err == nil {
		t.Error("adding a second repository under a name in use: no error")
	}
	// Until both shards are built and served.
	req := SearchRequest{Query: "ConnectionPool"}
	var got *SearchResult
	for deadline := time.Now().Add(90 * time.Second); ; {
		got, err = svc.ClusterSearch(ctx, c, req)
		if err == nil && len(got.Errors) == 0 && hasWorkspaces(got.Results, "gorepo", "pyrepo") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster never answered from both shards: %v, %+v", err, got)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The same two indexes in one process.
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	var xs []*workspace.SearchIndex
	for _, repo := range []string{"gorepo", "pyrepo"} {
		dir := filepath.Join(t.TempDir(), repo)
		if _, err := workspace.Index(ctx, roots[repo], dir, reg, workspace.IndexOptions{}); err != nil {
			t.Fatal(err)
		}
		x, err := workspace.OpenShard(workspace.Entry{ID: repo, Root: roots[repo]}, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		xs = append(xs, x)
	}
	for _, q := range []SearchRequest{
		{Query: "ConnectionPool"}, {Query: "serve http"}, {Query: "handle", Target: "definitions"},
		{Query: "request", Target: "content"}, {Query: "pool", Target: "files"}, {Query: "kind:method get"},
	} {
		got, err := svc.ClusterSearch(ctx, c, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		ireq, _, err := svc.searchRequest(q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := workspace.Search(ctx, xs, ireq)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := hitKeys(got.Results), hitKeys(want.Hits); fmt.Sprint(g) != fmt.Sprint(w) || len(w) == 0 {
			t.Errorf("%+v: the cluster answered\n %v\none process\n %v", q, g, w)
		}
	}
	if _, err := svc.ClusterSearch(ctx, c, SearchRequest{Query: "x", Workspace: "gorep"}); err == nil {
		t.Error("an unknown repository: no error")
	} else if e := AsError(err); e.Code != CodeUnknownWorkspace {
		t.Errorf("an unknown repository: %v", e)
	}
	if _, err := svc.ClusterSearch(ctx, c, SearchRequest{Query: "x", Target: "everything"}); err == nil {
		t.Error("a bad target: no error")
	}

	// No node: every shard is named, the answer marked.
	stopNode()
	if err := <-nodeDone; err != nil {
		t.Fatal(err)
	}
	res, err := svc.ClusterSearch(ctx, c, SearchRequest{Query: "ConnectionPool", TimeoutMS: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.TruncatedReason != TruncatedShards || len(res.Errors) != 2 || res.Errors[0].Code != CodeShardUnavailable {
		t.Errorf("with no node: truncated %v (%s), errors %+v", res.Truncated, res.TruncatedReason, res.Errors)
	}
}

func hasWorkspaces(hits []Hit, names ...string) bool {
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h.Workspace] = true
	}
	for _, n := range names {
		if !seen[n] {
			return false
		}
	}
	return true
}

func hitKeys(hits []search.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = fmt.Sprintf("%s:%s:%d:%s:%.4f", h.Workspace, h.Path, h.Line, h.Name, h.Score)
	}
	return out
}

// TestClusterRefusedCredentials: a server that refuses the credentials is a clear error
// naming it, at once.
func TestClusterRefusedCredentials(t *testing.T) {
	ns := natsServer(t, "quarry", "right")
	t.Setenv(cluster.EnvUser, "quarry")
	t.Setenv(cluster.EnvPassword, "wrong")
	start := time.Now()
	_, err := cluster.Connect(context.Background(), cluster.Options{URL: ns.ClientURL()})
	if !errors.Is(err, cluster.ErrRefused) || time.Since(start) > 10*time.Second {
		t.Fatalf("wrong password: %v after %v", err, time.Since(start))
	}
	t.Setenv(cluster.EnvPassword, "right")
	c, err := cluster.Connect(context.Background(), cluster.Options{URL: ns.ClientURL()})
	if err != nil {
		t.Fatalf("right password: %v", err)
	}
	c.Close()
}
