package localserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/internal/testkit"
	"github.com/quarrysearch/quarry/workspace"
)

// serving makes s the local server of its workspace for the test, and returns a client
// service of the same workspace that forwards to it, counting the operations it hands over.
func serving(t *testing.T, s *tools.Service) (client *tools.Service, forwarded *[]string) {
	t.Helper()
	ls, err := Listen(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ls.Close)
	client, err = tools.NewService(s.Root())
	if err != nil {
		t.Fatal(err)
	}
	client.SetForward(true)
	client.SetForwarder(Client{})
	var ops []string
	client.OnServer = func(op string, pid int) {
		if pid != os.Getpid() {
			t.Errorf("the server said pid %d, want %d", pid, os.Getpid())
		}
		ops = append(ops, op)
	}
	return client, &ops
}

// A client asking the server gets the answer the server's own search gives, and the
// contract's errors come back as they are (code, field, message).
func TestLocalServerAnswers(t *testing.T) {
	s, _ := staleRepo(t)
	client, ops := serving(t, s)
	ctx := context.Background()
	req := tools.SearchRequest{Query: "Acquire", Target: "definitions"}
	want, err := s.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := client.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(*ops) != 1 || (*ops)[0] != "search" {
		t.Fatalf("forwarded %v, want [search]", *ops)
	}
	want.ElapsedMS, got.ElapsedMS = 0, 0
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Errorf("via the server:\n%s\nhere:\n%s", gj, wj)
	}
	_, err = client.Search(ctx, tools.SearchRequest{Query: "kind:(function", Target: "definitions"})
	var e *tools.Error
	if !errors.As(err, &e) || e.Code != tools.CodeBadQuery || !strings.HasPrefix(e.Message, "1:1: unclosed (") {
		t.Errorf("a bad query via the server: %v; want BAD_QUERY with its position", err)
	}
	h, err := client.Health(ctx, tools.HealthRequest{})
	if err != nil || h.Status != workspace.Healthy {
		t.Errorf("health via the server: %+v, %v", h, err)
	}
	if len(*ops) != 3 {
		t.Errorf("forwarded %v, want search, search, health", *ops)
	}
}

// The server's default budget of an answer (an MCP server cuts at 24 KB for agents) is not
// the command line's: a client gets the answer its own default allows.
func TestLocalServerKeepsClientBudget(t *testing.T) {
	s, file := staleRepo(t)
	var b strings.Builder
	b.WriteString("package pool\n\n")
	for i := range 200 {
		b.WriteString("// Acquire is called here " + strings.Repeat("x", i%7) + "\nvar _ = 1\n")
	}
	testkit.Edit(t, file, b.String())
	if _, err := s.Index(context.Background(), tools.IndexRequest{}); err != nil {
		t.Fatal(err)
	}
	s.MaxBytes = 200
	client, _ := serving(t, s)
	req := tools.SearchRequest{Query: "Acquire", Target: "content", Limit: intp(100)}
	cut, err := s.Search(context.Background(), req)
	if err != nil || cut.TruncatedReason != tools.TruncatedMaxBytes {
		t.Fatalf("the server's own search: %+v, %v; want cut at its max_bytes", cut, err)
	}
	whole, err := client.Search(context.Background(), req)
	if err != nil || whole.TruncatedReason == tools.TruncatedMaxBytes || len(whole.Results) <= len(cut.Results) {
		t.Errorf("via the server: %d results, truncated %q, %v; want more than the server's %d, not cut", len(whole.Results), whole.TruncatedReason, err, len(cut.Results))
	}
}

// With no server (none started, or one that died and left its socket), a client runs the
// operation itself; a new server replaces the dead one's socket; a second server is refused
// with the first one's process id.
func TestLocalServerAbsentOrDead(t *testing.T) {
	s, _ := staleRepo(t)
	s.SetForward(true)
	s.SetForwarder(Client{})
	calls := 0
	s.OnServer = func(string, int) { calls++ }
	sock := filepath.Join(s.Root(), workspace.DataDir, SocketFile)
	if err := os.WriteFile(sock, nil, 0o600); err != nil { // a dead server's leftover
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), tools.SearchRequest{Query: "Acquire"})
	if err != nil || len(res.Results) == 0 || calls != 0 {
		t.Fatalf("with no server: %+v, %v, %d forwarded", res, err, calls)
	}
	s.SetForward(false)
	ls, err := Listen(s)
	if err != nil {
		t.Fatalf("listening over a dead server's socket: %v", err)
	}
	defer ls.Close()
	other, err := tools.NewService(s.Root())
	if err != nil {
		t.Fatal(err)
	}
	var running *ServerRunningError
	if _, err := Listen(other); !errors.As(err, &running) || running.PID != os.Getpid() {
		t.Errorf("a second server: %v; want ServerRunningError naming pid %d", err, os.Getpid())
	}
	if st, err := os.Stat(sock); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the socket: %v, %v; want mode 0600", st.Mode(), err)
	}
}

// A workspace whose socket path is longer than a socket address holds is served too.
func TestLocalServerLongPath(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(root, strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc Long() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := indexedService(t, root)
	client, ops := serving(t, s)
	res, err := client.Search(context.Background(), tools.SearchRequest{Query: "Long"})
	if err != nil || len(res.Results) == 0 || len(*ops) != 1 {
		t.Errorf("via a server at a %d-byte socket path: %+v, %v, forwarded %v", len(filepath.Join(root, ".quarry", SocketFile)), res, err, *ops)
	}
}

// TestLocalServerStopsMidIndex: a forced index handed to the workspace's server completes
// when that server stops in the middle of the run (issue 41: quarry index --force exited 3
// with "sql: statement is closed" when quarry mcp ended normally meanwhile): the server
// answers nothing then, and the client runs the index itself.
func TestLocalServerStopsMidIndex(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("pkg%d/f%d.go", i%20, i)] = fmt.Sprintf("package pkg%d\n\n// F%d does %d things.\nfunc F%d(x int) int { return x + %d }\n", i%20, i, i, i, i)
	}
	testkit.WriteFiles(t, root, files)
	server, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	if _, err := server.Index(context.Background(), tools.IndexRequest{}); err != nil {
		t.Fatal(err)
	}
	ls, err := Listen(server)
	if err != nil {
		t.Fatal(err)
	}
	client, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	client.SetForward(true)
	client.SetForwarder(Client{})
	handed := make(chan struct{}, 1)
	client.OnServer = func(op string, pid int) {
		if op == "index" {
			handed <- struct{}{}
		}
	}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-handed
		time.Sleep(30 * time.Millisecond) // the run under way
		ls.Close()
		server.Close()
	}()
	rep, err := client.Index(context.Background(), tools.IndexRequest{Force: true})
	<-stopped
	if err != nil {
		t.Fatalf("index --force handed to a server that stopped mid-run: %v", err)
	}
	if rep.Files < 400 {
		t.Errorf("index report: %d files, want 400", rep.Files)
	}
	res, err := client.Search(context.Background(), tools.SearchRequest{Query: "F399", Target: "definitions"})
	if err != nil || len(res.Results) == 0 {
		t.Errorf("search after the take-over: %v, %d results", err, len(res.Results))
	}
}

// TestLocalServerCloseKeepsAnothersSocket: a server whose .quarry/ was removed and made
// again (a new index, and a new server in it) closes without removing the new server's
// socket, which still answers.
func TestLocalServerCloseKeepsAnothersSocket(t *testing.T) {
	root := t.TempDir()
	first, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	old, err := Listen(first)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, workspace.DataDir)); err != nil {
		t.Fatal(err)
	}
	second, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	now, err := Listen(second)
	if err != nil {
		t.Fatal(err)
	}
	defer now.Close()
	old.Close()
	sock := filepath.Join(root, workspace.DataDir, SocketFile)
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("the old server's Close removed the new server's socket: %v", err)
	}
	c, hello, err := dialLocal(root)
	if err != nil {
		t.Fatalf("the new server does not answer: %v", err)
	}
	c.Close()
	if hello.PID != os.Getpid() {
		t.Errorf("hello from pid %d", hello.PID)
	}
}
