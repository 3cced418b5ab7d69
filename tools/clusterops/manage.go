package clusterops

// The cluster as the command line drives it: a connection from a URL and a credentials file
// (a user and password only from the environment), a router attached to a service, a node
// run until its context ends, and the catalog's operations (add, update, remove, list) with
// their one result shape.

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
)

// Where a user and password come from when no credentials file is given.
const (
	EnvUser     = cluster.EnvUser
	EnvPassword = cluster.EnvPassword
)

// DefaultReplicas is how many nodes serve each shard.
const DefaultReplicas = cluster.DefaultReplicas

// Compounding says which indexes join a compound shard (cluster.Compounding).
type Compounding = cluster.Compounding

// DefaultCompounding is the compounding of a node given none.
var DefaultCompounding = cluster.DefaultCompounding

// Connection is how to reach a cluster: its NATS server(s), nats://HOST:PORT (comma-separated
// for several), and optionally a credentials file (a user JWT and its seed, or a user's nkey
// seed, mode 600); else the user and password of EnvUser and EnvPassword.
type Connection struct {
	URL       string
	CredsFile string
	Name      string // the client's name the NATS server shows
	Logf      func(format string, args ...any)
}

func (c Connection) connect(ctx context.Context) (*cluster.Cluster, error) {
	if c.URL == "" {
		return nil, tools.Errorf(tools.CodeBadValue, "cluster", "a cluster's URL is required: nats://HOST:PORT")
	}
	return cluster.Connect(ctx, cluster.Options{URL: c.URL, CredsFile: c.CredsFile, Name: c.Name, Logf: c.Logf})
}

// AttachTo connects to the cluster conn names and makes s answer from it (Attach); the
// connection lives as long as the process.
func AttachTo(ctx context.Context, s *tools.Service, conn Connection) error {
	c, err := conn.connect(ctx)
	if err != nil {
		return err
	}
	if err := Attach(context.Background(), s, c); err != nil {
		c.Close()
		return err
	}
	return nil
}

// Node connects to the cluster conn names and runs a node of it (RunNode) until ctx ends.
func Node(ctx context.Context, s *tools.Service, conn Connection, o NodeOptions) error {
	c, err := conn.connect(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return RunNode(ctx, s, c, o)
}

// Catalog operations.
const (
	OpAdd    = "add"
	OpUpdate = "update"
	OpRemove = "remove"
	OpList   = "list"
)

// ClusterRequest is one operation on the catalog of the cluster the service runs on
// (quarry cluster add|update|remove|list --cluster URL).
type ClusterRequest struct {
	Operation string `json:"operation" jsonschema:"add (a repository at source, queued for indexing), update (queue a new index of name from its source), remove (name and its shard) or list"`
	Name      string `json:"name,omitempty" jsonschema:"the repository (add: default the last element of source's path or URL)"`
	Source    string `json:"source,omitempty" jsonschema:"add: a path the nodes can read or a git URL"`
	Limit     int    `json:"limit,omitempty" jsonschema:"list: at most this many repositories, by name, 1 to 1000 (default 100)"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"list: next_cursor of the previous page"`
}

// List's pages.
const (
	defaultListLimit = 100
	maxListLimit     = 1000
)

// ClusterResult is what a catalog operation answers: the repositories it concerns (the one
// added, updated or removed; every one for list) and, for list, the live nodes and the
// jobs queued.
type ClusterResult struct {
	Operation   string         `json:"operation"`
	Repos       []RepoStatus   `json:"repos"`
	Nodes       []cluster.Node `json:"nodes"`
	PendingJobs uint64         `json:"pending_jobs"`
	Total       int            `json:"total" jsonschema:"list: the repositories of the catalog"`
	NextCursor  string         `json:"next_cursor,omitempty" jsonschema:"list: pass as cursor for the next page"`
}

// RepoStatus is a repository of the catalog, the live nodes serving its current shard
// (a node silent for staleView is left out) and its state: indexing, served, updating (the
// previous version answers while the new one loads), unserved, failed: ..., or removed.
type RepoStatus struct {
	cluster.Repo
	ServedBy []string `json:"served_by"`
	State    string   `json:"state"`
}

// The catalog's operation joins the contract's: quarry describe cluster, quarry schema
// cluster, Call.
func init() {
	tools.Register(tools.Operation{Name: "cluster",
		Summary: "Add, re-index, remove and list the repositories of the Quarry cluster the service runs on (quarry cluster ... --cluster URL).",
		Request: reflect.TypeFor[ClusterRequest](), Result: reflect.TypeFor[ClusterResult]()},
		func(ctx context.Context, s *tools.Service, r any) (any, error) {
			return Manage(ctx, s, r.(ClusterRequest))
		})
}

// Manage runs req on the catalog of the cluster s runs on (AttachTo).
func Manage(ctx context.Context, s *tools.Service, req ClusterRequest) (*ClusterResult, error) {
	ops := []string{OpAdd, OpUpdate, OpRemove, OpList}
	if !slices.Contains(ops, req.Operation) {
		return nil, tools.Errorf(tools.CodeBadValue, "operation", "operation %q: want add, update, remove or list%s", req.Operation, tools.DidYouMean(req.Operation, ops))
	}
	rt, ok := s.Remote().(*router)
	if !ok {
		return nil, tools.Errorf(tools.CodeBadValue, "cluster", "the cluster operations need a cluster: give --cluster nats://HOST:PORT")
	}
	c := rt.cluster
	out := &ClusterResult{Operation: req.Operation, Repos: []RepoStatus{}, Nodes: []cluster.Node{}}
	switch req.Operation {
	case OpList:
		limit, err := tools.PageLimit(req.Limit, defaultListLimit, maxListLimit)
		if err != nil {
			return nil, err
		}
		offset, err := tools.ParseCursor(req.Cursor)
		if err != nil {
			return nil, err
		}
		return clusterStatus(ctx, c, out, offset, limit)
	case OpRemove:
		r, err := c.Repo(ctx, req.Name)
		if err != nil {
			return nil, err
		}
		if err := c.DeleteRepo(ctx, req.Name); err != nil {
			return nil, err
		}
		out.Repos = append(out.Repos, RepoStatus{Repo: r, ServedBy: []string{}, State: "removed"})
		return out, nil
	}
	name, source := req.Name, req.Source
	if req.Operation == OpUpdate {
		r, err := c.Repo(ctx, req.Name)
		if err != nil {
			return nil, err
		}
		name, source = r.Name, r.Source
	}
	r, err := ClusterAdd(ctx, c, name, source, req.Operation == OpUpdate)
	if err != nil {
		return nil, err
	}
	out.Repos = append(out.Repos, RepoStatus{Repo: r, ServedBy: []string{}, State: "indexing"})
	return out, nil
}

// clusterStatus lists the catalog in out, each repository with the nodes serving its
// current shard and its state, the live nodes and the jobs queued.
// Only the page of limit repositories from offset (by name) is listed.
func clusterStatus(ctx context.Context, c *cluster.Cluster, out *ClusterResult, offset, limit int) (*ClusterResult, error) {
	repos, err := c.Repos(ctx)
	if err != nil {
		return nil, err
	}
	nodes, err := c.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	pending, err := c.PendingJobs(ctx)
	if err != nil {
		return nil, err
	}
	out.PendingJobs = pending
	if nodes != nil {
		out.Nodes = nodes
	}
	shardVersion := map[string]string{}
	for _, sh := range cluster.Shards(repos) {
		shardVersion[sh.Name] = sh.Version
	}
	out.Total = len(repos)
	page := repos[min(offset, len(repos)):]
	if len(page) > limit {
		page = page[:limit]
		out.NextCursor = strconv.Itoa(offset + limit)
	}
	for _, r := range page {
		// The router's copy holds what routing reads (the routing table's fields): the
		// page's entries are read whole.
		if full, err := c.Repo(ctx, r.Name); err == nil {
			r = full
		} else if !errors.Is(err, cluster.ErrNoRepo) {
			return nil, err
		}
		s := RepoStatus{Repo: r, ServedBy: []string{}}
		shard := r.ShardName()
		var older []string // live nodes still answering with another version of the shard
		for _, n := range nodes {
			if time.Since(n.Seen) > staleView {
				continue // silent: killed, or cut off; its heartbeat has not expired yet
			}
			switch v := n.Shards[shard]; {
			case v == "":
			case v == shardVersion[shard]:
				s.ServedBy = append(s.ServedBy, n.ID)
			default:
				older = append(older, n.ID)
			}
		}
		switch {
		case r.Error != "":
			s.State = "failed: " + r.Error
		case r.Version == "":
			s.State = "indexing"
		case len(s.ServedBy) == 0 && len(older) > 0:
			s.State = "updating: the previous version answers (" + strings.Join(older, ", ") + ")"
		case len(s.ServedBy) == 0:
			s.State = "unserved"
		default:
			s.State = "served"
		}
		out.Repos = append(out.Repos, s)
	}
	return out, nil
}
