package tools_test

// The local server while an index run of its own is in progress: an external test of tools,
// so that it holds the run through tools' internal hook (export_test.go) and serves it with
// tools/localserver.

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/localserver"
)

// serving makes s the local server of its workspace for the test, and returns a client
// service of the same workspace that forwards to it, counting the operations it hands over.
func serving(t *testing.T, s *tools.Service) (client *tools.Service, forwarded *[]string) {
	t.Helper()
	ls, err := localserver.Listen(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ls.Close)
	client, err = tools.NewService(s.Root())
	if err != nil {
		t.Fatal(err)
	}
	client.SetForward(true)
	client.SetForwarder(localserver.Client{})
	var ops []string
	client.OnServer = func(op string, pid int) {
		if pid != os.Getpid() {
			t.Errorf("the server said pid %d, want %d", pid, os.Getpid())
		}
		ops = append(ops, op)
	}
	return client, &ops
}

// While the server's index run is writing, a client's search answers from what the run
// committed, neither busy nor waiting; a client's index run is handed to the server.
func TestLocalServerDuringIndexRun(t *testing.T) {
	s, file := tools.StaleRepo(t)
	client, ops := serving(t, s)
	ctx := context.Background()
	finish := tools.HoldRun(t, s, file, tools.IndexRequest{})
	res, err := client.Search(ctx, tools.SearchRequest{Query: "Acquire", Target: "definitions"})
	if err != nil || len(res.Results) == 0 || res.Results[0].Name != "Acquire" {
		t.Fatalf("a client's search during the server's run: %+v, %v", res, err)
	}
	handed := make(chan error, 1)
	go func() {
		_, err := client.Index(ctx, tools.IndexRequest{})
		handed <- err
	}()
	select {
	case err := <-handed:
		t.Fatalf("the client's index run ended (%v) while the server's was still writing", err)
	case <-time.After(200 * time.Millisecond): // it waits for the server's run
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	if err := <-handed; err != nil {
		t.Fatalf("the client's index run, handed to the server: %v", err)
	}
	if got := strings.Join(*ops, ","); got != "search,index" {
		t.Errorf("forwarded %s, want search,index", got)
	}
}
