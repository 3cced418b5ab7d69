package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/httpguard"
	"github.com/quarrysearch/quarry/tools/localserver"
	"github.com/quarrysearch/quarry/tools/mcpserver"
)

func init() {
	// This build serves the agent tools over MCP too.
	tools.Transports = append(tools.Transports, "mcp-stdio", "mcp-http")
}

type mcpOptions struct {
	http          string
	allowRemote   bool
	workspaceRoot string
	noWatch       bool
	answerForm    string
}

// httpShutdownTimeout bounds how long quarry mcp --http waits for requests in flight when
// it is stopped.
const httpShutdownTimeout = 5 * time.Second

// takeOverInterval is how often a quarry mcp that another process's server answers checks
// whether that server stopped, to serve (and watch) the workspace itself.
const takeOverInterval = 2 * time.Second

// httpReadHeaderTimeout bounds how long a client may take to send a request's headers.
const httpReadHeaderTimeout = 10 * time.Second

func newMCPCmd() *cobra.Command {
	var opts mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR [--allow-remote]]",
		Short: "Serve the agent tools (fast_search, fast_goto, ...) over MCP for AI agents",
		Long: `Serve the workspace's agent tools over the Model Context Protocol: on standard input and
output (the default: an MCP client starts quarry mcp in the workspace, or with --root), or
over streamable HTTP with --http ADDR. The tools are the operations of quarry describe,
with the same requests and results as the CLI's --json; the resource quarry://capabilities
holds quarry capabilities. If the workspace has no index yet, the first search builds it.
The server watches the workspace and keeps its index up to date as files change, as quarry
watch does (--no-watch turns that off); a batch applied is logged on standard error. It also
answers the quarry commands run in the workspace from a terminal (a socket in .quarry/); a
second quarry mcp in the same workspace asks the first, and takes over when it stops.

A tool's result holds its structured content and the same answer as compact text (one
line per hit), as the MCP spec recommends. A client that reads one of them can ask for it
alone with --answer-form text or --answer-form structured: the text is a third to a half of
an answer's bytes.

--http listens on loopback addresses only (127.0.0.1:PORT, [::1]:PORT, localhost:PORT)
unless --allow-remote is given. It refuses with 403 a request for another host than the
address it listens on or a loopback name with its port (DNS rebinding), and cross-origin
requests from web pages (an Origin header naming another host than this server's,
localhost, 127.0.0.1 or ::1). Over HTTP, manage_workspace's add, remove and clean are
refused unless --allow-workspace-root DIR lets clients add and remove workspaces under DIR;
on standard input and output the agent is the user's and may.`,
		Example: `  quarry mcp
  quarry mcp --root /path/to/workspace
  quarry mcp --http 127.0.0.1:8765`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMCP(cmd, opts) },
	}
	cmd.Flags().StringVar(&opts.http, "http", "", "serve streamable HTTP on this HOST:PORT instead of stdio")
	cmd.Flags().BoolVar(&opts.allowRemote, "allow-remote", false, "let --http listen on an address other machines can reach")
	cmd.Flags().StringVar(&opts.workspaceRoot, "allow-workspace-root", "", "let HTTP clients add and remove workspaces, in directories under `DIR` only")
	cmd.Flags().StringVar(&opts.answerForm, "answer-form", mcpserver.AnswerBoth, "what a tool's result holds: "+strings.Join(mcpserver.AnswerForms, ", ")+" (structured content and its compact text, the text alone, or the structured content alone)")
	cmd.Flags().BoolVar(&opts.noWatch, "no-watch", false, "do not watch the workspace's files (the index changes only with quarry index)")
	return cmd
}

func runMCP(cmd *cobra.Command, opts mcpOptions) error {
	if opts.allowRemote && opts.http == "" {
		return usagef(cmd.CommandPath(), "--allow-remote goes with --http ADDR")
	}
	if opts.workspaceRoot != "" && opts.http == "" {
		return usagef(cmd.CommandPath(), "--allow-workspace-root goes with --http ADDR (on standard input and output manage_workspace may add any workspace)")
	}
	if err := mcpserver.CheckAnswerForm(opts.answerForm); err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--answer-form: %w", err)}
	}
	var access httpguard.HTTPAccess
	if opts.http != "" {
		if err := checkListenAddr("--http", opts.http, opts.allowRemote); err != nil {
			return &usageError{cmd: cmd.CommandPath(), err: err}
		}
		var err error
		if access, err = httpAccess(opts.http, opts.workspaceRoot); err != nil {
			return &usageError{cmd: cmd.CommandPath(), err: err}
		}
	}
	svc, root, err := servingService(cmd, "quarry mcp")
	if err != nil {
		return err
	}
	defer svc.Close()
	stderr := cmd.ErrOrStderr()
	svc.MaxBytes = tools.AgentMaxBytes
	svc.AnswerForm = opts.answerForm
	defer serveAndWatch(cmd, svc, "quarry mcp", opts.noWatch)()
	if opts.http == "" {
		return mcpserver.ServeMCP(cmd.Context(), mcpserver.NewMCPServer(svc, version), cmd.InOrStdin(), cmd.OutOrStdout())
	}
	ln, err := net.Listen("tcp", opts.http)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--http %s: %w", opts.http, err)}
	}
	fmt.Fprintf(stderr, "quarry mcp: serving %s on http://%s/\n", root, ln.Addr())
	return serveHTTP(cmd.Context(), ln, access.Guard(mcpserver.MCPAt(mcpserver.MCPHandler(mcpserver.NewHTTPMCPServer(svc, version, access)), "/")))
}

// httpAccess is what the clients of an HTTP server listening on addr may do: add and
// remove workspaces under workspaceRoot when it is set (--allow-workspace-root), which must
// be a directory.
func httpAccess(addr, workspaceRoot string) (httpguard.HTTPAccess, error) {
	a := httpguard.HTTPAccess{Addr: addr}
	if workspaceRoot == "" {
		return a, nil
	}
	const want = "give the directory under which HTTP clients may add workspaces"
	root, err := tools.CanonicalDir(workspaceRoot)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return a, fmt.Errorf("%s %s: no such directory; %s", httpguard.WorkspaceRootFlag, workspaceRoot, want)
	case err != nil:
		return a, fmt.Errorf("%s %s: %v; %s", httpguard.WorkspaceRootFlag, workspaceRoot, err, want)
	}
	a.WorkspaceRoot = root
	return a, nil
}

// checkListenAddr refuses an address (given by flag) that is not HOST:PORT, and one that
// other machines can reach unless allowRemote.
func checkListenAddr(flag, addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q: %v; give HOST:PORT, like 127.0.0.1:8765", flag, addr, err)
	}
	if !allowRemote && !httpguard.LoopbackHost(host) {
		return fmt.Errorf("%s %s would listen beyond this machine; give a loopback address (127.0.0.1:PORT, [::1]:PORT, localhost:PORT), or add --allow-remote", flag, addr)
	}
	return nil
}

// servingService returns the service of the current workspace for a long-running server
// (quarry mcp, quarry serve): indexes kept open, each index run announced as name's.
func servingService(cmd *cobra.Command, name string) (*tools.Service, string, error) {
	root, err := primaryRoot()
	if err != nil {
		return nil, "", err
	}
	svc, err := tools.NewService(root)
	if err != nil {
		return nil, "", err
	}
	svc.SetForwarder(localserver.Client{}) // forwarding, when set, reaches the workspace's server
	stderr := cmd.ErrOrStderr()
	svc.Keep = tools.KeepOpen
	svc.OnIndexStart = func(e tools.Entry) { fmt.Fprintf(stderr, "%s: indexing %s\n", name, e.Root) }
	if err := attachCluster(cmd, svc); err != nil {
		return nil, "", err
	}
	if svc.Remote() != nil {
		root = cmd.Flags().Lookup("cluster").Value.String()
	}
	return svc, root, nil
}

// serveHTTP serves h on ln until ctx is done, then lets requests in flight finish.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: httpReadHeaderTimeout}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), httpShutdownTimeout)
			defer cancel()
			_ = hs.Shutdown(sctx)
		case <-done:
		}
	}()
	err := hs.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// serveAndWatch makes svc the server of its workspace for the other quarry processes (or
// asks the one serving it, and takes over when that one stops) and watches the files unless
// noWatch; name prefixes its messages. The returned function stops both and waits.
func serveAndWatch(cmd *cobra.Command, svc *tools.Service, name string, noWatch bool) func() {
	stderr := cmd.ErrOrStderr()
	if svc.Remote() != nil {
		// Answers come from the cluster: no local index is served or watched.
		fmt.Fprintf(stderr, "%s: answering from the cluster\n", name)
		return func() {}
	}
	// The server serves the workspace to the other quarry processes and watches it. When
	// another process serves it already, this one asks that one, and takes over when it stops.
	sctx, stop := context.WithCancel(cmd.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ls, other := serveWorkspace(cmd, svc)
		if other != 0 {
			svc.SetForward(true)
			fmt.Fprintf(stderr, "%s: quarry process %d serves this workspace; its index answers here (and it watches the files) until it stops\n", name, other)
			for other != 0 {
				select {
				case <-sctx.Done():
					return
				case <-time.After(takeOverInterval):
				}
				ls, other = serveWorkspace(cmd, svc)
			}
			fmt.Fprintf(stderr, "%s: the other server stopped; this one serves the workspace now\n", name)
		}
		if ls != nil {
			defer ls.Close()
		}
		if noWatch {
			<-sctx.Done()
			return
		}
		if err := svc.Watch(sctx, func(b tools.WatchBatch) {
			if b.Err != nil || b.Summary.Added+b.Summary.Changed+b.Summary.Renamed+b.Summary.Deleted > 0 {
				fmt.Fprint(stderr, name+": ")
				printBatch(stderr, b)
			}
		}); err != nil {
			fmt.Fprintf(stderr, "%s: not watching: %v\n", name, err)
		}
	}()
	return func() { stop(); <-done }
}
