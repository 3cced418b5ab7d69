package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Repo is a repository of the cluster and its current shard.
type Repo struct {
	Name   string `json:"name"`
	Source string `json:"source"` // a path or git URL the indexers can read
	// The current shard; empty until an indexer has built one.
	Version   string    `json:"version,omitempty"` // the shard's version: a hash of its files
	Object    string    `json:"object,omitempty"`  // the shard's object in ShardsBucket
	Files     int       `json:"files,omitempty"`
	Symbols   int       `json:"symbols,omitempty"`
	Bytes     int64     `json:"bytes,omitempty"` // the shard's size
	IndexedAt time.Time `json:"indexed_at,omitzero"`
	Indexer   string    `json:"indexer,omitempty"` // the node that built it
	Error     string    `json:"error,omitempty"`   // why the last job failed
	// Shard is the compound shard the repository's index is served in with other small
	// repositories (PlaceRepo); empty: a shard of its own, named as the repository.
	Shard string `json:"shard,omitempty"`
	// Languages are the languages of its indexed files (nil: not known, from an older
	// indexer): a search in another language skips its shard.
	Languages []string `json:"languages,omitempty"`
	Revision  uint64   `json:"-"` // the catalog entry's revision (compare-and-set)
}

// Node is a live node, as its heartbeat says.
type Node struct {
	ID     string            `json:"id"`
	Index  bool              `json:"index"`
	Serve  bool              `json:"serve"`
	Shards map[string]string `json:"shards,omitempty"` // shard -> its version, loaded and answering
	Seen   time.Time         `json:"seen"`
}

var repoName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$`)

// CheckName checks a repository name: letters, digits, '-' and '_', up to 100, the first a
// letter or digit (a name is a key and part of a subject).
func CheckName(name string) error {
	if !repoName.MatchString(name) {
		return fmt.Errorf("cluster: repository name %q: use letters, digits, '-' and '_' (up to 100, starting with a letter or digit)", name)
	}
	return nil
}

// ErrNoRepo is returned for a repository the catalog does not hold.
var ErrNoRepo = errors.New("no such repository in the cluster")

// opTimeout bounds one request to JetStream: a server that died mid-request is an error,
// never a hang (the client reconnects to another meanwhile).
const opTimeout = 5 * time.Second

// Repo returns the catalog's entry of name.
func (c *Cluster) Repo(ctx context.Context, name string) (Repo, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	// Asked again while a server that died leaves the bucket without a leader for a moment.
	e, err := retry(ctx, func(ctx context.Context) (jetstream.KeyValueEntry, error) { return c.repos.Get(ctx, name) })
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Repo{}, fmt.Errorf("cluster: %s: %w", name, ErrNoRepo)
	}
	if err != nil {
		return Repo{}, fmt.Errorf("cluster: read %s: %w", name, err)
	}
	var r Repo
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return Repo{}, fmt.Errorf("cluster: the catalog entry of %s: %w", name, err)
	}
	r.Revision = e.Revision()
	return r, nil
}

// Repos returns every repository of the catalog, by name: from the watched copy once
// WatchRepos has it, else read now.
func (c *Cluster) Repos(ctx context.Context) ([]Repo, error) {
	if repos, ok := c.repoCopy.get(); ok {
		return repos, nil
	}
	return c.readRepos(ctx)
}

// ReposGeneration is Repos with a number that changes whenever the watched copy does (0:
// read now, not watched). The list is shared: not to be modified.
func (c *Cluster) ReposGeneration(ctx context.Context) ([]Repo, uint64, error) {
	if repos, _, gen, ok := c.repoCopy.snapshot(); ok {
		return repos, gen, nil
	}
	repos, err := c.readRepos(ctx)
	return repos, 0, err
}

func (c *Cluster) readRepos(ctx context.Context) ([]Repo, error) {
	keys, err := c.keys(ctx, ReposBucket)
	if err != nil {
		return nil, fmt.Errorf("cluster: list repositories: %w", err)
	}
	out := make([]Repo, 0, len(keys))
	for _, k := range keys {
		if k == RoutesKey {
			continue
		}
		r, err := c.Repo(ctx, k)
		if errors.Is(err, ErrNoRepo) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// lastRevision returns a function that reads bucket's last revision (its stream's last
// sequence).
func (c *Cluster) lastRevision(bucket string) func(context.Context) (uint64, error) {
	return func(ctx context.Context) (uint64, error) {
		st, err := c.stream(ctx, "KV_"+bucket)
		if err != nil {
			return 0, err
		}
		info, err := st.Info(ctx)
		if err != nil {
			return 0, err
		}
		return info.State.LastSeq, nil
	}
}

// keys returns the keys of bucket's entries, sorted, and some that were deleted (a read of
// one says it is not found). They are the subjects of the bucket's stream: one request to
// its leader, asked again while the stream elects one. Not kv.Keys: it creates a consumer
// for each listing, and after kill -9 of one of 3 nats-server 2.9 processes up to half of
// those creations timed out, for as long as it was measured (150 s).
func (c *Cluster) keys(ctx context.Context, bucket string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	prefix := "$KV." + bucket + "."
	st, err := c.stream(ctx, "KV_"+bucket)
	if err != nil {
		return nil, err
	}
	info, err := retry(ctx, func(ctx context.Context) (*jetstream.StreamInfo, error) {
		return st.Info(ctx, jetstream.WithSubjectFilter(prefix+">"))
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(info.State.Subjects))
	for subject := range info.State.Subjects {
		keys = append(keys, strings.TrimPrefix(subject, prefix))
	}
	sort.Strings(keys)
	return keys, nil
}

// ErrChanged is returned when a catalog entry changed since it was read.
var ErrChanged = errors.New("the catalog entry changed meanwhile")

// PutRepo writes r if its entry is still at r.Revision (0: the entry must not exist), and
// returns the new revision.
func (c *Cluster) PutRepo(ctx context.Context, r Repo) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	b, err := json.Marshal(r)
	if err != nil {
		return 0, err
	}
	var rev uint64
	if r.Revision == 0 {
		rev, err = c.repos.Create(ctx, r.Name, b)
	} else {
		rev, err = c.repos.Update(ctx, r.Name, b, r.Revision)
	}
	if errors.Is(err, jetstream.ErrKeyExists) || isWrongSequence(err) {
		return 0, fmt.Errorf("cluster: %s: %w", r.Name, ErrChanged)
	}
	if err != nil {
		return 0, fmt.Errorf("cluster: write %s: %w", r.Name, err)
	}
	return rev, nil
}

func isWrongSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
}

// DeleteRepo removes name from the catalog and its shard's object.
func (c *Cluster) DeleteRepo(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	r, err := c.Repo(ctx, name)
	if err != nil {
		return err
	}
	if err := c.repos.Delete(ctx, name); err != nil {
		return fmt.Errorf("cluster: remove %s: %w", name, err)
	}
	if r.Object != "" {
		if err := c.shards.Delete(ctx, r.Object); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			return fmt.Errorf("cluster: remove the shard of %s: %w", name, err)
		}
	}
	return nil
}

// Beat records n as live until NodeTTL from now.
func (c *Cluster) Beat(ctx context.Context, n Node) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	n.Seen = time.Now().UTC()
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if _, err := c.nodes.Put(ctx, n.ID, b); err != nil {
		return fmt.Errorf("cluster: heartbeat of %s: %w", n.ID, err)
	}
	return nil
}

// Leave removes node id from the live nodes at once.
func (c *Cluster) Leave(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	return c.nodes.Delete(ctx, id)
}

// Nodes returns the live nodes, by id: from the watched copy once WatchNodes has it, else
// read now.
func (c *Cluster) Nodes(ctx context.Context) ([]Node, error) {
	if nodes, ok := c.nodeCopy.get(); ok {
		return slices.DeleteFunc(slices.Clone(nodes), func(n Node) bool { return time.Since(n.Seen) > NodeTTL }), nil
	}
	keys, err := c.keys(ctx, NodesBucket)
	if err != nil {
		return nil, fmt.Errorf("cluster: list nodes: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	var out []Node
	for _, k := range keys {
		e, err := retry(ctx, func(ctx context.Context) (jetstream.KeyValueEntry, error) { return c.nodes.Get(ctx, k) })
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("cluster: read node %s: %w", k, err)
		}
		var n Node
		if err := json.Unmarshal(e.Value(), &n); err != nil {
			continue
		}
		if time.Since(n.Seen) > NodeTTL {
			continue // the bucket's expiry is coarse: a stale beat is not a live node
		}
		out = append(out, n)
	}
	return out, nil
}

// DefaultReplicas is how many nodes serve each shard.
const DefaultReplicas = 2

// Assign returns the serving nodes of repo among nodes: the replicas whose rendezvous hash
// with the repository is highest. Every caller that sees the same live nodes computes the
// same assignment, and a node joining or leaving moves only the shards it wins or held.
func Assign(repo string, nodes []string, replicas int) []string {
	type scored struct {
		id    string
		score uint64
	}
	s := make([]scored, 0, len(nodes))
	for _, n := range nodes {
		h := fnv.New64a()
		h.Write([]byte(repo))
		h.Write([]byte{0})
		h.Write([]byte(n))
		s = append(s, scored{n, mix(h.Sum64())})
	}
	sort.Slice(s, func(i, j int) bool {
		if s[i].score != s[j].score {
			return s[i].score > s[j].score
		}
		return s[i].id < s[j].id
	})
	out := []string{}
	for i := 0; i < len(s) && i < replicas; i++ {
		out = append(out, s[i].id)
	}
	slices.Sort(out)
	return out
}

// mix spreads the bits of a hash (FNV's high bits vary little for similar inputs).
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// WatchRepos keeps a copy of the catalog in memory, updated as it changes, until ctx ends:
// a router reads the repositories of every request from it instead of asking JetStream.
func (c *Cluster) WatchRepos(ctx context.Context) error {
	return watch(ctx, c.repos, c.lastRevision(ReposBucket), &c.repoCopy, "the catalog", decodeRepo)
}

// WatchNodes keeps a copy of the nodes' heartbeats in memory, updated as they come, until
// ctx ends: a node reads the live nodes every second from it instead of asking JetStream
// (whose listing of keys can stall for a while after a server of the cluster died).
func (c *Cluster) WatchNodes(ctx context.Context) error {
	return watch(ctx, c.nodes, c.lastRevision(NodesBucket), &c.nodeCopy, "the nodes", func(e jetstream.KeyValueEntry) (Node, bool) {
		var n Node
		return n, json.Unmarshal(e.Value(), &n) == nil
	})
}
