package clusterops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
	"github.com/quarrysearch/quarry/workspace"
)

// natsServer starts an embedded NATS server with JetStream on a free loopback port.
func natsServer(t testing.TB, user, pass string) *server.Server {
	t.Helper()
	opts := &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true}
	if user != "" {
		opts.Username, opts.Password = user, pass
	}
	return startServer(t, opts)
}

// testCluster connects to an embedded NATS server for the test, for up to 2 minutes.
func testCluster(t testing.TB) (context.Context, *cluster.Cluster) {
	t.Helper()
	ns := natsServer(t, "", "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c, err := cluster.Connect(ctx, cluster.Options{URL: ns.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return ctx, c
}

// TestClusterMatchesWorkspaceAll runs a node that indexes and serves two repositories, and
// checks that searches over every target, goto, refs and callers through the cluster answer
// what one process answers with the same two as its workspaces (--workspace all), hit for
// hit and score for score; then that a shard nobody serves is named in the answer. It runs
// with each repository in a shard of its own, and with both in one compound shard.
func TestClusterMatchesWorkspaceAll(t *testing.T) {
	t.Run("own", func(t *testing.T) { testClusterMatches(t, cluster.Compounding{}) })
	t.Run("compound", func(t *testing.T) { testClusterMatches(t, cluster.DefaultCompounding) })
}

func testClusterMatches(t *testing.T, compounding cluster.Compounding) {
	ctx, c := testCluster(t)
	roots := testkit.ClusterRepos(t)
	nodeSvc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	nodeCtx, stopNode := context.WithCancel(ctx)
	nodeDone := make(chan error, 1)
	data := t.TempDir()
	go func() {
		nodeDone <- RunNode(nodeCtx, nodeSvc, c, NodeOptions{ID: "n1", Data: data, Index: true, Serve: true, Compounding: &compounding})
	}()
	for _, repo := range []string{"a-go", "b-py"} {
		if _, err := ClusterAdd(ctx, c, repo, roots[repo], false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ClusterAdd(ctx, c, "a-go", roots["b-py"], false); err == nil {
		t.Error("adding a second repository under a name in use: no error")
	}
	router, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := Attach(ctx, router, c); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(90 * time.Second); ; {
		got, err := router.Search(ctx, tools.SearchRequest{Query: "ConnectionPool"})
		if err == nil && len(got.Errors) == 0 && hasWorkspaces(got.Results, "a-go", "b-py") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster never answered from both shards: %v, %+v", err, got)
		}
		time.Sleep(200 * time.Millisecond)
	}

	repos, err := c.Repos(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var shards []string
	for _, sh := range cluster.Shards(repos) {
		shards = append(shards, sh.Name)
	}
	want := []string{"a-go", "b-py"}
	compound := compounding.Max > 0
	if compound {
		want = []string{cluster.CompoundName(1)}
	}
	if fmt.Sprint(shards) != fmt.Sprint(want) {
		t.Fatalf("shards %v, want %v", shards, want)
	}

	local := localPair(t, roots)
	list, err := local.Workspace(ctx, tools.WorkspaceRequest{Operation: "list"})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{} // local workspace id -> repository name
	var primaryID string
	for _, w := range list.Workspaces {
		names[w.ID] = filepath.Base(w.Root)
		if w.Primary {
			primaryID = w.ID
		}
	}
	for _, q := range []tools.SearchRequest{
		{Query: "ConnectionPool"}, {Query: "serve http"}, {Query: "handle", Target: "definitions"},
		{Query: "request", Target: "content"}, {Query: "pool", Target: "files"}, {Query: "kind:method get"},
		{Query: "serve conn"}, {Query: "conn reuse"},
	} {
		got, err := router.Search(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		q.Workspace = "all"
		want, err := local.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := testkit.HitKeys(got.Results, nil), testkit.HitKeys(want.Results, names); !sameRanking(compound, g, w) || !compound && got.Relaxed != want.Relaxed {
			t.Errorf("search %+v: the cluster answered (relaxed %v)\n %v\none process (relaxed %v)\n %v", q, got.Relaxed, g, want.Relaxed, w)
		}
	}
	if compound {
		// The compound's searches come from its one index; its hits carry the symbol ids of
		// their repository's own index (what goto, refs and explain take).
		if _, err := os.Stat(workspace.StorePath(filepath.Join(data, "shards", want[0], mergedDir, "a"))); err != nil {
			t.Errorf("the compound's one index was not built: %v", err)
		}
		q := tools.SearchRequest{Query: "ConnectionPool", Target: "definitions"}
		got, err := router.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		q.Workspace = "all"
		local, err := local.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]string{}
		for _, h := range local.Results {
			ids[names[h.Workspace]+":"+h.Path+":"+h.Name] = h.SymbolID
		}
		for _, h := range got.Results {
			if id := ids[h.Workspace+":"+h.Path+":"+h.Name]; h.SymbolID == "" || h.SymbolID != id {
				t.Errorf("%s %s:%s: symbol id %q, its repository's index says %q", h.Workspace, h.Path, h.Name, h.SymbolID, id)
			}
			ex, err := router.Explain(ctx, tools.ExplainRequest{Symbol: h.SymbolID, Workspace: h.Workspace})
			if err != nil || ex.Definition.Name != h.Name {
				t.Errorf("explain %s in %s: %v, %+v", h.SymbolID, h.Workspace, err, ex)
			}
		}
		if !hasWorkspaces(got.Results, "a-go", "b-py") {
			t.Errorf("definitions of ConnectionPool: %d, not from both repositories", len(got.Results))
		}
	}
	// Query documents: each line searched on every shard, fused by the router.
	for _, q := range []tools.SearchRequest{
		{Query: "lex: ConnectionPool\nvec: a pool of database connections"},
		{Searches: []tools.SearchLine{{Type: "lex", Query: "serve http"}, {Type: "vec", Query: "answer one request"}}, Intent: "http server"},
		{Query: "expand: connection pool"},
		{Query: "hyde: def get(self): return self.idle.pop()\nlex: get", Explain: true},
	} {
		got, err := router.Search(ctx, q)
		if err != nil {
			t.Fatalf("document %+v: %v", q, err)
		}
		q.Workspace = "all"
		want, err := local.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := testkit.HitKeys(got.Results, nil), testkit.HitKeys(want.Results, names); !sameRanking(compound, g, w) || len(got.Errors) > 0 {
			t.Errorf("document %+v: the cluster answered\n %v %+v\none process\n %v", q, g, got.Errors, w)
		}
		if got.TotalFilesSearched != want.TotalFilesSearched || got.Notice != want.Notice {
			t.Errorf("document %+v: files %d, notice %q; one process: %d, %q", q, got.TotalFilesSearched, got.Notice, want.TotalFilesSearched, want.Notice)
		}
	}

	// A search in one language asks only the repositories that hold it.
	for _, q := range []tools.SearchRequest{{Query: "lang:python handle"}, {Query: "handle", Language: "py"}, {Query: "lang:py OR lang:go", Target: "files"}} {
		got, err := router.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		q.Workspace = "all"
		want, err := local.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := testkit.HitKeys(got.Results, nil), testkit.HitKeys(want.Results, names); !sameRanking(compound, g, w) {
			t.Errorf("search %+v: the cluster answered\n %v\none process\n %v", q, g, w)
		}
		if files := map[bool]int{true: 4, false: 2}[strings.Contains(q.Query, "OR")]; got.TotalFilesSearched != files {
			t.Errorf("search %+v searched %d files, want %d: a repository without the language was asked", q, got.TotalFilesSearched, files)
		}
	}

	// Pages, followed by cursor: the same as one process's pages of --workspace all.
	for _, q := range []tools.SearchRequest{{Query: "request", Target: "content"}, {Query: "p", Target: "files"}} {
		g := pageKeys(t, router, q, nil)
		q.Workspace = "all"
		if w := pageKeys(t, local, q, names); !sameRanking(compound, g, w) || len(w) < 3 || len(g) != len(w) {
			t.Errorf("pages of %+v: the cluster's\n %v\none process's\n %v", q, g, w)
		}
	}
	deep := 400
	deepReq := tools.SearchRequest{Query: "request", Target: "content", Limit: &deep}
	ireq, _, err := router.SearchRequest(deepReq)
	if err != nil {
		t.Fatal(err)
	}
	deepReq.Cursor = tools.EncodeCursor(deepReq, ireq, 400)
	if _, err := router.Search(ctx, deepReq); err == nil || !strings.Contains(err.Error(), "pages through the first 500") {
		t.Errorf("a page past the first 500 results through a cluster: %v", err)
	}
	gotGoto, err := router.Goto(ctx, tools.GotoRequest{Symbol: "ConnectionPool"})
	if err != nil {
		t.Fatal(err)
	}
	wantGoto, err := local.Goto(ctx, tools.GotoRequest{Symbol: "ConnectionPool", Workspace: "all"})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := testkit.HitKeys(gotGoto.Results, nil), testkit.HitKeys(wantGoto.Results, names); fmt.Sprint(g) != fmt.Sprint(w) || len(w) != 2 {
		t.Errorf("goto: the cluster answered\n %v\none process\n %v", g, w)
	}
	for _, sym := range []string{"handle", "ConnectionPool", "nothingByThatName"} {
		gotRefs, gerr := router.Refs(ctx, tools.RefsRequest{Symbol: sym})
		wantRefs, werr := local.Refs(ctx, tools.RefsRequest{Symbol: sym, Workspace: "all"})
		if (gerr == nil) != (werr == nil) {
			t.Errorf("refs %s: the cluster's error %v, one process's %v", sym, gerr, werr)
			continue
		}
		if gerr != nil {
			continue
		}
		if g, w := refKeys(gotRefs.Results, nil), refKeys(wantRefs.Results, names); fmt.Sprint(g) != fmt.Sprint(w) || gotRefs.Total != wantRefs.Total || sym == "handle" && len(w) < 2 {
			t.Errorf("refs %s: the cluster answered %d\n %v\none process %d\n %v", sym, gotRefs.Total, g, wantRefs.Total, w)
		}
	}
	// handle is defined in both repositories: callers must name one.
	if _, err := router.Calls(ctx, tools.CallsRequest{Symbol: "handle", Direction: tools.CallsCallers}); err == nil {
		t.Error("callers of a name defined in two repositories, none named: no error")
	}
	gotCalls, err := router.Calls(ctx, tools.CallsRequest{Symbol: "handle", Direction: tools.CallsCallers, Workspace: "a-go"})
	if err != nil {
		t.Fatal(err)
	}
	wantCalls, err := local.Calls(ctx, tools.CallsRequest{Symbol: "handle", Direction: tools.CallsCallers, Workspace: primaryID})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := callKeys(gotCalls), callKeys(wantCalls); fmt.Sprint(g) != fmt.Sprint(w) || len(w) < 2 {
		t.Errorf("callers: the cluster answered\n %v\none process\n %v", g, w)
	}
	gotCallees, err := router.Calls(ctx, tools.CallsRequest{Symbol: "serveConn", Direction: tools.CallsCallers})
	if err != nil || len(gotCallees.Nodes) < 2 {
		t.Errorf("callers of a name defined in one repository: %v, %+v", err, gotCallees)
	}
	if _, err := router.Search(ctx, tools.SearchRequest{Query: "x", Workspace: "a-g"}); err == nil {
		t.Error("an unknown repository: no error")
	} else if e := tools.AsError(err); e.Code != tools.CodeUnknownWorkspace || !strings.Contains(e.Message, "did you mean a-go") {
		t.Errorf("an unknown repository: %v", e)
	}
	if _, err := router.Search(ctx, tools.SearchRequest{Query: "x", Target: "everything"}); err == nil {
		t.Error("a bad target: no error")
	}
	if _, err := router.Health(ctx, tools.HealthRequest{}); err == nil {
		t.Error("health through a cluster: no error")
	}

	// No node: every shard is named, the answer marked.
	stopNode()
	if err := <-nodeDone; err != nil {
		t.Fatal(err)
	}
	res, err := router.Search(ctx, tools.SearchRequest{Query: "ConnectionPool", TimeoutMS: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.TruncatedReason != tools.TruncatedShards || len(res.Errors) != 2 || res.Errors[0].Code != tools.CodeShardUnavailable {
		t.Errorf("with no node: truncated %v (%s), errors %+v", res.Truncated, res.TruncatedReason, res.Errors)
	}
}

func hasWorkspaces(hits []tools.Hit, names ...string) bool {
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

func refKeys(refs []tools.Ref, names map[string]string) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		ws := r.Workspace
		if names != nil {
			ws = names[ws]
		}
		out[i] = fmt.Sprintf("%s:%s:%d:%d:%s", ws, r.Path, r.Line, r.Column, r.Kind)
	}
	return out
}

func callKeys(r *tools.CallsResult) []string {
	out := make([]string, len(r.Nodes))
	for i, n := range r.Nodes {
		out[i] = fmt.Sprintf("%d:%s:%s:%d", n.Parent, n.Name, n.Symbol.Path, n.Symbol.Line)
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

// TestClusterBuildsOnTheCurrentShard: an indexer that did not build a repository's current
// shard starts from it, and extracts only the file that changed since.
func TestClusterBuildsOnTheCurrentShard(t *testing.T) {
	ctx, c := testCluster(t)
	root := testkit.ClusterRepos(t)["a-go"]
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// runIndexer runs an indexer on its own data directory until the repository is at a
	// version other than from, and returns what it said.
	runIndexer := func(id, from string) (cluster.Repo, string) {
		var mu sync.Mutex
		var log strings.Builder
		nctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			done <- RunNode(nctx, svc, c, NodeOptions{ID: id, Data: t.TempDir(), Index: true, Logf: func(format string, args ...any) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(&log, format+"\n", args...)
			}})
		}()
		defer func() {
			stop()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			// The node logs its build after the catalog has it: wait for both.
			if r, err := c.Repo(ctx, "a-go"); err == nil && r.Version != "" && r.Version != from {
				mu.Lock()
				l := log.String()
				mu.Unlock()
				if strings.Contains(l, "files extracted") {
					return r, l
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("indexer %s built nothing:\n%s", id, log.String())
			}
		}
	}
	if _, err := ClusterAdd(ctx, c, "a-go", root, false); err != nil {
		t.Fatal(err)
	}
	first, log1 := runIndexer("i1", "")
	if !strings.Contains(log1, "files extracted 2, unchanged 0") {
		t.Errorf("the first build:\n%s", log1)
	}
	if err := os.WriteFile(filepath.Join(root, "extra.go"), []byte("package web\n\nfunc Extra() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ClusterAdd(ctx, c, "a-go", root, true); err != nil {
		t.Fatal(err)
	}
	second, log2 := runIndexer("i2", first.Version)
	if second.Indexer != "i2" || second.Files != 3 || !strings.Contains(log2, "files extracted 1, unchanged 2") {
		t.Errorf("another indexer's update: %+v\n%s", second, log2)
	}
}

// TestClusterCredentialFiles: --nats-creds takes a user's nkey seed or a credentials file
// (a user JWT and its seed, operator mode); a wrong key is refused at once, a key file
// others can read is refused before it is used, and a file that is neither is named.
func TestClusterCredentialFiles(t *testing.T) {
	write := func(text string, mode os.FileMode) string {
		f := filepath.Join(t.TempDir(), "user.creds")
		if err := os.WriteFile(f, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return f
	}
	user := func() (seed, pub string) {
		kp, err := nkeys.CreateUser()
		if err != nil {
			t.Fatal(err)
		}
		s, _ := kp.Seed()
		p, _ := kp.PublicKey()
		return string(s), p
	}
	connect := func(url, file string) error {
		c, err := cluster.Connect(context.Background(), cluster.Options{URL: url, CredsFile: file})
		if err == nil {
			c.Close()
		}
		return err
	}

	// An nkey user.
	seed, pub := user()
	opts := &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
		Nkeys: []*server.NkeyUser{{Nkey: pub}}}
	ns := startServer(t, opts)
	if err := connect(ns.ClientURL(), write(seed+"\n", 0o600)); err != nil {
		t.Errorf("the user's seed: %v", err)
	}
	other, _ := user()
	if err := connect(ns.ClientURL(), write(other+"\n", 0o600)); !errors.Is(err, cluster.ErrRefused) {
		t.Errorf("another user's seed: %v, want refused", err)
	}
	if err := connect(ns.ClientURL(), write(seed+"\n", 0o644)); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a seed others can read: %v", err)
	}
	if err := connect(ns.ClientURL(), write("password=hunter2\n", 0o600)); err == nil || !strings.Contains(err.Error(), "neither a NATS credentials file") {
		t.Errorf("a file that is not a key: %v", err)
	}

	// Operator mode: a user JWT signed by an account with JetStream.
	okp, _ := nkeys.CreateOperator()
	opub, _ := okp.PublicKey()
	oc := jwt.NewOperatorClaims(opub)
	account := func(js bool) (nkeys.KeyPair, string, string) {
		akp, _ := nkeys.CreateAccount()
		apub, _ := akp.PublicKey()
		ac := jwt.NewAccountClaims(apub)
		if js {
			ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
		}
		aj, err := ac.Encode(okp)
		if err != nil {
			t.Fatal(err)
		}
		return akp, apub, aj
	}
	_, sysPub, sysJWT := account(false)
	akp, apub, ajwt := account(true)
	oc.SystemAccount = sysPub
	ojwt, err := oc.Encode(okp)
	if err != nil {
		t.Fatal(err)
	}
	ocDecoded, err := jwt.DecodeOperatorClaims(ojwt)
	if err != nil {
		t.Fatal(err)
	}
	resolver := &server.MemAccResolver{}
	_ = resolver.Store(sysPub, sysJWT)
	_ = resolver.Store(apub, ajwt)
	useed, upub := user()
	uc := jwt.NewUserClaims(upub)
	ujwt, err := uc.Encode(akp)
	if err != nil {
		t.Fatal(err)
	}
	creds, err := jwt.FormatUserConfig(ujwt, []byte(useed))
	if err != nil {
		t.Fatal(err)
	}
	opts = &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
		TrustedOperators: []*jwt.OperatorClaims{ocDecoded}, AccountResolver: resolver, SystemAccount: sysPub}
	ns = startServer(t, opts)
	if err := connect(ns.ClientURL(), write(string(creds), 0o600)); err != nil {
		t.Errorf("a user's credentials file: %v", err)
	}
	if err := connect(ns.ClientURL(), write(seed+"\n", 0o600)); !errors.Is(err, cluster.ErrRefused) {
		t.Errorf("a seed the operator does not know: %v, want refused", err)
	}
}

func startServer(t testing.TB, opts *server.Options) *server.Server {
	t.Helper()
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

// TestRequiredLanguages: the languages a search's hits must be in, which let a router skip
// repositories: its language, or what its expression requires; none under a NOT or beside
// an alternative in any language.
func TestRequiredLanguages(t *testing.T) {
	s, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		req  tools.SearchRequest
		want string
	}{
		{tools.SearchRequest{Query: "handle"}, "[]"},
		{tools.SearchRequest{Query: "handle", Language: "py"}, "[python]"},
		{tools.SearchRequest{Query: "lang:go handle"}, "[go]"},
		{tools.SearchRequest{Query: "lang:go OR lang:rust"}, "[go rust]"},
		{tools.SearchRequest{Query: "(lang:go OR lang:rust) lang:rust x"}, "[rust]"},
		{tools.SearchRequest{Query: "-lang:go handle"}, "[]"},
		{tools.SearchRequest{Query: "lang:go OR handle"}, "[]"},
		{tools.SearchRequest{Query: "NOT (lang:go) x"}, "[]"},
	} {
		ireq, _, err := s.SearchRequest(c.req)
		if err != nil {
			t.Fatalf("%+v: %v", c.req, err)
		}
		if got := fmt.Sprint(requiredLanguages(ireq)); got != c.want {
			t.Errorf("%+v: %s, want %s", c.req, got, c.want)
		}
	}
}

// sameRanking reports whether a cluster's hits (keys repo:path:line:name:score) are one
// process's: the same list for shards of one repository each; for a compound shard, which
// ranks as one workspace (its words' statistics over all its members, relaxed only when no
// member matches every word), hits one process gives too, with the first among its first
// three.
func sameRanking(compound bool, got, want []string) bool {
	if !compound {
		return fmt.Sprint(got) == fmt.Sprint(want) && len(want) > 0
	}
	if len(got) == 0 || len(want) == 0 {
		return false
	}
	strip := func(k string) string { return k[:strings.LastIndexByte(k, ':')] }
	in := map[string]int{}
	for i, k := range want {
		in[strip(k)] = i + 1
	}
	for _, k := range got {
		if in[strip(k)] == 0 {
			return false
		}
	}
	return in[strip(got[0])] <= 3
}
