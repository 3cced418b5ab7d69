package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestAssign: the same live nodes give the same assignment whatever their order; each shard
// gets the replicas asked (or every node, when fewer); a node joining takes only shards it
// now wins, and one leaving moves only the shards it held.
func TestAssign(t *testing.T) {
	nodes := []string{"n1", "n2", "n3"}
	counts := map[string]int{}
	before := map[string][]string{}
	for i := range 300 {
		repo := fmt.Sprintf("repo-%d", i)
		a := Assign(repo, nodes, 2)
		if b := Assign(repo, []string{"n3", "n1", "n2"}, 2); !slices.Equal(a, b) {
			t.Fatalf("%s: %v, and %v in another order", repo, a, b)
		}
		if len(a) != 2 || a[0] == a[1] {
			t.Fatalf("%s: %v, want 2 distinct nodes", repo, a)
		}
		for _, n := range a {
			counts[n]++
		}
		before[repo] = a
	}
	for _, n := range nodes {
		if counts[n] < 150 || counts[n] > 250 { // 200 each on average
			t.Errorf("node %s serves %d of 600 placements: %v", n, counts[n], counts)
		}
	}
	moved := 0
	for repo, a := range before {
		after := Assign(repo, append(slices.Clone(nodes), "n4"), 2)
		for _, n := range after {
			if !slices.Contains(a, n) && n != "n4" {
				t.Fatalf("%s: n4 joining moved it from %v to %v", repo, a, after)
			}
		}
		if !slices.Equal(a, after) {
			moved++
		}
		gone := Assign(repo, []string{"n1", "n3"}, 2)
		if !slices.Contains(a, "n2") && !slices.Equal(a, gone) {
			t.Fatalf("%s: n2 leaving moved it from %v to %v though n2 did not serve it", repo, a, gone)
		}
	}
	if moved < 100 || moved > 200 { // n4 should win about half of the repositories' second place or better
		t.Errorf("n4 joining moved %d of 300 repositories", moved)
	}
	if a := Assign("r", []string{"only"}, 2); !slices.Equal(a, []string{"only"}) {
		t.Errorf("one node: %v", a)
	}
}

// TestUntarStaysInside: a shard whose archive names a path outside its directory, or a link,
// is refused, and nothing is written outside.
func TestUntarStaysInside(t *testing.T) {
	for _, hdr := range []tar.Header{
		{Name: "../escape", Typeflag: tar.TypeReg, Size: 1, Mode: 0o600},
		{Name: "/abs", Typeflag: tar.TypeReg, Size: 1, Mode: 0o600},
		{Name: "db/../../escape", Typeflag: tar.TypeReg, Size: 1, Mode: 0o600},
		{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
	} {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		if err := tw.WriteHeader(&hdr); err != nil {
			t.Fatal(err)
		}
		if hdr.Size > 0 {
			tw.Write([]byte("x"))
		}
		tw.Close()
		base := t.TempDir()
		dir := filepath.Join(base, "shard")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := untar(&buf, dir); err == nil {
			t.Errorf("%q (%c): extracted", hdr.Name, hdr.Typeflag)
		}
		if _, err := os.Stat(filepath.Join(base, "escape")); err == nil {
			t.Errorf("%q: wrote outside the shard's directory", hdr.Name)
		}
	}
	// A good archive comes out whole.
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "db/", Typeflag: tar.TypeDir, Mode: 0o700})
	tw.WriteHeader(&tar.Header{Name: "db/symbols.db", Typeflag: tar.TypeReg, Size: 5, Mode: 0o600})
	tw.Write([]byte("hello"))
	tw.Close()
	dir := t.TempDir()
	if err := untar(&buf, dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "db", "symbols.db")); err != nil || string(b) != "hello" {
		t.Errorf("extracted %q, %v", b, err)
	}
}

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"go", "a-go", "tokio_1", "X9"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "-x", "a.b", "a/b", "a b", "a>", "a*", string(make([]byte, 101))} {
		if err := CheckName(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// TestShards: repositories without an index are in no shard; a compound's version changes
// with any member's version and with its members, and not with their order.
func TestShards(t *testing.T) {
	repos := []Repo{
		{Name: "b", Version: "v2", Shard: "_c0001"},
		{Name: "a", Version: "v1", Shard: "_c0001"},
		{Name: "big", Version: "v3"},
		{Name: "new", Shard: "_c0001"}, // not built yet
	}
	got := Shards(repos)
	if len(got) != 2 || got[0].Name != "_c0001" || got[1].Name != "big" {
		t.Fatalf("shards %+v", got)
	}
	if c := got[0]; !c.Compound() || len(c.Repos) != 2 || c.Repos[0].Name != "a" || c.Repos[1].Name != "b" {
		t.Fatalf("compound %+v", c)
	}
	if got[1].Compound() || got[1].Version != "v3" {
		t.Fatalf("own shard %+v", got[1])
	}
	v := got[0].Version
	slices.Reverse(repos)
	if w := Shards(repos)[0].Version; w != v {
		t.Errorf("the compound's version depends on the catalog's order: %s, %s", v, w)
	}
	repos[2].Version = "v1b" // a
	if w := Shards(repos)[0].Version; w == v {
		t.Errorf("a member's new version left the compound's version %s", v)
	}
	repos[2].Version = "v1"
	repos[0].Version = "v4" // new is built: a member more
	if w := Shards(repos)[0].Version; w == v {
		t.Errorf("a new member left the compound's version %s", v)
	}
	if !IsCompound(CompoundName(12)) || IsCompound("c0001") || CheckName(CompoundName(1)) == nil || CheckShardName(CompoundName(1)) != nil {
		t.Errorf("a compound's name must be one no repository can have")
	}
}

// TestPlaceRepo: a large repository keeps a shard of its own; small ones fill the fullest
// compound they fit in, then open a new one; a member stays where it is while it fits, and
// leaves when it grows past Small.
func TestPlaceRepo(t *testing.T) {
	c := Compounding{Small: 10, Max: 25}
	var repos []Repo
	add := func(name string, size int64) string {
		r := Repo{Name: name, Version: "v", Bytes: size}
		for _, o := range repos {
			if o.Name == name {
				r.Shard = o.Shard
			}
		}
		r.Shard = c.PlaceRepo(repos, r, size)
		repos = slices.DeleteFunc(repos, func(o Repo) bool { return o.Name == name })
		repos = append(repos, r)
		return r.Shard
	}
	steps := []struct {
		name string
		size int64
		want string
	}{
		{"big", 11, ""},
		{"a", 10, "_c0001"},
		{"b", 10, "_c0001"},
		{"c", 6, "_c0002"}, // 26 > 25
		{"d", 5, "_c0001"}, // the fullest it fits in
		{"e", 9, "_c0002"},
		{"a", 8, "_c0001"},  // updated, smaller: stays
		{"c", 10, "_c0002"}, // 19 still fits
		{"b", 12, ""},       // grew past Small
		{"f", 1, "_c0002"},  // _c0002 (19) is fuller than _c0001 (13)
	}
	for _, s := range steps {
		if got := add(s.name, s.size); got != s.want {
			t.Fatalf("%s (%d): placed in %q, want %q; catalog %+v", s.name, s.size, got, s.want, repos)
		}
	}
	if got := (Compounding{}).PlaceRepo(repos, Repo{Name: "g"}, 1); got != "" {
		t.Errorf("compounding off placed a repository in %q", got)
	}
}

// TestWatchedCopy: a watched copy answers only once its initial values are in, sorted by key,
// each change applied (a put replaces, a delete removes), and nothing once the watch ends.
func TestWatchedCopy(t *testing.T) {
	var w watched[int]
	w.put("b", 2)
	if _, ok := w.get(); ok {
		t.Fatal("a copy answers before its initial values are in")
	}
	w.put("a", 1)
	w.put("c", 3)
	w.markReady()
	if got, ok := w.get(); !ok || !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("%v %v, want [1 2 3]", got, ok)
	}
	w.put("b", 20)
	w.del("a")
	w.del("zz")
	if got, _ := w.get(); !slices.Equal(got, []int{20, 3}) {
		t.Fatalf("after a put and a delete: %v, want [20 3]", got)
	}
	for i := range 10000 {
		w.put(fmt.Sprintf("k%05d", i), i)
	}
	for i := range 10000 {
		w.del(fmt.Sprintf("k%05d", i))
	}
	if got, _ := w.get(); !slices.Equal(got, []int{20, 3}) {
		t.Fatalf("after 20,000 changes: %d entries, want [20 3]", len(got))
	}
	w.reset()
	if _, ok := w.get(); ok {
		t.Fatal("a copy answers after its watch ended")
	}
}

// TestRouteTableText: the routing table's text holds each repository's routing fields and
// the revision; a table with another header or a malformed line is refused (a router then
// watches every key).
func TestRouteTableText(t *testing.T) {
	in := routeTable{Revision: 42, Repos: []Repo{
		{Name: "a", Shard: "_c0001", Version: "v1", Languages: []string{"go", "python"}},
		{Name: "b", Version: "v2"},
		{Name: "c"},
	}}
	out, err := decodeRoutes(string(in.encode()))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", *out) != fmt.Sprintf("%+v", in) {
		t.Errorf("decoded %+v, want %+v", *out, in)
	}
	for _, bad := range []string{"", "{\"revision\": 1}", "quarry-routes 1 x\n", "quarry-routes 1 3\na\tb\n", "quarry-routes 1 3\n_x\t\t\t\n"} {
		if _, err := decodeRoutes(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// fakeBucket is a bucket whose every watch delivers the next of its lists of entries, then
// its initial values' end, then ends when its list says so.
type fakeBucket struct {
	jetstream.KeyValue
	mu      sync.Mutex
	watches []fakeWatch
	made    int
}

type fakeWatch struct {
	entries []string // keys put
	end     bool     // the client ends the watch after them
}

type fakeWatcher struct{ c chan jetstream.KeyValueEntry }

func (w fakeWatcher) Updates() <-chan jetstream.KeyValueEntry { return w.c }
func (w fakeWatcher) Stop() error                             { return nil }

type fakeEntry struct {
	jetstream.KeyValueEntry
	key string
	rev uint64
}

func (e fakeEntry) Key() string                     { return e.key }
func (e fakeEntry) Revision() uint64                { return e.rev }
func (e fakeEntry) Value() []byte                   { return []byte(e.key) }
func (e fakeEntry) Operation() jetstream.KeyValueOp { return jetstream.KeyValuePut }

func (b *fakeBucket) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.made
}

func (b *fakeBucket) WatchAll(ctx context.Context, _ ...jetstream.WatchOpt) (jetstream.KeyWatcher, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.made == len(b.watches) {
		return nil, errors.New("no more watches")
	}
	fw := b.watches[b.made]
	b.made++
	c := make(chan jetstream.KeyValueEntry, len(fw.entries)+1)
	for i, k := range fw.entries {
		c <- fakeEntry{key: k, rev: uint64(i + 1)}
	}
	c <- nil
	if fw.end {
		close(c)
	}
	return fakeWatcher{c}, nil
}

// TestWatchStartsAgain: a watch the client ends is started again from the bucket's current
// entries; the copy forgets the old ones, and answers once the new watch's are in.
func TestWatchStartsAgain(t *testing.T) {
	defer func(d time.Duration) { rewatchWait = d }(rewatchWait)
	rewatchWait = 10 * time.Millisecond
	b := &fakeBucket{watches: []fakeWatch{{entries: []string{"a", "b"}, end: true}, {entries: []string{"b", "c"}}}}
	var w watched[string]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := watch(ctx, b, nil, &w, "the fake", func(e jetstream.KeyValueEntry) (string, bool) { return string(e.Value()), true }); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if got, ok := w.get(); ok && slices.Equal(got, []string{"b", "c"}) {
			break
		}
		if time.Now().After(deadline) {
			got, ok := w.get()
			t.Fatalf("the copy after its watch ended and started again: %v (answers: %v), want [b c]", got, ok)
		}
	}
	if made := b.count(); made != 2 {
		t.Fatalf("%d watches made, want 2", made)
	}
}

// TestWatchStalled: a watch that delivers nothing while its bucket's stream grows is started
// again; one whose bucket is quiet, or whose last revisions expired before it began (a
// heartbeat), is not.
func TestWatchStalled(t *testing.T) {
	defer func(a, b time.Duration) { rewatchWait, lagCheck = a, b }(rewatchWait, lagCheck)
	rewatchWait, lagCheck = 5*time.Millisecond, 5*time.Millisecond
	decode := func(e jetstream.KeyValueEntry) (string, bool) { return string(e.Value()), true }
	run := func(last func(context.Context) (uint64, error), checks time.Duration) (*fakeBucket, []string) {
		b := &fakeBucket{watches: []fakeWatch{{entries: []string{"a", "b"}}, {entries: []string{"c"}}}}
		var w watched[string]
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if err := watch(ctx, b, last, &w, "the fake", decode); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(checks * lagCheck); time.Now().Before(deadline); time.Sleep(lagCheck) {
			if b.count() == 2 {
				break
			}
		}
		got, _ := w.get() // before the watch ends
		return b, got
	}
	var mu sync.Mutex
	grown := uint64(10)
	growing := func(context.Context) (uint64, error) {
		mu.Lock()
		defer mu.Unlock()
		grown++
		return grown, nil
	}
	if b, _ := run(growing, 2000); b.count() != 2 {
		t.Errorf("a watch behind a growing bucket was not started again (%d watches made)", b.count())
	}
	quiet := func(context.Context) (uint64, error) { return 2, nil } // what the watch delivered
	if b, w := run(quiet, 40); b.count() != 1 {
		t.Errorf("a watch of a quiet bucket was started again (%d watches made)", b.count())
	} else if !slices.Equal(w, []string{"a", "b"}) {
		t.Errorf("the copy of a quiet bucket: %v, want [a b]", w)
	}
	expired := func(context.Context) (uint64, error) { return 5, nil } // 3 to 5 expired before
	if b, _ := run(expired, 40); b.count() != 1 {
		t.Errorf("a watch whose bucket's last revisions expired before it began was started again (%d watches made)", b.count())
	}
}
