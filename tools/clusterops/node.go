package clusterops

// A Quarry cluster (package cluster holds the NATS JetStream side): nodes that index
// repositories into shards and serve them (RunNode), and the router that searches every
// shard a request covers and merges their rankings as --workspace all does (ClusterSearch).

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// NodeOptions configure a node of a cluster.
type NodeOptions struct {
	ID       string // unique in the cluster; default: host name and process id
	Data     string // the node's directory: sources, builds and loaded shards
	Index    bool   // take index jobs
	Serve    bool   // serve the shards assigned to this node
	Replicas int    // nodes serving each shard; 0: cluster.DefaultReplicas
	// Compounding places the indexes this node builds (nil: cluster.DefaultCompounding).
	Compounding *cluster.Compounding
	// Logf, when set, hears what the node does.
	Logf func(format string, args ...any)
}

// ShardCall is an operation a router asks of one shard: the contract's operation name and
// its request, as an MCP client would send them.
type ShardCall struct {
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args"`
	// Version is the shard's version the router's catalog names: a node answering from it
	// leaves its answer's repositories out (the router knows them).
	Version string `json:"version,omitempty"`
}

// ShardAnswer is a node's answer to a ShardCall: the operation's result, or its error.
type ShardAnswer struct {
	Shard   string          `json:"shard"`
	Repos   []string        `json:"repos,omitempty"` // the repositories it answered from; none when it answered from the version asked
	Version string          `json:"version"`
	Node    string          `json:"node"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *tools.Error    `json:"error,omitempty"`
}

// shardTick is how often a node beats and reconciles what it serves with the catalog.
var shardTick = time.Second

// loadedShard is a shard a node answers: one repository's index, or a compound's members'.
type loadedShard struct {
	name    string
	version string
	members []*loadedRepo // by name; a version that replaces this one may share some
	// svc answers the contract's operations from the members alone: set at load for a
	// repository's shard, and for a compound's only when an operation needs its members
	// (memberService).
	svcMu    sync.Mutex
	svc      *tools.Service
	loadedAt time.Time // when this version began to answer
	// merged is a compound's one index of all its members (merged.go), and mergedSvc the
	// service over it that answers its searches.
	merged    *workspace.SearchIndex
	mergedSvc *tools.Service
	mergedDir string
	sub       *nats.Subscription
	inUse     sync.WaitGroup
}

// loadedRepo is one repository's index in a loaded shard: on disk, opened when first used.
type loadedRepo struct {
	repo, version string
	dir           string
	mu            sync.Mutex
	x             *workspace.SearchIndex // nil until opened
}

// open opens m's index unless it is open.
func (m *loadedRepo) open() (*workspace.SearchIndex, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.x == nil {
		x, err := workspace.OpenShard(workspace.Entry{ID: m.repo, Root: m.dir}, m.dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.repo, err)
		}
		m.x = x
	}
	return m.x, nil
}

// close closes m's index if it is open.
func (m *loadedRepo) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.x != nil {
		m.x.Close()
		m.x = nil
	}
}

// memberService returns the service over l's members' indexes, opening them the first time
// (a failure is tried again by the next operation: the members opened stay open).
func (l *loadedShard) memberService(s *tools.Service) (*tools.Service, error) {
	l.svcMu.Lock()
	defer l.svcMu.Unlock()
	if l.svc == nil {
		xs := make([]*workspace.SearchIndex, len(l.members))
		for i, m := range l.members {
			var err error
			if xs[i], err = m.open(); err != nil {
				return nil, err
			}
		}
		l.svc = s.ShardService(xs)
	}
	return l.svc, nil
}

type node struct {
	s    *tools.Service
	c    *cluster.Cluster
	o    NodeOptions
	mu   sync.Mutex
	held map[string]*loadedShard // by shard name
	// failed holds, by shard@version, when a shard that failed to load may be tried again,
	// and the wait after the next failure (doubling up to maxRetryWait).
	failed map[string]retry
	// lastServers are the serving nodes of the last view placement trusted; shrunkAt, when
	// some of them vanished (zero: none did since).
	lastServers []string
	shrunkAt    time.Time
	distrusted  string // why placement last did not act on its view (empty: it did)
	// routesRev is the catalog revision of the routing table this node last wrote, and
	// routesAt when.
	routesRev uint64
	routesAt  time.Time
}

// retry is when a shard that failed to load is tried again, and the wait after its next
// failure.
type retry struct {
	at   time.Time
	wait time.Duration
}

// Waits before a shard that failed to load (a download refused, an index that does not
// open) is tried again: the first, doubled at each failure up to the last.
const (
	firstRetryWait = 2 * time.Second
	maxRetryWait   = 5 * time.Minute
)

// parallelFetches is how many of a shard's members a node downloads at once.
const parallelFetches = 8

// handoverWait bounds how long a node stopping gracefully keeps answering for the shards it
// serves while the nodes taking them over load them.
var handoverWait = 15 * time.Second

func (n *node) logf(format string, args ...any) {
	if n.o.Logf != nil {
		n.o.Logf(format, args...)
	}
}

// RunNode runs a node until ctx ends: it beats, takes index jobs (o.Index) and serves the
// shards assigned to it (o.Serve).
func RunNode(ctx context.Context, s *tools.Service, c *cluster.Cluster, o NodeOptions) error {
	if o.Data == "" {
		return tools.Errorf(tools.CodeBadValue, "data", "a node needs a data directory: give --data DIR")
	}
	if o.ID == "" {
		host, _ := os.Hostname()
		o.ID = fmt.Sprintf("%s-%d", cmp.Or(host, "node"), os.Getpid())
	}
	if err := cluster.CheckName(o.ID); err != nil {
		return tools.Errorf(tools.CodeBadValue, "id", "node id: %v", err)
	}
	if o.Replicas <= 0 {
		o.Replicas = cluster.DefaultReplicas
	}
	if o.Compounding == nil {
		o.Compounding = &cluster.DefaultCompounding
	}
	if err := os.MkdirAll(o.Data, 0o700); err != nil {
		return tools.AsError(err)
	}
	if err := c.WatchRepos(ctx); err != nil {
		return err
	}
	if err := c.WatchNodes(ctx); err != nil {
		return err
	}
	if err := checkUniqueID(ctx, c, o.ID); err != nil {
		return err
	}
	n := &node{s: s, c: c, o: o, held: map[string]*loadedShard{}, failed: map[string]retry{}}
	n.logf("node %s: started: index %v, serve %v, %d replicas of each shard, data in %s", o.ID, o.Index, o.Serve, o.Replicas, o.Data)
	if err := n.sweep(ctx); err != nil {
		n.logf("node %s: %v", o.ID, err)
	}
	// The heartbeat has a goroutine of its own: a reconcile that loads a large compound
	// takes longer than NodeTTL, and a node whose beat waited for it looked dead to the
	// others, which took its shards over.
	beatCtx, stopBeat := context.WithCancel(ctx)
	var beats sync.WaitGroup
	beats.Go(func() { n.beat(beatCtx) })
	defer func() {
		stopBeat()
		beats.Wait() // no beat after stop's Leave
		n.stop(context.WithoutCancel(ctx))
	}()
	var wg sync.WaitGroup
	errc := make(chan error, 2)
	if o.Index {
		wg.Go(func() {
			if err := n.indexJobs(ctx); err != nil && ctx.Err() == nil {
				errc <- err
			}
		})
	}
	tick := time.NewTicker(shardTick)
	defer tick.Stop()
	for {
		if err := n.reconcile(ctx); err != nil && ctx.Err() == nil {
			n.logf("node %s: %v", o.ID, err)
		}
		select {
		case <-ctx.Done():
			wg.Wait()
			return nil
		case err := <-errc:
			return err
		case <-tick.C:
		}
	}
}

// beat writes this node's heartbeat, with the shards it answers, every shardTick until ctx
// ends.
func (n *node) beat(ctx context.Context) {
	t := time.NewTicker(shardTick)
	defer t.Stop()
	for {
		if err := n.c.Beat(ctx, cluster.Node{ID: n.o.ID, Index: n.o.Index, Serve: n.o.Serve, Shards: n.versions()}); err != nil && ctx.Err() == nil {
			n.logf("node %s: %v", n.o.ID, err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// reconcile loads the shards assigned to this node and drops those it no longer serves
// once their new nodes answer for them.
func (n *node) reconcile(ctx context.Context) error {
	nodes, err := n.c.Nodes(ctx)
	if err != nil {
		return err
	}
	n.writeRoutes(ctx, nodes)
	if !n.o.Serve {
		return nil
	}
	repos, err := n.c.Repos(ctx)
	if err != nil {
		return err
	}
	servers := []string{n.o.ID}
	loadedBy := map[string]map[string]string{} // node -> shard -> version
	for _, nd := range nodes {
		if nd.Serve && nd.ID != n.o.ID {
			servers = append(servers, nd.ID)
		}
		loadedBy[nd.ID] = nd.Shards
	}
	trusted := n.viewTrusted(nodes, servers)
	current := map[string]bool{}
	newLoads := 0
	for _, sh := range cluster.Shards(repos) {
		current[sh.Name] = true
		assigned := cluster.Assign(sh.Name, servers, n.o.Replicas)
		if slices.Contains(assigned, n.o.ID) {
			n.mu.Lock()
			l := n.held[sh.Name]
			n.mu.Unlock()
			held := l != nil
			if held && sh.Compound() && l.version != sh.Version && time.Since(l.loadedAt) < compoundReloadWait {
				continue // its members' changes are taken together: one build, not one each
			}
			if !held {
				// A shard new to this node: only on a view of the others it can trust, and
				// a few at a time.
				if !trusted || newLoads >= maxNewLoads {
					continue
				}
				newLoads++
			}
			n.loadOrWait(ctx, sh)
			continue
		}
		if !trusted {
			continue // keep answering: the view may have lost the nodes that took it over
		}
		// Not ours: keep answering until every assigned node serves this version.
		ready := true
		for _, id := range assigned {
			if loadedBy[id][sh.Name] != sh.Version {
				ready = false
			}
		}
		if ready {
			n.unload(sh.Name)
		}
	}
	n.mu.Lock()
	var gone []string
	for name := range n.held {
		if !current[name] {
			gone = append(gone, name)
		}
	}
	n.mu.Unlock()
	for _, name := range gone {
		n.unload(name)
	}
	return nil
}

// writeRoutes writes the catalog's routing table (cluster.WriteRoutes) when this node is
// the live node of the lowest id and the catalog changed since it last wrote it, at most
// every cluster.RoutesEvery. Any node's table is right as of its revision (a router
// replays the changes after it), so a node that wrongly believes itself the lowest costs
// only a write.
func (n *node) writeRoutes(ctx context.Context, nodes []cluster.Node) {
	for _, nd := range nodes {
		if nd.ID < n.o.ID && time.Since(nd.Seen) < staleView {
			return
		}
	}
	if time.Since(n.routesAt) < cluster.RoutesEvery {
		return
	}
	rev, err := n.c.WriteRoutes(ctx, n.routesRev)
	if err != nil {
		n.logf("node %s: %v", n.o.ID, err)
		return
	}
	if rev != n.routesRev {
		n.routesRev, n.routesAt = rev, time.Now()
	}
}

// Placement's guards against a view of the other nodes that a lost NATS server made
// stale (issue 44: for 10-25 s a node saw none of the others, took their shards and would
// have downloaded the whole corpus):
//   - staleView: a view in which this node's own last heartbeat is older than this is
//     stale: no shard is taken or given up on it;
//   - placementGrace: when nodes vanish from the view, the shards they served are taken
//     only once the smaller view has held this long (their replicas answer meanwhile);
//   - maxNewLoads: at most this many shards new to the node are loaded per reconcile.
var (
	// compoundReloadWait is the least time between two versions of a compound a node
	// serves: the one index of its members is built again for each (merged.go), and while
	// repositories are being added every tick would bring one. The version it serves
	// answers meanwhile, and names the members it does not hold yet.
	compoundReloadWait = 10 * time.Second
	staleView          = 3 * shardTick
	placementGrace     = cluster.NodeTTL
	maxNewLoads        = 16
)

// viewTrusted reports whether nodes (servers: the serving ones, this node first) is a view
// this node may take shards on: fresh (its own heartbeat is in it and recent), and, when
// servers vanished from it since the last reconcile, held for placementGrace.
func (n *node) viewTrusted(nodes []cluster.Node, servers []string) bool {
	why := n.distrust(nodes, servers)
	if why != n.distrusted { // said once a change, not once a tick
		if why == "" {
			n.logf("node %s: placement on a view of %d serving nodes again", n.o.ID, len(servers))
		} else {
			n.logf("node %s: no shard taken or given up: %s", n.o.ID, why)
		}
		n.distrusted = why
	}
	return why == ""
}

// distrust says why placement may not act on the view (empty: it may).
func (n *node) distrust(nodes []cluster.Node, servers []string) string {
	i := slices.IndexFunc(nodes, func(nd cluster.Node) bool { return nd.ID == n.o.ID })
	if i < 0 {
		return "this node's heartbeat is not in its view of the nodes"
	}
	if time.Since(nodes[i].Seen) > staleView {
		return fmt.Sprintf("its view of the nodes is stale (its own heartbeat in it is over %v old)", staleView)
	}
	var lost []string
	for _, id := range n.lastServers {
		if !slices.Contains(servers, id) {
			lost = append(lost, id)
		}
	}
	switch {
	case len(lost) > 0:
		n.shrunkAt = time.Now()
		n.lastServers = servers
		return fmt.Sprintf("nodes %v left its view: waiting %v for it to hold", lost, placementGrace)
	case !n.shrunkAt.IsZero() && time.Since(n.shrunkAt) < placementGrace:
		return n.distrusted
	}
	n.shrunkAt = time.Time{}
	n.lastServers = servers
	return ""
}

// loadOrWait loads sh unless its last failure asks to wait; a failure doubles the wait
// (a shard that does not download or open is not fetched again every second), and a shard
// refused as tampered is reported in the catalog's entries of its repositories.
func (n *node) loadOrWait(ctx context.Context, sh cluster.Shard) {
	key := sh.Name + "@" + sh.Version
	if r, ok := n.failed[key]; ok && time.Now().Before(r.at) {
		return
	}
	err := n.load(ctx, sh)
	if err == nil {
		delete(n.failed, key)
		return
	}
	wait := firstRetryWait
	if r, ok := n.failed[key]; ok {
		wait = min(2*r.wait, maxRetryWait)
	}
	n.failed[key] = retry{at: time.Now().Add(wait), wait: wait}
	n.logf("node %s: load %s: %v (next try in %s)", n.o.ID, key, err, wait)
	if errors.Is(err, cluster.ErrTampered) {
		for _, r := range sh.Repos {
			if r.Error == "" {
				r.Error = fmt.Sprintf("node %s refused the shard: %v", n.o.ID, err)
				_, _ = n.c.PutRepo(ctx, r) // compare-and-set: a newer entry wins
			}
		}
	}
}

// sweep removes the shards a node kept on disk (a graceful stop keeps them) that are no
// longer a current version in the catalog, and downloads a stop cut short.
func (n *node) sweep(ctx context.Context) error {
	repos, err := n.c.Repos(ctx)
	if err != nil {
		return err
	}
	current := map[string]bool{} // shard/repo@version, and shard
	for _, sh := range cluster.Shards(repos) {
		current[sh.Name] = true
		for _, r := range sh.Repos {
			current[sh.Name+"/"+r.Name+"@"+r.Version] = true
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(n.o.Data, "shards", "*", "*"))
	for _, d := range dirs {
		if filepath.Base(d) == mergedDir {
			if !current[filepath.Base(filepath.Dir(d))] {
				_ = os.RemoveAll(d)
			}
			continue
		}
		rel, err := filepath.Rel(filepath.Join(n.o.Data, "shards"), d)
		if err == nil && !current[filepath.ToSlash(rel)] {
			_ = os.RemoveAll(d)
		}
	}
	return nil
}

// checkUniqueID refuses to start a node under the id of a live one: a heartbeat with the id
// that is still beating (one left by a node killed a moment ago stops).
func checkUniqueID(ctx context.Context, c *cluster.Cluster, id string) error {
	seen := func() (time.Time, bool, error) {
		nodes, err := c.Nodes(ctx)
		if err != nil {
			return time.Time{}, false, err
		}
		for _, nd := range nodes {
			if nd.ID == id {
				return nd.Seen, true, nil
			}
		}
		return time.Time{}, false, nil
	}
	first, ok, err := seen()
	if err != nil || !ok {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(3 * shardTick):
	}
	again, ok, err := seen()
	if err != nil {
		return err
	}
	if ok && !again.Equal(first) {
		return tools.Errorf(tools.CodeBadValue, "id", "node id %s is in use by a live node of the cluster (its heartbeat at %s): give another --id", id, again.Format(time.RFC3339))
	}
	return nil
}

// stop ends a node gracefully: it leaves the live nodes, keeps answering for its shards
// until the nodes taking them over serve them (at most handoverWait), then stops answering,
// keeping the shards on disk for its next start.
func (n *node) stop(ctx context.Context) {
	_ = n.c.Leave(ctx, n.o.ID)
	n.mu.Lock()
	held := len(n.held)
	n.mu.Unlock()
	if held > 0 && n.o.Serve {
		for deadline := time.Now().Add(handoverWait); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if n.handedOver(ctx) {
				break
			}
		}
	}
	n.mu.Lock()
	names := make([]string, 0, len(n.held))
	for name := range n.held {
		names = append(names, name)
	}
	n.mu.Unlock()
	for _, name := range names {
		n.mu.Lock()
		l := n.held[name]
		delete(n.held, name)
		n.mu.Unlock()
		n.drop(l, nil, true)
	}
	n.logf("node %s: stopped; its shards kept in %s", n.o.ID, filepath.Join(n.o.Data, "shards"))
}

// handedOver reports whether every shard this node serves is served, at its version, by all
// the live nodes now assigned it.
func (n *node) handedOver(ctx context.Context) bool {
	nodes, err := n.c.Nodes(ctx)
	if err != nil {
		return false
	}
	var servers []string
	loadedBy := map[string]map[string]string{}
	for _, nd := range nodes {
		if nd.Serve && nd.ID != n.o.ID {
			servers = append(servers, nd.ID)
			loadedBy[nd.ID] = nd.Shards
		}
	}
	if len(servers) == 0 {
		return true // no one to hand over to
	}
	for name, version := range n.versions() {
		for _, id := range cluster.Assign(name, servers, n.o.Replicas) {
			if loadedBy[id][name] != version {
				return false
			}
		}
	}
	return true
}

func (n *node) versions() map[string]string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make(map[string]string, len(n.held))
	for name, l := range n.held {
		out[name] = l.version
	}
	return out
}

// repoDir is where shard keeps version of repo: always inside the node's data directory
// (the names come from the catalog, checked).
func (n *node) repoDir(shard, repo, version string) (string, error) {
	if err := cluster.CheckShardName(shard); err != nil {
		return "", err
	}
	if err := cluster.CheckName(repo); err != nil {
		return "", err
	}
	if err := cluster.CheckName(version); err != nil {
		return "", fmt.Errorf("shard version %q: %w", version, err)
	}
	return filepath.Join(n.o.Data, "shards", shard, repo+"@"+version), nil
}

// load makes this node answer sh's current version: each member's index downloaded (or
// kept from the version loaded); a repository's index opened, a compound's members' one
// index built (merged.go); the subject subscribed; then the version it replaces is dropped.
func (n *node) load(ctx context.Context, sh cluster.Shard) error {
	n.mu.Lock()
	old := n.held[sh.Name]
	n.mu.Unlock()
	if old != nil && old.version == sh.Version {
		return nil
	}
	kept := map[string]bool{} // the old version's members the new one keeps, by directory
	l := &loadedShard{name: sh.Name, version: sh.Version}
	fail := func(err error) error {
		for _, m := range l.members {
			if !kept[m.dir] {
				m.close()
			}
		}
		if l.merged != nil {
			l.merged.Close()
		}
		return err
	}
	l.members = make([]*loadedRepo, len(sh.Repos))
	var fetch []int // the members to download, by index
	for i, r := range sh.Repos {
		if old != nil {
			if j := slices.IndexFunc(old.members, func(m *loadedRepo) bool { return m.repo == r.Name && m.version == r.Version }); j >= 0 {
				kept[old.members[j].dir] = true
				l.members[i] = old.members[j]
				continue
			}
		}
		fetch = append(fetch, i)
	}
	// A compound's members are downloaded a few at a time: one at a time, a compound of
	// 564 small repositories took most of a minute.
	errs := make([]error, len(sh.Repos))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(parallelFetches, len(fetch)) {
		wg.Go(func() {
			for i := range next {
				l.members[i], errs[i] = n.fetchRepo(ctx, sh.Name, sh.Repos[i])
			}
		})
	}
	for _, i := range fetch {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			l.members = slices.DeleteFunc(l.members, func(m *loadedRepo) bool { return m == nil })
			return fail(fmt.Errorf("%s: %w", sh.Repos[i].Name, err))
		}
	}
	if sh.Compound() {
		if err := n.buildMerged(ctx, l, old); err != nil {
			var bad *badMember
			if errors.As(err, &bad) {
				if !kept[bad.dir] {
					_ = os.RemoveAll(bad.dir) // downloaded again next time, not read again as it is
				}
				return fail(err)
			}
			if ctx.Err() != nil {
				return fail(err)
			}
			// The members answer every operation themselves, one search each: slower,
			// never wrong; the next version builds the one index again.
			n.logf("node %s: %s@%s: its one index of %d repositories: %v; its searches go to each repository's own", n.o.ID, sh.Name, sh.Version, len(l.members), err)
		}
	} else if _, err := l.memberService(n.s); err != nil {
		if m := l.members[0]; !kept[m.dir] {
			_ = os.RemoveAll(m.dir) // downloaded again next time, not opened again as it is
		}
		return fail(err)
	}
	sub, err := n.c.NC.QueueSubscribe(cluster.ShardSubject(sh.Name), cluster.ShardQueue(sh.Name), func(m *nats.Msg) {
		l.inUse.Add(1)
		defer l.inUse.Done()
		n.answer(m, l)
	})
	if err != nil {
		return fail(err)
	}
	l.sub, l.loadedAt = sub, time.Now()
	n.mu.Lock()
	n.held[sh.Name] = l
	n.mu.Unlock()
	n.logf("node %s: serving %s@%s (%d repositories)", n.o.ID, sh.Name, sh.Version, len(l.members))
	if old != nil {
		n.drop(old, kept, false)
	}
	return nil
}

// fetchRepo downloads r's index for shard unless it is on disk already.
func (n *node) fetchRepo(ctx context.Context, shard string, r cluster.Repo) (*loadedRepo, error) {
	dir, err := n.repoDir(shard, r.Name, r.Version)
	if err != nil {
		return nil, err
	}
	if want := cluster.ShardObject(r.Name, r.Version); r.Object != want {
		return nil, fmt.Errorf("%w: the catalog's entry of %s names object %s, not %s", cluster.ErrTampered, r.Name, r.Object, want)
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return nil, err
		}
		if err := n.c.Download(ctx, r.Object, r.Version, dir); err != nil {
			return nil, err
		}
	}
	return &loadedRepo{repo: r.Name, version: r.Version, dir: dir}, nil
}

func (n *node) unload(name string) {
	n.mu.Lock()
	l := n.held[name]
	delete(n.held, name)
	n.mu.Unlock()
	if l != nil {
		n.logf("node %s: no longer serving %s@%s", n.o.ID, name, l.version)
		n.drop(l, nil, false)
		_ = os.RemoveAll(filepath.Join(n.o.Data, "shards", name, mergedDir))
		_ = os.Remove(filepath.Join(n.o.Data, "shards", name)) // once empty
	}
}

// drop stops answering from l, waits for the searches under way and closes and removes
// its members but those kept (by directory) by the version that replaces it.
// With onDisk, the members' directories stay (a node stopping keeps them for its next start).
func (n *node) drop(l *loadedShard, kept map[string]bool, onDisk bool) {
	_ = l.sub.Drain()
	for l.sub.IsValid() {
		time.Sleep(10 * time.Millisecond)
	}
	l.inUse.Wait()
	for _, m := range l.members {
		if !kept[m.dir] {
			m.close()
			if !onDisk {
				_ = os.RemoveAll(m.dir)
			}
		}
	}
	if l.merged != nil {
		l.merged.Close() // its directory is the next version's to build in
	}
}

// answer runs the operation m carries on shard l and replies.
func (n *node) answer(m *nats.Msg, l *loadedShard) {
	ans := ShardAnswer{Shard: l.name, Version: l.version, Node: n.o.ID}
	var call ShardCall
	err := json.Unmarshal(m.Data, &call)
	if call.Version != l.version {
		for _, r := range l.members {
			ans.Repos = append(ans.Repos, r.repo)
		}
	}
	if err != nil {
		ans.Error = tools.AsError(fmt.Errorf("a malformed shard call: %w", err))
	} else if res, err := n.call(context.Background(), l, call); err != nil {
		ans.Error = tools.AsError(err)
	} else if ans.Result, err = json.Marshal(res); err != nil {
		ans.Error = tools.AsError(err)
	}
	b, err := json.Marshal(ans)
	if err != nil {
		b, _ = json.Marshal(ShardAnswer{Shard: l.name, Node: n.o.ID, Error: tools.AsError(err)})
	}
	_ = m.Respond(b)
}

// call runs a router's call on shard l: a search a compound's one index can answer there
// (mergedLine), anything else on the shard's members' indexes.
func (n *node) call(ctx context.Context, l *loadedShard, call ShardCall) (any, error) {
	if l.merged != nil {
		if c, ok := mergedLine(call); ok {
			return l.searchMerged(ctx, c)
		}
	}
	svc, err := l.memberService(n.s)
	if err != nil {
		return nil, tools.AsError(err)
	}
	return shardCall(ctx, svc, call)
}

// shardCall runs a router's call on a shard's service: an operation of the contract, or
// one of a query document's (shardOp).
func shardCall(ctx context.Context, s *tools.Service, call ShardCall) (any, error) {
	if res, ok, err := shardOp(ctx, s, call.Op, call.Args); ok {
		return res, err
	}
	return s.Call(ctx, call.Op, call.Args)
}

// ClusterAdd adds (or, with update, re-indexes) a repository: its catalog entry, then an
// index job. A local path is made absolute: the indexers read it as given.
func ClusterAdd(ctx context.Context, c *cluster.Cluster, name, source string, update bool) (cluster.Repo, error) {
	if !isGitURL(source) {
		abs, err := filepath.Abs(source)
		if err != nil {
			return cluster.Repo{}, tools.AsError(err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return cluster.Repo{}, tools.Errorf(tools.CodeNotFound, "source", "%s is not a directory (give a directory the indexers can read, or a git URL)", source)
		}
		source = abs
	}
	if name == "" {
		name = repoNameOf(source)
	}
	if err := cluster.CheckName(name); err != nil {
		return cluster.Repo{}, tools.Errorf(tools.CodeBadValue, "name", "%v; give --name", err)
	}
	r, err := c.Repo(ctx, name)
	switch {
	case errors.Is(err, cluster.ErrNoRepo):
		if update {
			return cluster.Repo{}, tools.Errorf(tools.CodeUnknownWorkspace, "name", "the cluster has no repository %q: add it first", name)
		}
		r = cluster.Repo{Name: name, Source: source}
		if r.Revision, err = c.PutRepo(ctx, r); err != nil {
			return cluster.Repo{}, tools.AsError(err)
		}
	case err != nil:
		return cluster.Repo{}, tools.AsError(err)
	case !update && r.Source != source:
		return cluster.Repo{}, tools.Errorf(tools.CodeBadValue, "name", "the cluster already has a repository %q (from %s): give another --name, or update it", name, r.Source)
	}
	if err := c.Enqueue(ctx, cluster.Job{Op: cluster.OpIndex, Repo: name, Source: r.Source}); err != nil {
		return cluster.Repo{}, tools.AsError(err)
	}
	return r, nil
}

// repoNameOf is the default name of the repository at source: its last path element,
// without .git, in the characters a name allows.
func repoNameOf(source string) string {
	base := strings.TrimSuffix(filepath.Base(strings.TrimRight(source, "/")), ".git")
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteRune('-')
		}
	}
	return strings.TrimLeft(b.String(), "-_")
}

func isGitURL(s string) bool {
	return strings.Contains(s, "://") || strings.HasPrefix(s, "git@") || strings.HasSuffix(s, ".git") && !isDir(s)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// indexJobs takes index jobs one at a time until ctx ends.
func (n *node) indexJobs(ctx context.Context) error {
	cons, err := n.c.Indexers(ctx)
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			n.logf("node %s: jobs: %v", n.o.ID, err)
			time.Sleep(time.Second)
			continue
		}
		for m := range batch.Messages() {
			var j cluster.Job
			if err := json.Unmarshal(m.Data(), &j); err != nil || cluster.CheckName(j.Repo) != nil {
				n.logf("node %s: a malformed job dropped: %s", n.o.ID, m.Data())
				_ = m.Term()
				continue
			}
			stop := make(chan struct{})
			go func() { // still at it: the job stays this indexer's
				t := time.NewTicker(cluster.JobAckWait / 3)
				defer t.Stop()
				for {
					select {
					case <-stop:
						return
					case <-t.C:
						_ = m.InProgress()
					}
				}
			}()
			err := n.runJob(ctx, j)
			close(stop)
			if err != nil {
				n.logf("node %s: %s %s: %v", n.o.ID, j.Op, j.Repo, err)
				if ctx.Err() != nil {
					return nil // not acknowledged: another indexer takes it
				}
				_ = m.NakWithDelay(5 * time.Second)
				continue
			}
			_ = m.Ack()
		}
	}
	return nil
}

// seedWait is how long an indexer tries to fetch a repository's current shard to build on.
var seedWait = 30 * time.Second

// runJob builds j's shard and records it in the catalog. A failure of the source (gone,
// unreadable) is recorded in the catalog and is not retried; a failure of the cluster is.
func (n *node) runJob(ctx context.Context, j cluster.Job) error {
	if j.Op != cluster.OpIndex {
		return nil
	}
	r, err := n.c.Repo(ctx, j.Repo)
	if errors.Is(err, cluster.ErrNoRepo) {
		return nil // removed since
	}
	if err != nil {
		return err
	}
	src := r.Source
	if isGitURL(src) {
		if src, err = n.fetchGit(ctx, r); err != nil {
			return n.recordFailure(ctx, r, err)
		}
	}
	build := filepath.Join(n.o.Data, "build", r.Name)
	if _, err := os.Stat(workspace.StorePath(build)); errors.Is(err, os.ErrNotExist) && r.Object != "" {
		// Another indexer built the current version: start from it, so that only what
		// changed since is read and extracted again.
		// A NATS server that just died leaves the object store without a leader for a few
		// seconds: worth waiting for, as a build from scratch costs far more.
		_ = os.RemoveAll(build)
		for deadline := time.Now().Add(seedWait); ; {
			err := n.c.Download(ctx, r.Object, r.Version, build)
			if err == nil {
				writeBuilt(n.o.Data, r.Name, r.Version)
				break
			}
			if errors.Is(err, jetstream.ErrObjectNotFound) || errors.Is(err, cluster.ErrTampered) || time.Now().After(deadline) || ctx.Err() != nil {
				n.logf("node %s: %s: the current shard could not be fetched to build on (%v): indexing from scratch", n.o.ID, r.Name, err)
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	if err := os.MkdirAll(build, 0o700); err != nil {
		return err
	}
	n.logf("node %s: indexing %s from %s", n.o.ID, r.Name, src)
	sum, err := workspace.Index(ctx, src, build, n.s.Languages(), workspace.IndexOptions{Compact: true}) // shipped: in one piece
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return n.recordFailure(ctx, r, err)
	}
	if r.Object != "" && r.Error == "" && builtVersion(n.o.Data, r.Name) == r.Version && !sum.Reextracted &&
		sum.Added+sum.Changed+sum.Deleted+sum.Renamed == 0 && len(sum.Errors) == 0 {
		// The build holds the current version and nothing changed: its version stands
		// (the shard's files are not byte for byte the same after a run: uploading them
		// would make every replica download an equal index again).
		n.logf("node %s: %s@%s unchanged: files extracted %d, unchanged %d; nothing uploaded", n.o.ID, r.Name, r.Version, sum.Extracted, sum.Unchanged)
		return nil
	}
	version, object, size, err := n.c.Upload(ctx, r.Name, build)
	if err != nil {
		return err
	}
	for {
		r, err = n.c.Repo(ctx, j.Repo)
		if errors.Is(err, cluster.ErrNoRepo) {
			return n.c.DeleteObject(ctx, object) // removed while it was built
		}
		if err != nil {
			return err
		}
		old := r.Object
		all, err := n.c.Repos(ctx)
		if err != nil {
			return err
		}
		r.Shard = n.o.Compounding.PlaceRepo(all, r, size)
		r.Version, r.Object, r.Bytes, r.Indexer, r.Error = version, object, size, n.o.ID, ""
		r.Files, r.Symbols, r.IndexedAt = sum.Counts.Files, sum.Counts.Symbols, time.Now().UTC()
		r.Languages = []string{}
		for _, l := range sum.Languages {
			if l.Files > 0 && l.Language != "" {
				r.Languages = append(r.Languages, l.Language)
			}
		}
		if _, err = n.c.PutRepo(ctx, r); errors.Is(err, cluster.ErrChanged) {
			continue // another writer came between: read again
		}
		if err != nil {
			return err
		}
		writeBuilt(n.o.Data, r.Name, version)
		if old != "" && old != object {
			_ = n.c.DeleteObject(ctx, old)
		}
		n.logf("node %s: %s@%s: %d files, %d symbols, %d bytes, in shard %s; files extracted %d, unchanged %d",
			n.o.ID, r.Name, version, r.Files, r.Symbols, size, r.ShardName(), sum.Extracted, sum.Unchanged)
		return nil
	}
}

func (n *node) recordFailure(ctx context.Context, r cluster.Repo, cause error) error {
	r.Error = cause.Error()
	if _, err := n.c.PutRepo(ctx, r); err != nil && !errors.Is(err, cluster.ErrChanged) {
		return err
	}
	return nil
}

// fetchGit clones (or fetches) the repository's git URL into the node's data directory.
func (n *node) fetchGit(ctx context.Context, r cluster.Repo) (string, error) {
	dir := filepath.Join(n.o.Data, "src", r.Name)
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	if isDir(filepath.Join(dir, ".git")) {
		if err := run("-C", dir, "fetch", "--depth", "1", "origin"); err != nil {
			return "", err
		}
		return dir, run("-C", dir, "reset", "--hard", "FETCH_HEAD")
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", err
	}
	return dir, run("clone", "--depth", "1", "--", r.Source, dir)
}

// builtVersion is the version of repo's shard the node's build directory holds (it built and
// uploaded it, or started from it), "" if unknown.
func builtVersion(data, repo string) string {
	b, err := os.ReadFile(filepath.Join(data, "build", repo+".version"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// writeBuilt records that the build directory of repo holds version.
func writeBuilt(data, repo, version string) {
	_ = os.WriteFile(filepath.Join(data, "build", repo+".version"), []byte(version+"\n"), 0o600)
}
