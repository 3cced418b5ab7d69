package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/clusterops"
)

// TestClusterCommands drives a cluster from the command line: add a repository, list it,
// search and goto through the cluster once a node serves it; and the errors of a missing
// --cluster and of a server that is not there.
func TestClusterCommands(t *testing.T) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	defer ns.Shutdown()
	url := ns.ClientURL()
	root := t.TempDir()
	repo := filepath.Join(t.TempDir(), "demo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "m.go"), []byte("package demo\n\n// ClusterMarker marks the demo.\nfunc ClusterMarker() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	if code, _, errOut := quarry(t, "", "cluster", "add", repo); code != exitUsage || !strings.Contains(errOut, "--cluster") {
		t.Errorf("cluster add without --cluster: exit %d, %q", code, errOut)
	}
	if code, out, errOut := quarry(t, "", "cluster", "add", "--cluster", url, repo); code != exitOK || !strings.Contains(out, "demo: queued for indexing") {
		t.Fatalf("cluster add: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut := quarry(t, "", "cluster", "list", "--cluster", url, "--json")
	var st struct {
		Repos []struct {
			Name, State string
		} `json:"repos"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil || len(st.Repos) != 1 || st.Repos[0].Name != "demo" || st.Repos[0].State != "indexing" {
		t.Fatalf("cluster list --json before any node: exit %d, %s %s", code, out, errOut)
	}
	if err := tools.Validate("cluster.result", []byte(out)); err != nil {
		t.Errorf("cluster list --json does not validate against the contract's cluster.result: %v\n%s", err, out)
	}

	// The node in-process through the library (the command line's package globals allow one
	// run at a time; the reliability suite runs quarry node as a process).
	ctx, cancel := context.WithCancel(context.Background())
	c, err := cluster.Connect(ctx, cluster.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	svc, err := tools.NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	nodeDone := make(chan error, 1)
	go func() {
		nodeDone <- clusterops.RunNode(ctx, svc, c, clusterops.NodeOptions{ID: "cli1", Data: t.TempDir(), Index: true, Serve: true})
	}()
	defer func() {
		cancel()
		<-nodeDone
	}()
	for deadline := time.Now().Add(60 * time.Second); ; {
		code, out, _ := quarry(t, "", "--root", root, "search", "--cluster", url, "ClusterMarker", "--json")
		if code == exitOK && strings.Contains(out, `"path": "m.go"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("search --cluster never found the definition: exit %d, %s", code, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if code, out, errOut := quarry(t, "", "--root", root, "goto", "--cluster", url, "ClusterMarker"); code != exitOK || !strings.Contains(out, "m.go:4") {
		t.Errorf("goto --cluster: exit %d, %q %q", code, out, errOut)
	}
	for deadline := time.Now().Add(10 * time.Second); ; { // the node's next heartbeat lists the shard
		code, out, _ := quarry(t, "", "cluster", "list", "--cluster", url)
		if code == exitOK && strings.Contains(out, "[cli1]") && strings.Contains(out, " served") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("cluster list after the node: exit %d, %q", code, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	code, out, errOut = quarry(t, "", "cluster", "remove", "demo", "--cluster", url, "--json")
	var removed struct {
		Operation string `json:"operation"`
		Repos     []struct {
			Name, State string
		} `json:"repos"`
	}
	if code != exitOK || tools.Validate("cluster.result", []byte(out)) != nil || json.Unmarshal([]byte(out), &removed) != nil ||
		removed.Operation != "remove" || len(removed.Repos) != 1 || removed.Repos[0].Name != "demo" || removed.Repos[0].State != "removed" {
		t.Errorf("cluster remove demo --json: exit %d, %s %s", code, out, errOut)
	}
	if code, out, _ := quarry(t, "", "cluster", "list", "--cluster", url, "--json"); code != exitOK || !strings.Contains(out, `"repos": []`) {
		t.Errorf("cluster list after remove: exit %d, %s", code, out)
	}
	if code, _, errOut := quarry(t, "", "--root", root, "search", "--cluster", "nats://127.0.0.1:1", "x"); code == exitOK || !strings.Contains(errOut, "cannot reach the NATS server at nats://127.0.0.1:1") {
		t.Errorf("search --cluster at nothing: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, ".quarry")); err == nil {
		t.Error("a search through the cluster indexed the local directory")
	}
}
