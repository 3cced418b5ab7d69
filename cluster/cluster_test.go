package cluster

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
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
