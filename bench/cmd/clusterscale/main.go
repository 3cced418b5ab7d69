// Command clusterscale is issue 44's scale benchmark of a Quarry cluster on one machine:
// N small generated repositories registered in a JetStream cluster of 3 nats-server
// processes (cluster/nats-server.conf's roles) served by 3 `quarry node` processes. It
// reports the time to register and serve them all, the CLI's and a long-lived router's
// search latency (p50, p95), the shards a search asks, each node's memory, each node's CPU
// during a burst of 1,000 catalog changes, and the answer time after kill -9 of a node and
// of a NATS server. bench/cluster-scale.sh runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/quarrysearch/quarry/cluster"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/clusterops"
)

func main() {
	n := flag.Int("n", 1000, "repositories")
	work := flag.String("work", "/tmp/cluster-scale", "working directory (emptied)")
	quarry := flag.String("quarry", "quarry", "the quarry binary")
	natsBin := flag.String("nats", "nats-server", "the nats-server binary")
	conf := flag.String("conf", "cluster/nats-server.conf", "the servers' configuration")
	flag.Parse()
	if err := run(*n, *work, *quarry, *natsBin, *conf); err != nil {
		fmt.Fprintln(os.Stderr, "clusterscale:", err)
		os.Exit(1)
	}
}

type proc struct {
	name string
	cmd  *exec.Cmd
}

func start(work, name string, env []string, bin string, args ...string) (*proc, error) {
	f, err := os.Create(filepath.Join(work, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &proc{name: name, cmd: cmd}, nil
}

func (p *proc) kill() {
	if p != nil && p.cmd.Process != nil && p.cmd.ProcessState == nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		_ = p.cmd.Wait()
	}
}

// cpu is the process's user+system CPU time so far.
func (p *proc) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ 100
}

// rssMB is the process's resident memory.
func (p *proc) rssMB() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, _ := strconv.Atoi(strings.Fields(l)[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func run(n int, work, quarryBin, natsBin, conf string) error {
	ctx := context.Background()
	_ = os.RemoveAll(work)
	if err := os.MkdirAll(work, 0o700); err != nil {
		return err
	}
	conf, _ = filepath.Abs(conf)
	for _, role := range []string{"admin", "node", "search"} {
		os.Setenv("QUARRY_"+strings.ToUpper(role)+"_PASSWORD", role+"-secret")
	}
	as := func(user string) []string {
		return []string{cluster.EnvUser + "=" + user, cluster.EnvPassword + "=" + user + "-secret"}
	}
	// The repositories: three small files each, a name of their own in each.
	t0 := time.Now()
	var roots []string
	for i := range n {
		root := filepath.Join(work, "repos", fmt.Sprintf("r%05d", i))
		files := map[string]string{
			"main.go":  fmt.Sprintf("package r%05d\n\n// Serve%05d serves.\nfunc Serve%05d() { helper%05d() }\n\nfunc helper%05d() {}\n", i, i, i, i, i),
			"util.py":  fmt.Sprintf("def parse_%05d(text):\n    \"\"\"Parse the text.\"\"\"\n    return text\n", i),
			"index.ts": fmt.Sprintf("export function render%05d(x: number): string { return String(x) }\n", i),
		}
		for name, text := range files {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				return err
			}
		}
		roots = append(roots, root)
	}
	fmt.Printf("generated %d repositories in %s\n", n, time.Since(t0).Round(time.Millisecond))
	// Three servers, one JetStream cluster.
	ports := []int{14250, 14251, 14252}
	routes := []string{"nats://127.0.0.1:16250", "nats://127.0.0.1:16251", "nats://127.0.0.1:16252"}
	servers := make([]*proc, 3)
	defer func() {
		for _, s := range servers {
			s.kill()
		}
	}()
	startServer := func(i int) error {
		var err error
		servers[i], err = start(work, fmt.Sprintf("nats-%d", i), nil, natsBin, "-c", conf, "-js", "-a", "127.0.0.1", "-p", fmt.Sprint(ports[i]),
			"-n", fmt.Sprintf("s%d", i), "-sd", filepath.Join(work, fmt.Sprintf("js-%d", i)), "--cluster_name", "quarry",
			"--cluster", routes[i], "--routes", strings.Join(routes, ","))
		return err
	}
	for i := range 3 {
		if err := startServer(i); err != nil {
			return err
		}
	}
	url := "nats://127.0.0.1:14250,nats://127.0.0.1:14251,nats://127.0.0.1:14252"
	os.Setenv(cluster.EnvUser, "admin")
	os.Setenv(cluster.EnvPassword, "admin-secret")
	var admin *cluster.Cluster
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		var err error
		if admin, err = cluster.Connect(ctx, cluster.Options{URL: url, Name: "bench admin"}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the JetStream cluster never came up: %v", err)
		}
	}
	defer admin.Close()
	if err := admin.WatchNodes(ctx); err != nil {
		return err
	}
	nodes := map[string]*proc{}
	defer func() {
		for _, p := range nodes {
			p.kill()
		}
	}()
	for _, id := range []string{"n1", "n2", "n3"} {
		p, err := start(work, id, as("node"), quarryBin, "node", "--cluster", url, "--data", filepath.Join(work, "data-"+id), "--id", id)
		if err != nil {
			return err
		}
		nodes[id] = p
	}
	// Register them all, then wait until every repository is served twice.
	t0 = time.Now()
	for i, root := range roots {
		if _, err := clusterops.ClusterAdd(ctx, admin, fmt.Sprintf("r%05d", i), root, false); err != nil {
			return fmt.Errorf("add r%05d: %w", i, err)
		}
	}
	registered := time.Since(t0)
	fmt.Printf("registered %d repositories in %s\n", n, registered.Round(time.Millisecond))
	if err := admin.WatchRepos(ctx); err != nil {
		return err
	}
	served := func() (int, int) {
		repos, _ := admin.Repos(ctx)
		nds, _ := admin.Nodes(ctx)
		count, shards := 0, 0
		for _, sh := range cluster.Shards(repos) {
			shards++
			by := 0
			for _, nd := range nds {
				if nd.Shards[sh.Name] == sh.Version && sh.Version != "" {
					by++
				}
			}
			if by >= 2 {
				count += len(sh.Repos)
			}
		}
		return count, shards
	}
	for last := time.Now(); ; time.Sleep(time.Second) {
		got, shards := served()
		if got == n {
			fmt.Printf("all %d served twice, in %d shards, %s after the first add\n", n, shards, time.Since(t0).Round(time.Second))
			break
		}
		if time.Since(last) > 30*time.Second {
			fmt.Printf("  %s: %d of %d served twice\n", time.Since(t0).Round(time.Second), got, n)
			last = time.Now()
		}
		if time.Since(t0) > 2*time.Hour {
			return fmt.Errorf("not all served after 2 h")
		}
	}
	for _, id := range []string{"n1", "n2", "n3"} {
		fmt.Printf("node %s: %.0f MB resident\n", id, nodes[id].rssMB())
	}
	// Searches: the CLI (a process each) and a long-lived router.
	var cli []time.Duration
	for i := range 20 {
		q := fmt.Sprintf("Serve%05d", (i*7919)%n)
		cmd := exec.Command(quarryBin, "search", "--cluster", url, q, "--json")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), as("search")...)
		s := time.Now()
		out, err := cmd.Output()
		cli = append(cli, time.Since(s))
		if err != nil || !strings.Contains(string(out), q) {
			return fmt.Errorf("quarry search --cluster %s: %v\n%s", q, err, out)
		}
	}
	fmt.Printf("CLI search --cluster: p50 %s, p95 %s (20 runs)\n", pct(cli, 50).Round(time.Millisecond), pct(cli, 95).Round(time.Millisecond))
	os.Setenv(cluster.EnvUser, "search")
	os.Setenv(cluster.EnvPassword, "search-secret")
	searcher, err := cluster.Connect(ctx, cluster.Options{URL: url, Name: "bench router"})
	if err != nil {
		return err
	}
	defer searcher.Close()
	router, err := tools.NewService(work)
	if err != nil {
		return err
	}
	if err := clusterops.Attach(ctx, router, searcher); err != nil {
		return err
	}
	var lr []time.Duration
	asked := 0
	for i := range 100 {
		q := fmt.Sprintf("Serve%05d", (i*104729)%n)
		s := time.Now()
		res, err := router.Search(ctx, tools.SearchRequest{Query: q})
		lr = append(lr, time.Since(s))
		if err != nil || len(res.Results) == 0 {
			return fmt.Errorf("router search %s: %+v, %v", q, res, err)
		}
		asked = max(asked, len(res.Errors))
	}
	_, shards := served()
	fmt.Printf("router search: p50 %s, p95 %s (100 searches; each asks every shard: %d)\n", pct(lr, 50).Round(100*time.Microsecond), pct(lr, 95).Round(100*time.Microsecond), shards)
	// A burst of 1,000 catalog changes: each node's CPU meanwhile.
	before := map[string]time.Duration{}
	for id, p := range nodes {
		before[id] = p.cpu()
	}
	repos, err := admin.Repos(ctx)
	if err != nil {
		return err
	}
	for _, r := range repos[:min(1000, len(repos))] {
		if _, err := admin.PutRepo(ctx, r); err != nil { // the same entry again: a change to every watcher
			return err
		}
	}
	time.Sleep(5 * time.Second)
	for _, id := range []string{"n1", "n2", "n3"} {
		fmt.Printf("burst of %d catalog changes: node %s used %s of CPU (with 5 s of its ordinary work)\n", min(1000, len(repos)), id, (nodes[id].cpu() - before[id]).Round(10*time.Millisecond))
	}
	// kill -9 of a NATS server, then of a serving node: the next answers' times, and the
	// shards the nodes load meanwhile (with every node alive, none should move).
	after := func(what string) {
		var ds []time.Duration
		incomplete, failed := 0, 0
		for i := range 100 {
			q := fmt.Sprintf("Serve%05d", (i*31)%n)
			s := time.Now()
			res, err := router.Search(ctx, tools.SearchRequest{Query: q})
			ds = append(ds, time.Since(s))
			switch {
			case err != nil:
				failed++
			case len(res.Errors) > 0:
				incomplete++ // named: the answer lists the shards missing
			case len(res.Results) == 0 || !strings.Contains(res.Results[0].Name, q):
				fmt.Printf("  after %s: search %s: silently incomplete: %+v\n", what, q, res.Results)
			}
		}
		fmt.Printf("after %s: 100 searches, p50 %s, p99 %s, max %s; %d named missing shards, %d failed\n", what,
			pct(ds, 50).Round(100*time.Microsecond), pct(ds, 99).Round(time.Millisecond), pct(ds, 100).Round(time.Millisecond), incomplete, failed)
	}
	logSize := map[string]int64{}
	for id := range nodes {
		if st, err := os.Stat(filepath.Join(work, id+".log")); err == nil {
			logSize[id] = st.Size()
		}
	}
	servers[0].kill()
	after("kill -9 of NATS server s0")
	time.Sleep(30 * time.Second)
	loads := 0
	for id := range nodes {
		b, _ := os.ReadFile(filepath.Join(work, id+".log"))
		for _, l := range strings.Split(string(b[min(int(logSize[id]), len(b)):]), "\n") {
			if strings.Contains(l, ": serving ") {
				loads++
				fmt.Printf("  %s loaded a shard after the server's kill: %s\n", id, l)
			}
		}
	}
	fmt.Printf("after kill -9 of NATS server s0: %d shards loaded by the 3 live nodes in the next %s (none moves while every node lives)\n", loads, 30*time.Second+100*time.Millisecond)
	nodes["n1"].kill()
	after("kill -9 of node n1")
	return nil
}
