package clusterops

// The cluster as the command line drives it: a connection from a URL and a credentials file
// (a user and password only from the environment), a router attached to a service, a node
// run until its context ends, and the catalog's operations (add, update, remove, list) with
// their one result shape.

import (
	"context"

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

// ManageRequest is one operation on a cluster's catalog: add a repository (Source, and
// Name or the last element of its path or URL) and queue its indexing, update (queue a new
// index of the repository Name from its source), remove Name and its shard, or list.
type ManageRequest struct {
	Operation string
	Name      string
	Source    string
}

// ManageResult is what a catalog operation answers: the repository added, updated or
// removed, or the whole catalog (list).
type ManageResult struct {
	Repo   *cluster.Repo  `json:"repo,omitempty"`
	Status *ClusterStatus `json:"status,omitempty"`
}

// Manage runs req on the cluster conn names.
func Manage(ctx context.Context, conn Connection, req ManageRequest) (*ManageResult, error) {
	switch req.Operation {
	case OpAdd, OpUpdate, OpRemove, OpList:
	default:
		return nil, tools.Errorf(tools.CodeBadValue, "operation", "operation %q: want add, update, remove or list%s", req.Operation, tools.DidYouMean(req.Operation, []string{OpAdd, OpUpdate, OpRemove, OpList}))
	}
	c, err := conn.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	switch req.Operation {
	case OpList:
		st, err := clusterStatus(ctx, c)
		if err != nil {
			return nil, err
		}
		return &ManageResult{Status: st}, nil
	case OpRemove:
		if err := c.DeleteRepo(ctx, req.Name); err != nil {
			return nil, err
		}
		return &ManageResult{Repo: &cluster.Repo{Name: req.Name}}, nil
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
	return &ManageResult{Repo: &r}, nil
}

// RepoStatus is a repository as cluster list shows it.
type RepoStatus struct {
	cluster.Repo
	ServedBy []string `json:"served_by"`
	State    string   `json:"state"` // indexing, served, unserved, failed
}

// ClusterStatus is the catalog, the live nodes and the jobs queued.
type ClusterStatus struct {
	Repos       []RepoStatus   `json:"repos"`
	Nodes       []cluster.Node `json:"nodes"`
	PendingJobs uint64         `json:"pending_jobs"`
}

func clusterStatus(ctx context.Context, c *cluster.Cluster) (*ClusterStatus, error) {
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
	out := &ClusterStatus{Repos: []RepoStatus{}, Nodes: nodes, PendingJobs: pending}
	shardVersion := map[string]string{}
	for _, sh := range cluster.Shards(repos) {
		shardVersion[sh.Name] = sh.Version
	}
	for _, r := range repos {
		s := RepoStatus{Repo: r, ServedBy: []string{}}
		for _, n := range nodes {
			if v := shardVersion[r.ShardName()]; v != "" && n.Shards[r.ShardName()] == v {
				s.ServedBy = append(s.ServedBy, n.ID)
			}
		}
		switch {
		case r.Error != "":
			s.State = "failed: " + r.Error
		case r.Version == "":
			s.State = "indexing"
		case len(s.ServedBy) == 0:
			s.State = "unserved"
		default:
			s.State = "served"
		}
		out.Repos = append(out.Repos, s)
	}
	return out, nil
}
