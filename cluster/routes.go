package cluster

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The routing table (issue 44): a router started for one command read the whole catalog
// before its search, one entry per repository (194 ms with 11,011 entries). Nodes keep a
// compact copy of what routing reads (each repository's name, shard, version and
// languages) in one entry of the catalog's bucket, with the catalog's revision it is as
// of; a router reads it, then watches the catalog from the next revision: one read and
// the changes since, the same copy as a watch of every key.

// RoutesKey is the catalog's key of its routing table: never a repository's name
// (CheckName: those start with a letter or digit).
const RoutesKey = "_routes"

// RoutesEvery is how often, at most, a node writes the routing table while the catalog
// changes.
var RoutesEvery = 2 * time.Second

// routeTable is the routing table's content: gzipped text, a header line
// "quarry-routes 1 REVISION" then one line per repository, "NAME\tSHARD\tVERSION\tLANG,LANG"
// (encoding/json took 80 ms to decode 10,000 entries: most of a one-shot search's start).
type routeTable struct {
	Revision uint64 // the catalog's last revision it holds
	Repos    []Repo // name, shard, version and languages
}

const routesHeader = "quarry-routes 1 "

func (t routeTable) encode() []byte {
	var b strings.Builder
	b.WriteString(routesHeader + strconv.FormatUint(t.Revision, 10) + "\n")
	for _, r := range t.Repos {
		b.WriteString(r.Name + "\t" + r.Shard + "\t" + r.Version + "\t" + strings.Join(r.Languages, ",") + "\n")
	}
	return []byte(b.String())
}

func decodeRoutes(text string) (*routeTable, error) {
	head, rest, _ := strings.Cut(text, "\n")
	rev, err := strconv.ParseUint(strings.TrimPrefix(head, routesHeader), 10, 64)
	if !strings.HasPrefix(head, routesHeader) || err != nil {
		return nil, fmt.Errorf("cluster: the routing table's header %q: want %q and a revision", head, routesHeader)
	}
	t := &routeTable{Revision: rev, Repos: make([]Repo, 0, strings.Count(rest, "\n"))}
	for line := range strings.Lines(rest) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(f) != 4 || CheckName(f[0]) != nil {
			return nil, fmt.Errorf("cluster: a malformed line of the routing table: %q", line)
		}
		r := Repo{Name: f[0], Shard: f[1], Version: f[2]}
		if f[3] != "" {
			r.Languages = strings.Split(f[3], ",")
		}
		t.Repos = append(t.Repos, r)
	}
	return t, nil
}

// WriteRoutes writes the routing table from the watched catalog (WatchRepos) if the catalog
// changed after revision since, and returns the revision written (since when none was).
func (c *Cluster) WriteRoutes(ctx context.Context, since uint64) (uint64, error) {
	repos, rev, _, ok := c.repoCopy.snapshot()
	if !ok || rev <= since {
		return since, nil
	}
	t := routeTable{Revision: rev, Repos: make([]Repo, len(repos))}
	for i, r := range repos {
		t.Repos[i] = Repo{Name: r.Name, Shard: r.Shard, Version: r.Version, Languages: r.Languages}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(t.encode()); err != nil {
		return since, err
	}
	if err := zw.Close(); err != nil {
		return since, err
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	if _, err := c.repos.Put(ctx, RoutesKey, buf.Bytes()); err != nil {
		return since, fmt.Errorf("cluster: write the routing table: %w", err)
	}
	return rev, nil
}

// WatchRoutes keeps a copy of the catalog's routing fields as WatchRepos does, starting
// from the routing table when there is one (then watching only the changes after it); the
// copy's entries hold only name, shard, version and languages. Without a table (no node
// wrote one yet), or with one it cannot read, it watches every key.
func (c *Cluster) WatchRoutes(ctx context.Context) error {
	t, err := c.readRoutes(ctx)
	if err != nil || t == nil {
		return c.WatchRepos(ctx)
	}
	entries := make(map[string]Repo, len(t.Repos))
	for _, r := range t.Repos {
		entries[r.Name] = r
	}
	c.repoCopy.load(entries, t.Revision)
	return watch(ctx, c.repos, c.lastRevision(ReposBucket), &c.repoCopy, "the catalog", decodeRepo, jetstream.ResumeFromRevision(t.Revision+1))
}

// readRoutes reads the routing table, nil when there is none.
func (c *Cluster) readRoutes(ctx context.Context) (*routeTable, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	e, err := c.repos.Get(ctx, RoutesKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(e.Value()))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(zr, 256<<20))
	if err != nil {
		return nil, err
	}
	return decodeRoutes(string(b))
}

// decodeRepo decodes a catalog entry; the routing table is none.
func decodeRepo(e jetstream.KeyValueEntry) (Repo, bool) {
	var r Repo
	if strings.HasPrefix(e.Key(), "_") || json.Unmarshal(e.Value(), &r) != nil {
		return r, false
	}
	r.Revision = e.Revision()
	return r, true
}
