package clusterops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// TestMergedBadMember: a compound member whose downloaded index cannot be read fails the
// compound's build as that member (the load fails and the member is downloaded again),
// not as the one index; and a shard's members that failed to open are opened again by
// the next operation, not failed for good.
func TestMergedBadMember(t *testing.T) {
	ctx := context.Background()
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	good := filepath.Join(data, "shards", "_c0001", "good@v1")
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "a.go"), []byte("package a\n\nfunc Serve() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := workspace.Index(ctx, src, good, svc.Languages(), workspace.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(data, "shards", "_c0001", "bad@v1")
	if err := os.MkdirAll(filepath.Dir(workspace.StorePath(bad)), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(workspace.StorePath(bad), []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	n := &node{s: svc, o: NodeOptions{Data: data}}
	l := &loadedShard{name: "_c0001", members: []*loadedRepo{{repo: "bad", version: "v1", dir: bad}, {repo: "good", version: "v1", dir: good}}}
	var bm *badMember
	if err := n.buildMerged(ctx, l, nil); !errors.As(err, &bm) || bm.repo != "bad" {
		t.Fatalf("a compound with an unreadable member: %v, want the member named", err)
	}

	l = &loadedShard{name: "good", members: []*loadedRepo{{repo: "good", version: "v1", dir: filepath.Join(data, "later")}}}
	if _, err := l.memberService(svc); err == nil {
		t.Fatal("a member without an index opened")
	}
	if err := os.Rename(good, filepath.Join(data, "later")); err != nil {
		t.Fatal(err)
	}
	s, err := l.memberService(svc)
	if err != nil || s == nil {
		t.Fatalf("the member, there now, still fails: %v", err)
	}
	l.members[0].close()
}
