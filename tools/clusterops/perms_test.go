package clusterops

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// TestClusterLeastPrivilege: with cluster/nats-server.conf (the README's), an admin adds a
// repository, a node indexes and serves it, a searcher finds it; the searcher cannot write
// the catalog, publish a shard or an index job, listen to the shards' requests or read the
// node's replies.
func TestClusterLeastPrivilege(t *testing.T) {
	for _, role := range []string{"ADMIN", "NODE", "SEARCH"} {
		t.Setenv("QUARRY_"+role+"_PASSWORD", strings.ToLower(role)+"-secret")
	}
	opts, err := server.ProcessConfigFile("../../cluster/nats-server.conf")
	if err != nil {
		t.Fatal(err)
	}
	opts.Host, opts.Port, opts.StoreDir, opts.NoLog, opts.NoSigs = "127.0.0.1", -1, t.TempDir(), true, true
	ns := startServer(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	var mu sync.Mutex
	var violations []string
	connect := func(user string) *cluster.Cluster {
		t.Helper()
		t.Setenv(cluster.EnvUser, user)
		t.Setenv(cluster.EnvPassword, user+"-secret")
		c, err := cluster.Connect(ctx, cluster.Options{URL: ns.ClientURL(), Name: user, Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			violations = append(violations, user+": "+strings.TrimSpace(format))
			for _, a := range args {
				if e, ok := a.(error); ok {
					violations[len(violations)-1] += " " + e.Error()
				}
			}
		}})
		if err != nil {
			t.Fatalf("%s connects: %v", user, err)
		}
		t.Cleanup(c.Close)
		return c
	}
	admin := connect("admin")
	roots := testkit.ClusterRepos(t)
	if _, err := ClusterAdd(ctx, admin, "a-go", roots["a-go"], false); err != nil {
		t.Fatalf("admin adds a-go: %v", err)
	}
	node := connect("node")
	log := startNode(ctx, t, node, NodeOptions{ID: "n1", Data: t.TempDir(), Index: true, Serve: true, Compounding: &cluster.Compounding{}})
	waitFor(t, "a-go served by the node", func() bool {
		nodes, _ := admin.Nodes(ctx)
		return len(nodes) == 1 && nodes[0].Shards["a-go"] != ""
	}, log)
	search := connect("search")
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := Attach(ctx, svc, search); err != nil {
		t.Fatalf("the searcher attaches: %v", err)
	}
	res, err := svc.Search(ctx, tools.SearchRequest{Query: "ConnectionPool"})
	if err != nil || len(res.Results) == 0 || len(res.Errors) > 0 {
		t.Fatalf("the searcher's search: %+v, %v", res, err)
	}
	mu.Lock()
	before := len(violations)
	mu.Unlock()

	// What the searcher must not do.
	denied := func(what string, write func(context.Context) error) {
		t.Helper()
		wctx, wcancel := context.WithTimeout(ctx, 3*time.Second)
		defer wcancel()
		if err := write(wctx); err == nil {
			t.Errorf("the searcher %s", what)
		}
	}
	r, _ := search.Repo(ctx, "a-go")
	r.Source = "/elsewhere"
	denied("rewrote a catalog entry", func(ctx context.Context) error { _, err := search.PutRepo(ctx, r); return err })
	denied("queued an index job", func(ctx context.Context) error {
		return search.Enqueue(ctx, cluster.Job{Op: cluster.OpIndex, Repo: "a-go"})
	})
	denied("uploaded a shard", func(ctx context.Context) error { _, _, _, err := search.Upload(ctx, "a-go", t.TempDir()); return err })
	got := make(chan *nats.Msg, 10)
	for _, subject := range []string{"_INBOX_node.>", "_INBOX_admin.>", cluster.ShardSubject("a-go")} {
		if _, err := search.NC.ChanSubscribe(subject, got); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := admin.Repos(ctx); err != nil { // the admin's traffic, which the subscriptions must not see
		t.Fatal(err)
	}
	if _, err := svc.Search(ctx, tools.SearchRequest{Query: "ServeHTTP"}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		t.Errorf("the searcher read %s", m.Subject)
	case <-time.After(time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	refused := strings.Join(violations[before:], "\n")
	for _, want := range []string{`Publish to "$KV.QUARRY_REPOS.a-go"`, `Publish to "quarry.jobs.`, `QUARRY_SHARDS`,
		`Subscription to "_INBOX_node.>"`, `Subscription to "_INBOX_admin.>"`, `Subscription to "quarry.shard.a-go`} {
		if !strings.Contains(refused, "Permissions Violation for ") || !strings.Contains(refused, want) {
			t.Errorf("the server did not refuse the searcher's %s:\n%s", want, refused)
		}
	}
	t.Logf("refused:\n%s", refused)
}
