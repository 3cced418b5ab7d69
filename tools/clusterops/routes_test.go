package clusterops

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/cluster"
)

// TestRoutingTable: a router starts from the routing table a node wrote and replays only
// the catalog's changes after it: entries from the table hold only the routing fields;
// entries added, changed and removed after it are as the catalog holds them now. A
// catalog without a table is watched key by key, and the table is never a repository.
func TestRoutingTable(t *testing.T) {
	ns := natsServer(t, "", "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	connect := func() *cluster.Cluster {
		c, err := cluster.Connect(ctx, cluster.Options{URL: ns.ClientURL()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	writer := connect()
	put := func(r cluster.Repo) {
		t.Helper()
		if old, err := writer.Repo(ctx, r.Name); err == nil {
			r.Revision = old.Revision
		}
		if _, err := writer.PutRepo(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		put(cluster.Repo{Name: fmt.Sprintf("r%d", i), Source: "/src", Version: fmt.Sprintf("v%d", i), Object: "o", Shard: "_c0001", Languages: []string{"go"}})
	}
	// Without a table: every key, whole.
	plain := connect()
	if err := plain.WatchRoutes(ctx); err != nil {
		t.Fatal(err)
	}
	if repos, _ := plain.Repos(ctx); len(repos) != 5 || repos[0].Source != "/src" {
		t.Fatalf("without a routing table: %+v", repos)
	}
	if err := writer.WatchRepos(ctx); err != nil {
		t.Fatal(err)
	}
	rev, err := writer.WriteRoutes(ctx, 0)
	if err != nil || rev == 0 {
		t.Fatalf("WriteRoutes: %d, %v", rev, err)
	}
	if again, err := writer.WriteRoutes(ctx, rev); err != nil || again != rev {
		t.Errorf("an unchanged catalog's table written again: %d after %d, %v", again, rev, err)
	}
	// Changes after the table.
	put(cluster.Repo{Name: "r5", Source: "/new", Version: "v5", Object: "o"})
	put(cluster.Repo{Name: "r1", Source: "/src", Version: "v1b", Object: "o", Shard: "_c0001"})
	if err := writer.DeleteRepo(ctx, "r2"); err != nil {
		t.Fatal(err)
	}
	router := connect()
	if err := router.WatchRoutes(ctx); err != nil {
		t.Fatal(err)
	}
	repos, err := router.Repos(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]cluster.Repo{}
	for _, r := range repos {
		got[r.Name] = r
	}
	if len(repos) != 5 || got["r2"].Name != "" || got[cluster.RoutesKey].Name != "" {
		t.Fatalf("the router's catalog: %+v", repos)
	}
	if r := got["r0"]; r.Version != "v0" || r.Shard != "_c0001" || len(r.Languages) != 1 || r.Source != "" || r.Object != "" {
		t.Errorf("r0 did not come from the routing table: %+v", r)
	}
	if r := got["r1"]; r.Version != "v1b" || r.Source != "/src" {
		t.Errorf("r1, changed after the table: %+v", r)
	}
	if r := got["r5"]; r.Version != "v5" || r.Source != "/new" {
		t.Errorf("r5, added after the table: %+v", r)
	}
	// A change after the router started reaches it.
	put(cluster.Repo{Name: "r6", Source: "/six", Version: "v6", Object: "o"})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if repos, _ := router.Repos(ctx); len(repos) == 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("r6 never reached the router's copy")
		}
	}
	if all, err := writer.Repos(ctx); err != nil || len(all) != 6 {
		t.Errorf("the catalog's own watcher: %d entries, %v (the table is no repository)", len(all), err)
	}
}
