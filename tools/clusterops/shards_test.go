package clusterops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
)

// TestShardDownloadVerified: a download is checked against the version it is named for: an
// object whose bytes were replaced, or a version that names another object, is refused with
// ErrTampered and leaves nothing behind; the object as uploaded downloads.
func TestShardDownloadVerified(t *testing.T) {
	ctx, c := testCluster(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.db"), []byte("the index of a"), 0o600); err != nil {
		t.Fatal(err)
	}
	version, object, _, err := c.Upload(ctx, "a", dir)
	if err != nil {
		t.Fatal(err)
	}
	into := filepath.Join(t.TempDir(), "a")
	if err := c.Download(ctx, object, version, into); err != nil {
		t.Fatalf("the object as uploaded: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(into, "index.db")); err != nil || string(b) != "the index of a" {
		t.Fatalf("downloaded %q, %v", b, err)
	}
	// Another repository's shard under a's version, and a's object rewritten.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "index.db"), []byte("the index of b"), 0o600); err != nil {
		t.Fatal(err)
	}
	bVersion, bObject, _, err := c.Upload(ctx, "b", other)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Download(ctx, bObject, version, filepath.Join(t.TempDir(), "x")); !errors.Is(err, cluster.ErrTampered) {
		t.Errorf("b's object as a's version: %v, want ErrTampered", err)
	}
	js, err := jetstream.New(c.NC)
	if err != nil {
		t.Fatal(err)
	}
	store, err := js.ObjectStore(ctx, cluster.ShardsBucket)
	if err != nil {
		t.Fatal(err)
	}
	var tar bytes.Buffer
	if err := c.Download(ctx, bObject, bVersion, filepath.Join(t.TempDir(), "b")); err != nil {
		t.Fatal(err)
	}
	res, err := store.Get(ctx, bObject)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tar.ReadFrom(res); err != nil {
		t.Fatal(err)
	}
	res.Close()
	if _, err := store.PutBytes(ctx, object, tar.Bytes()); err != nil { // a's object now holds b's index
		t.Fatal(err)
	}
	tampered := filepath.Join(t.TempDir(), "a")
	err = c.Download(ctx, object, version, tampered)
	if !errors.Is(err, cluster.ErrTampered) || !strings.Contains(err.Error(), "hashes to "+bVersion) {
		t.Errorf("a's object rewritten: %v, want ErrTampered naming the hash %s", err, bVersion)
	}
	for _, p := range []string{tampered, tampered + ".part"} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind by a refused download", p)
		}
	}
}

// nodeLog runs a node until stop is called, collecting what it logs.
type nodeLog struct {
	mu   sync.Mutex
	b    strings.Builder
	done chan error
	stop context.CancelFunc
}

func (l *nodeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startNode(ctx context.Context, t *testing.T, c *cluster.Cluster, o NodeOptions) *nodeLog {
	t.Helper()
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := &nodeLog{done: make(chan error, 1)}
	o.Logf = func(format string, args ...any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		fmt.Fprintf(&l.b, format+"\n", args...)
	}
	nctx, stop := context.WithCancel(ctx)
	l.stop = stop
	go func() { l.done <- RunNode(nctx, svc, c, o) }()
	t.Cleanup(func() { stop(); <-l.done })
	return l
}

// waitFor polls cond every 100 ms for up to a minute.
func waitFor(t *testing.T, what string, cond func() bool, log fmt.Stringer) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute\n%s", what, log)
		}
	}
}

// TestClusterUnchangedUpdateUploadsNothing: re-indexing a repository whose files did not
// change keeps its version (nothing uploaded, nothing for the replicas to download again);
// a change makes a new one.
func TestClusterUnchangedUpdateUploadsNothing(t *testing.T) {
	ctx, c := testCluster(t)
	root := testkit.ClusterRepos(t)["a-go"]
	log := startNode(ctx, t, c, NodeOptions{ID: "i1", Data: t.TempDir(), Index: true})
	if _, err := ClusterAdd(ctx, c, "a-go", root, false); err != nil {
		t.Fatal(err)
	}
	var first cluster.Repo
	waitFor(t, "the first build", func() bool {
		r, err := c.Repo(ctx, "a-go")
		first = r
		return err == nil && r.Version != "" && strings.Contains(log.String(), "files extracted 2")
	}, log)
	for i := range 2 {
		if _, err := ClusterAdd(ctx, c, "a-go", root, true); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "an unchanged update", func() bool { return strings.Count(log.String(), "nothing uploaded") == i+1 }, log)
	}
	if r, err := c.Repo(ctx, "a-go"); err != nil || r.Version != first.Version || r.Object != first.Object {
		t.Errorf("after two unchanged updates: %+v, %v; want version %s", r, err, first.Version)
	}
	if err := os.WriteFile(filepath.Join(root, "extra.go"), []byte("package web\n\nfunc Extra() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ClusterAdd(ctx, c, "a-go", root, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a changed update", func() bool {
		r, err := c.Repo(ctx, "a-go")
		return err == nil && r.Version != first.Version && r.Files == 3
	}, log)
	if r, _ := c.Repo(ctx, "a-go"); len(r.Languages) != 1 || r.Languages[0] != "go" {
		t.Errorf("languages %q, want [go]", r.Languages)
	}
}

// TestClusterRefusesTamperedShard: a node that downloads a shard whose content is not its
// version does not serve it, says so in the catalog's entry, and does not fetch it again
// every second; a graceful stop keeps the shards it serves on disk, and a second node
// under a live node's id is refused.
func TestClusterRefusesTamperedShard(t *testing.T) {
	ctx, c := testCluster(t)
	roots := testkit.ClusterRepos(t)
	data := t.TempDir()
	own := &cluster.Compounding{} // every repository a shard of its own
	log := startNode(ctx, t, c, NodeOptions{ID: "n1", Data: data, Index: true, Serve: true, Compounding: own})
	if _, err := ClusterAdd(ctx, c, "a-go", roots["a-go"], false); err != nil {
		t.Fatal(err)
	}
	var r cluster.Repo
	waitFor(t, "a-go served", func() bool {
		nodes, _ := c.Nodes(ctx)
		var err error
		r, err = c.Repo(ctx, "a-go")
		return err == nil && r.Version != "" && len(nodes) == 1 && nodes[0].Shards["a-go"] == r.Version
	}, log)

	// A second node under n1's id, while n1 beats, is refused.
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := RunNode(ctx, svc, c, NodeOptions{ID: "n1", Data: t.TempDir(), Serve: true}); err == nil || !strings.Contains(err.Error(), "node id n1 is in use by a live node") {
		t.Errorf("a second node n1: %v", err)
	}

	// A graceful stop keeps the shard on disk.
	dir := filepath.Join(data, "shards", "a-go", "a-go@"+r.Version)
	log.stop()
	if err := <-log.done; err != nil {
		t.Fatal(err)
	}
	log.done <- nil // for the cleanup
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the shard served is gone after a graceful stop: %v\n%s", err, log)
	}
	if !strings.Contains(log.String(), "stopped; its shards kept") {
		t.Errorf("the stop is not logged:\n%s", log)
	}

	// a-go's object rewritten with b-py's index: a node with no copy refuses it.
	if _, err := ClusterAdd(ctx, c, "b-py", roots["b-py"], false); err != nil {
		t.Fatal(err)
	}
	idx := startNode(ctx, t, c, NodeOptions{ID: "i2", Data: t.TempDir(), Index: true, Compounding: own})
	var b cluster.Repo
	waitFor(t, "b-py built", func() bool {
		b, err = c.Repo(ctx, "b-py")
		return err == nil && b.Version != ""
	}, idx)
	js, err := jetstream.New(c.NC)
	if err != nil {
		t.Fatal(err)
	}
	store, err := js.ObjectStore(ctx, cluster.ShardsBucket)
	if err != nil {
		t.Fatal(err)
	}
	other, err := store.GetBytes(ctx, b.Object)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.PutBytes(ctx, r.Object, other); err != nil {
		t.Fatal(err)
	}
	server := startNode(ctx, t, c, NodeOptions{ID: "n2", Data: t.TempDir(), Serve: true})
	waitFor(t, "the tampered shard reported", func() bool {
		r, err := c.Repo(ctx, "a-go")
		return err == nil && strings.Contains(r.Error, "node n2 refused the shard") && strings.Contains(r.Error, "content is not its version")
	}, server)
	time.Sleep(3 * time.Second) // the retries wait 2 s, then 4 s, ...
	if n := strings.Count(server.String(), "load a-go@"); n < 1 || n > 2 {
		t.Errorf("the tampered shard was tried %d times in about 3 s, want 1 or 2:\n%s", n, server)
	}
	if nodes, _ := c.Nodes(ctx); len(nodes) > 0 {
		for _, nd := range nodes {
			if nd.ID == "n2" && nd.Shards["a-go"] != "" {
				t.Errorf("n2 serves the tampered a-go: %v", nd.Shards)
			}
		}
	}
}

// TestViewTrusted: a node takes shards only on a view with its own recent heartbeat, and,
// once nodes vanished from the view, only after the smaller view held for placementGrace
// (a lost NATS server makes the others vanish for a while: their shards are not taken).
func TestViewTrusted(t *testing.T) {
	n := &node{o: NodeOptions{ID: "n1"}}
	now := time.Now()
	view := func(seen time.Time, ids ...string) ([]cluster.Node, []string) {
		nodes := []cluster.Node{{ID: "n1", Serve: true, Seen: seen}}
		for _, id := range ids {
			nodes = append(nodes, cluster.Node{ID: id, Serve: true, Seen: now})
		}
		return nodes, append([]string{"n1"}, ids...)
	}
	check := func(what string, want bool, nodes []cluster.Node, servers []string) {
		t.Helper()
		if got := n.viewTrusted(nodes, servers); got != want {
			t.Errorf("%s: trusted %v, want %v", what, got, want)
		}
	}
	nodes, servers := view(now, "n2", "n3")
	check("a first view", true, nodes, servers)
	check("without its own heartbeat", false, nodes[1:], servers)
	old, _ := view(now.Add(-10*time.Second), "n2", "n3")
	check("with its own heartbeat 10 s old", false, old, servers)
	nodes, servers = view(now, "n2")
	check("n3 vanished", false, nodes, servers)
	check("the smaller view, at once again", false, nodes, servers)
	n.shrunkAt = time.Now().Add(-placementGrace - time.Second)
	check("the smaller view, held for the grace", true, nodes, servers)
	nodes, servers = view(now, "n2", "n4")
	check("a node joined", true, nodes, servers)
}

// TestClusterOneDefinitionAcrossRepositories: callers and explain of a name, asked of the
// whole cluster, name every repository defining it, one that defines it twice too, where
// the first such repository's own "defined 2 times" used to hide the other.
func TestClusterOneDefinitionAcrossRepositories(t *testing.T) {
	ctx, c := testCluster(t)
	x1, x2 := t.TempDir(), t.TempDir()
	testkit.WriteFiles(t, x1, map[string]string{"a/a.go": "package a\n\nfunc Dup() {}\n", "b/b.go": "package b\n\nfunc Dup() {}\n"})
	testkit.WriteFiles(t, x2, map[string]string{"dup.py": "def Dup():\n    pass\n"})
	log := startNode(ctx, t, c, NodeOptions{ID: "n1", Data: t.TempDir(), Index: true, Serve: true, Compounding: &cluster.Compounding{}})
	for name, root := range map[string]string{"x1": x1, "x2": x2} {
		if _, err := ClusterAdd(ctx, c, name, root, false); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "x1 and x2 served", func() bool {
		nodes, _ := c.Nodes(ctx)
		return len(nodes) == 1 && nodes[0].Shards["x1"] != "" && nodes[0].Shards["x2"] != ""
	}, log)
	router, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := Attach(ctx, router, c); err != nil {
		t.Fatal(err)
	}
	args := map[string]string{"calls": `{"symbol":"Dup","direction":"callers"}`, "explain": `{"symbol":"Dup"}`}
	for _, op := range []string{"calls", "explain"} {
		_, err := router.Call(ctx, op, json.RawMessage(args[op]))
		var e *tools.Error
		if !errors.As(err, &e) || e.Code != tools.CodeBadValue || !strings.Contains(e.Message, "Dup is defined in 2 repositories of the cluster (x1 (2 times), x2)") {
			t.Errorf("%s Dup: %v, want both repositories named", op, err)
		}
	}
	if _, err := router.Call(ctx, "calls", json.RawMessage(`{"symbol":"Dup","direction":"callers","workspace":"x2"}`)); err != nil {
		t.Errorf("calls Dup in x2: %v", err)
	}
}

// TestClusterListStates: cluster list names as serving only the live nodes that answer with
// the current version; a node silent for a few seconds is left out before its heartbeat
// expires, and a repository whose previous version still answers is updating, not unserved.
func TestClusterListStates(t *testing.T) {
	ctx, c := testCluster(t)
	for _, r := range []cluster.Repo{
		{Name: "cur", Source: "/src/cur", Version: "v2", Object: "cur/v2"},
		{Name: "upd", Source: "/src/upd", Version: "v2", Object: "upd/v2"},
	} {
		if _, err := c.PutRepo(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	js, err := jetstream.New(c.NC)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, cluster.NodesBucket)
	if err != nil {
		t.Fatal(err)
	}
	beat := func(n cluster.Node, ago time.Duration) {
		n.Serve, n.Seen = true, time.Now().UTC().Add(-ago)
		b, _ := json.Marshal(n)
		if _, err := kv.Put(ctx, n.ID, b); err != nil {
			t.Fatal(err)
		}
	}
	beat(cluster.Node{ID: "live", Shards: map[string]string{"cur": "v2", "upd": "v1"}}, 0)
	beat(cluster.Node{ID: "silent", Shards: map[string]string{"cur": "v2", "upd": "v2"}}, 5*time.Second)
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := Attach(ctx, svc, c); err != nil {
		t.Fatal(err)
	}
	res, err := Manage(ctx, svc, ClusterRequest{Operation: OpList})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range res.Repos {
		got[r.Name] = fmt.Sprint(r.ServedBy, " ", r.State)
	}
	if want := "[live] served"; got["cur"] != want {
		t.Errorf("cur: %s, want %s", got["cur"], want)
	}
	if want := "[] updating: the previous version answers (live)"; got["upd"] != want {
		t.Errorf("upd: %s, want %s", got["upd"], want)
	}
	page, err := Manage(ctx, svc, ClusterRequest{Operation: OpList, Limit: 1})
	if err != nil || page.Total != 2 || len(page.Repos) != 1 || page.Repos[0].Name != "cur" || page.NextCursor != "1" {
		t.Fatalf("list limit 1: %+v, %v", page, err)
	}
	page, err = Manage(ctx, svc, ClusterRequest{Operation: OpList, Limit: 1, Cursor: page.NextCursor})
	if err != nil || len(page.Repos) != 1 || page.Repos[0].Name != "upd" || page.NextCursor != "" {
		t.Fatalf("list's second page: %+v, %v", page, err)
	}
	if _, err := Manage(ctx, svc, ClusterRequest{Operation: OpList, Limit: 5000}); err == nil || !strings.Contains(err.Error(), "5000") {
		t.Errorf("list limit 5000: %v, want refused", err)
	}
	if _, err := Manage(ctx, svc, ClusterRequest{Operation: "lsit"}); err == nil || !strings.Contains(err.Error(), `did you mean list?`) {
		t.Errorf("operation lsit: %v", err)
	}
}

// TestClusterHedgedRequests: with a replica that takes a request and dies with it (as a
// node killed under a request does: the server then drops its subscription), every search
// through the router answers, whole: the request the dead one took is asked again of the
// shard's other replica instead of waiting out the 10 s timeout and reporting the shard
// unavailable.
func TestClusterHedgedRequests(t *testing.T) {
	ctx, c := testCluster(t)
	roots := testkit.ClusterRepos(t)
	log := startNode(ctx, t, c, NodeOptions{ID: "n1", Data: t.TempDir(), Index: true, Serve: true, Compounding: &cluster.Compounding{}})
	if _, err := ClusterAdd(ctx, c, "a-go", roots["a-go"], false); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a-go served", func() bool {
		nodes, _ := c.Nodes(ctx)
		return len(nodes) == 1 && nodes[0].Shards["a-go"] != ""
	}, log)
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := Attach(ctx, svc, c); err != nil {
		t.Fatal(err)
	}
	rt := svc.Remote().(*router)
	var slowest time.Duration
	var took atomic.Int64
	for i := range 30 {
		// A replica that takes one request and never answers it.
		dying, err := c.NC.QueueSubscribe(cluster.ShardSubject("a-go"), cluster.ShardQueue("a-go"), func(*nats.Msg) { took.Add(1) })
		if err != nil {
			t.Fatal(err)
		}
		if err := dying.AutoUnsubscribe(1); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := svc.Search(ctx, tools.SearchRequest{Query: "ConnectionPool", Workspace: "a-go"})
		slowest = max(slowest, time.Since(start))
		if err != nil || len(res.Results) == 0 || len(res.Errors) > 0 {
			t.Fatalf("search %d: %+v, %v", i, res, err)
		}
		_ = dying.Unsubscribe()
	}
	if took.Load() > 0 && rt.hedged.Load() == 0 {
		t.Errorf("the dying replica took %d requests, and none was asked again", took.Load())
	}
	t.Logf("30 searches, the dying replica took %d requests: slowest answer %s, %d requests asked again", took.Load(), slowest, rt.hedged.Load())
}

// TestShardUnavailableEnvelope: a router's failure for a shard that did not answer is an
// envelope the contract's error schema accepts (SHARD_UNAVAILABLE is one of its codes).
func TestShardUnavailableEnvelope(t *testing.T) {
	env, err := json.Marshal(tools.Fail(&tools.Error{Code: tools.CodeShardUnavailable, Message: "Dup is in no shard that answered; 1 did not: shard x1: no node answered within 10s"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := tools.Validate("error", env); err != nil {
		t.Errorf("the SHARD_UNAVAILABLE envelope does not validate: %v\n%s", err, env)
	}
}
