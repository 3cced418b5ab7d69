package main

import (
	"fmt"
	"net"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools/mcpserver"
	"github.com/quarrysearch/quarry/web"
)

type serveOptions struct {
	addr          string
	allowRemote   bool
	workspaceRoot string
	noWatch       bool
	noMCP         bool
}

// newServeCmd returns quarry serve: the search page, its JSON API and the MCP endpoint.
func newServeCmd() *cobra.Command {
	var opts serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--allow-remote]",
		Short: "Serve a search page for people, its JSON API and MCP over HTTP",
		Long: `Serve the current workspace (and its reference workspaces) over HTTP: a search page that
answers as you type (/), a file view with syntax highlighting, the file's outline and links
to each definition's references and callers (/file?path=P#L120-L140), the agent contract's
operations as a JSON API (POST /api/search with a search request; GET /api/health), and
the MCP endpoint (/mcp). The page's assets are in the binary: it works offline.

It listens on a loopback address unless --allow-remote. It answers only requests for the
address it listens on or a loopback name with its port (a Host header naming another site,
as after DNS rebinding, is refused), and refuses requests from another site's pages (an
Origin other than this server's or loopback). Its clients search and read; adding or
removing workspaces over HTTP is refused unless --allow-workspace-root DIR lets them, for
directories under DIR. It watches the files, so the page answers from a fresh index.`,
		Example: `  quarry serve                       # http://127.0.0.1:7777/
  quarry serve --addr 127.0.0.1:9000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.addr, "addr", "127.0.0.1:7777", "listen on this HOST:PORT")
	f.BoolVar(&opts.allowRemote, "allow-remote", false, "let --addr be an address other machines can reach")
	f.StringVar(&opts.workspaceRoot, "allow-workspace-root", "", "let HTTP clients add and remove workspaces, in directories under `DIR` only")
	f.BoolVar(&opts.noWatch, "no-watch", false, "do not watch the files (the index stays as it is)")
	f.BoolVar(&opts.noMCP, "no-mcp", false, "do not serve MCP at /mcp")
	return cmd
}

func runServe(cmd *cobra.Command, opts serveOptions) error {
	if err := checkListenAddr("--addr", opts.addr, opts.allowRemote); err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	access, err := httpAccess(opts.addr, opts.workspaceRoot)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	svc, root, err := servingService(cmd, "quarry serve")
	if err != nil {
		return err
	}
	defer svc.Close()
	stderr := cmd.ErrOrStderr()
	defer serveAndWatch(cmd, svc, "quarry serve", opts.noWatch)()
	wo := web.Options{Access: access}
	if !opts.noMCP {
		wo.MCP = mcpserver.MCPHandler(mcpserver.NewHTTPMCPServer(svc, version, access))
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--addr %s: %w", opts.addr, err)}
	}
	fmt.Fprintf(stderr, "quarry serve: serving %s on http://%s/\n", root, ln.Addr())
	return serveHTTP(cmd.Context(), ln, web.Handler(svc, wo))
}
