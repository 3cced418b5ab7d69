// Package cluster is Quarry's use of NATS JetStream: the connection and its credentials, the
// catalog of repositories and their shards (a key-value bucket), the nodes' heartbeats (a
// key-value bucket whose entries expire), the index jobs (a work-queue stream), the shards'
// files (an object store), where each shard is served (rendezvous hashing over the live
// nodes) and the subjects a shard is searched on. Membership, durable jobs, transfer,
// routing and failover are JetStream's and NATS's; this package names and shapes them.
// What a shard is and how it is searched is the tools package's.
package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
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
)

// Options say how to reach the cluster.
type Options struct {
	URL       string // nats://HOST:PORT, several comma-separated
	CredsFile string // a NATS credentials file (JWT and seed), else EnvUser/EnvPassword
	Name      string // the connection's name, shown by the servers
	// Replicas of the streams and buckets this connection creates; 0: 3 when the server is
	// part of a cluster, else 1.
	Replicas int
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
	opts := []nats.Option{nats.Name(cmpOr(o.Name, "quarry")), nats.Timeout(5 * time.Second),
		nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond)}
	user, pass := os.Getenv(EnvUser), os.Getenv(EnvPassword)
	switch {
	case o.CredsFile != "":
		if _, err := os.Stat(o.CredsFile); err != nil {
			return nil, fmt.Errorf("cluster: the credentials file: %w", err)
		}
		opts = append(opts, nats.UserCredentials(o.CredsFile))
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

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
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
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if c.repos, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: ReposBucket, History: 1, Replicas: replicas,
		Description: "Quarry: repositories and their shards"}); err != nil {
		return fmt.Errorf("cluster: %s: the %s bucket (is JetStream enabled on the server?): %w", c.URL, ReposBucket, err)
	}
	if c.nodes, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: NodesBucket, History: 1, Replicas: replicas,
		TTL: NodeTTL, Description: "Quarry: live nodes (heartbeats)"}); err != nil {
		return fmt.Errorf("cluster: %s: the %s bucket: %w", c.URL, NodesBucket, err)
	}
	if c.shards, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: ShardsBucket, Replicas: replicas,
		Description: "Quarry: shards' files"}); err != nil {
		return fmt.Errorf("cluster: %s: the %s object store: %w", c.URL, ShardsBucket, err)
	}
	if c.jobs, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: JobsStream, Subjects: []string{JobsSubject + ".>"},
		Retention: jetstream.WorkQueuePolicy, Replicas: replicas, Duplicates: time.Minute,
		Description: "Quarry: index jobs"}); err != nil {
		return fmt.Errorf("cluster: %s: the %s stream: %w", c.URL, JobsStream, err)
	}
	return nil
}

// Close closes the connection, sending what is buffered first.
func (c *Cluster) Close() {
	if c != nil && c.NC != nil {
		_ = c.NC.Drain()
	}
}
