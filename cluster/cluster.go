// Package cluster is Quarry's use of NATS JetStream: the connection and its credentials, the
// catalog of repositories and their shards (a key-value bucket), the nodes' heartbeats (a
// key-value bucket whose entries expire), the index jobs (a work-queue stream), the shards'
// files (an object store), where each shard is served (rendezvous hashing over the live
// nodes) and the subjects a shard is searched on. Membership, durable jobs, transfer,
// routing and failover are JetStream's and NATS's; this package names and shapes them.
// What a shard is and how it is searched is the tools package's.
package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The JetStream names the cluster uses.
const (
	ReposBucket  = "QUARRY_REPOS"  // repository name -> Repo (JSON)
	NodesBucket  = "QUARRY_NODES"  // node id -> Node (JSON), expiring after NodeTTL
	ShardsBucket = "QUARRY_SHARDS" // object name -> a shard's files (tar)
	JobsStream   = "QUARRY_JOBS"   // index jobs, a work queue
	JobsSubject  = "quarry.jobs"   // the subject of index jobs
	IndexersName = "quarry-indexers"
)

// NodeTTL is how long a node's heartbeat keeps it live; nodes beat every NodeTTL/4.
var NodeTTL = 8 * time.Second

// Environment variables holding NATS credentials (never flags: a command line is visible
// to every local user).
const (
	EnvUser     = "QUARRY_NATS_USER"
	EnvPassword = "QUARRY_NATS_PASSWORD"
	// EnvInbox is the prefix of the connection's reply subjects (default: _INBOX_USER with
	// a user from EnvUser, else _INBOX): a server that lets each user subscribe only to its
	// own prefix keeps every client from reading another's replies (cluster/nats-server.conf).
	EnvInbox = "QUARRY_NATS_INBOX"
)

// Options say how to reach the cluster.
type Options struct {
	URL       string // nats://HOST:PORT, several comma-separated
	CredsFile string // a NATS credentials file (a user JWT and its seed) or an nkey seed file, else EnvUser/EnvPassword
	Name      string // the connection's name, shown by the servers
	// Replicas of the streams and buckets this connection creates; 0: 3 when the server is
	// part of a cluster, else 1.
	Replicas int
	// Logf, when set, hears the connection's asynchronous events: disconnections,
	// reconnections, errors of subscriptions (else they are dropped, not printed).
	Logf func(format string, args ...any)
}

// Cluster is a connection to a Quarry cluster.
type Cluster struct {
	URL    string
	NC     *nats.Conn
	JS     jetstream.JetStream
	repos  jetstream.KeyValue
	nodes  jetstream.KeyValue
	shards jetstream.ObjectStore
	jobs   jetstream.Stream

	repoCopy watched[Repo] // the catalog, as WatchRepos last saw it
	nodeCopy watched[Node] // the heartbeats, as WatchNodes last saw them

	streamsMu sync.Mutex
	streams   map[string]jetstream.Stream // the buckets' streams, by name, once looked up
}

// stream returns the JetStream stream name, looked up the first time (asked again while
// the stream elects a leader).
func (c *Cluster) stream(ctx context.Context, name string) (jetstream.Stream, error) {
	c.streamsMu.Lock()
	defer c.streamsMu.Unlock()
	if st, ok := c.streams[name]; ok {
		return st, nil
	}
	st, err := retry(ctx, func(ctx context.Context) (jetstream.Stream, error) { return c.JS.Stream(ctx, name) })
	if err != nil {
		return nil, err
	}
	if c.streams == nil {
		c.streams = map[string]jetstream.Stream{}
	}
	c.streams[name] = st
	return st, nil
}

// ErrRefused is returned when a server refuses the credentials.
var ErrRefused = errors.New("the NATS server refused the credentials")

// Connect connects to the cluster at o.URL and makes sure its buckets and stream exist.
// A server that cannot be reached, or refuses the credentials, is a clear error naming it,
// within a few seconds.
func Connect(ctx context.Context, o Options) (*Cluster, error) {
	if strings.TrimSpace(o.URL) == "" {
		return nil, errors.New("cluster: no cluster URL: give --cluster nats://HOST:PORT")
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	opts := []nats.Option{nats.Name(cmp.Or(o.Name, "quarry")), nats.Timeout(5 * time.Second),
		nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { logf("cluster: %v", err) }),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				logf("cluster: disconnected: %v", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { logf("cluster: reconnected to %s", nc.ConnectedUrlRedacted()) })}
	user, pass := os.Getenv(EnvUser), os.Getenv(EnvPassword)
	inbox := os.Getenv(EnvInbox)
	if inbox == "" && user != "" && o.CredsFile == "" {
		inbox = "_INBOX_" + user
	}
	if inbox != "" {
		opts = append(opts, nats.CustomInboxPrefix(inbox))
	}
	switch {
	case o.CredsFile != "":
		opt, err := credentials(o.CredsFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, opt)
	case user != "" || pass != "":
		opts = append(opts, nats.UserInfo(user, pass))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		if errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization") {
			return nil, fmt.Errorf("cluster: %s: %w (set %s and %s, or --nats-creds FILE)", o.URL, ErrRefused, EnvUser, EnvPassword)
		}
		return nil, fmt.Errorf("cluster: cannot reach the NATS server at %s: %w", o.URL, err)
	}
	c := &Cluster{URL: o.URL, NC: nc}
	if err := c.setUp(ctx, o.Replicas); err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

// setUp opens (creating where missing) the cluster's buckets and stream.
func (c *Cluster) setUp(ctx context.Context, replicas int) error {
	js, err := jetstream.New(c.NC)
	if err != nil {
		return fmt.Errorf("cluster: %s: JetStream: %w", c.URL, err)
	}
	c.JS = js
	if replicas <= 0 {
		replicas = 1
		if c.NC.ConnectedClusterName() != "" {
			replicas = 3
		}
	}
	ctx, cancel := context.WithTimeout(ctx, setUpTimeout)
	defer cancel()
	// Open what exists, create only what does not: creating (an update of the stream's
	// configuration) needs every replica, opening only the stream's leader, so a cluster
	// missing one of its servers still lets a node join. Each request is tried again while
	// a stream elects a new leader.
	kv := func(cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
		b, err := retry(ctx, func(ctx context.Context) (jetstream.KeyValue, error) { return js.KeyValue(ctx, cfg.Bucket) })
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			b, err = js.CreateKeyValue(ctx, cfg)
			if errors.Is(err, jetstream.ErrBucketExists) {
				b, err = js.KeyValue(ctx, cfg.Bucket)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("cluster: %s: the %s bucket (is JetStream enabled on the server?): %w", c.URL, cfg.Bucket, err)
		}
		return b, nil
	}
	if c.repos, err = kv(jetstream.KeyValueConfig{Bucket: ReposBucket, History: 1, Replicas: replicas,
		Description: "Quarry: repositories and their shards"}); err != nil {
		return err
	}
	if c.nodes, err = kv(jetstream.KeyValueConfig{Bucket: NodesBucket, History: 1, Replicas: replicas,
		TTL: NodeTTL, Description: "Quarry: live nodes (heartbeats)"}); err != nil {
		return err
	}
	c.shards, err = retry(ctx, func(ctx context.Context) (jetstream.ObjectStore, error) { return js.ObjectStore(ctx, ShardsBucket) })
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		c.shards, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: ShardsBucket, Replicas: replicas,
			Description: "Quarry: shards' files"})
		if errors.Is(err, jetstream.ErrBucketExists) {
			c.shards, err = js.ObjectStore(ctx, ShardsBucket)
		}
	}
	if err != nil {
		return fmt.Errorf("cluster: %s: the %s object store: %w", c.URL, ShardsBucket, err)
	}
	c.jobs, err = retry(ctx, func(ctx context.Context) (jetstream.Stream, error) { return js.Stream(ctx, JobsStream) })
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		c.jobs, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: JobsStream, Subjects: []string{JobsSubject + ".>"},
			Retention: jetstream.WorkQueuePolicy, Replicas: replicas, Duplicates: time.Minute,
			Description: "Quarry: index jobs"})
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			c.jobs, err = js.Stream(ctx, JobsStream)
		}
	}
	if err != nil {
		return fmt.Errorf("cluster: %s: the %s stream: %w", c.URL, JobsStream, err)
	}
	return nil
}

// setUpTimeout bounds opening the cluster's buckets and stream.
const setUpTimeout = 30 * time.Second

// retry calls f, each call given a few seconds, until it succeeds, fails for a reason other
// than time (a missing bucket), or ctx ends.
func retry[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	for {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		v, err := f(cctx)
		cancel()
		if err == nil || !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, jetstream.ErrNoStreamResponse) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Close closes the connection, sending what is buffered first.
func (c *Cluster) Close() {
	if c != nil && c.NC != nil {
		_ = c.NC.Drain()
	}
}

// credentials returns the option that authenticates with file: a NATS credentials file (a
// user JWT and its nkey seed, as nsc writes it) or a file holding a user's nkey seed. The
// file must be private to its owner (a key readable by others is refused, as ssh refuses
// one).
func credentials(file string) (nats.Option, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("cluster: the credentials file: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("cluster: the credentials file %s can be read by other users (mode %04o): chmod 600 it", file, st.Mode().Perm())
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cluster: the credentials file: %w", err)
	}
	text := string(b)
	switch {
	case strings.Contains(text, "BEGIN NATS USER JWT"):
		return nats.UserCredentials(file), nil
	case strings.HasPrefix(strings.TrimSpace(text), "SU"):
		return nats.NkeyOptionFromSeed(file)
	}
	return nil, fmt.Errorf("cluster: %s is neither a NATS credentials file (a user JWT and its seed) nor a user's nkey seed (a line starting SU)", file)
}
