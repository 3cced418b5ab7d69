package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

func newWorkspaceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workspace",
		Short: "Manage reference workspaces searched beside the primary one",
		Long: `Reference workspaces are other directories (a library, a sibling service) indexed beside
the primary workspace and searched with --workspace ID or --workspace all. Their indexes
live in the primary workspace's .quarry/indexes/.

Each subcommand runs the matching operation of manage_workspace, the agents' tool; with
--json it prints that operation's result.`,
	}
	var name string
	add := workspaceCmd("add PATH [--name N]", "Add and index a reference workspace", cobra.ExactArgs(1),
		func(args []string) tools.WorkspaceRequest {
			return tools.WorkspaceRequest{Operation: "add", Path: args[0], Name: name}
		},
		func(w io.Writer, res *tools.WorkspaceResult) {
			for i, ws := range res.Workspaces {
				fmt.Fprintf(w, "added %s (%s): %d files, %d symbols\n", ws.ID, ws.Root, res.Indexed[i].Files, res.Indexed[i].Symbols)
			}
		})
	add.Flags().StringVar(&name, "name", "", "a name for the workspace (default: its directory name)")
	list := workspaceCmd("list [--json]", "List the primary and reference workspaces", cobra.NoArgs,
		func([]string) tools.WorkspaceRequest { return tools.WorkspaceRequest{Operation: "list"} },
		printWorkspaces)
	var keepIndex bool
	remove := workspaceCmd("remove ID [--keep-index]", "Remove a reference workspace and its index", cobra.ExactArgs(1),
		func(args []string) tools.WorkspaceRequest {
			return tools.WorkspaceRequest{Operation: "remove", ID: args[0], KeepIndex: keepIndex}
		},
		func(w io.Writer, res *tools.WorkspaceResult) {
			for _, ws := range res.Workspaces {
				what := "and its index"
				if len(res.Removed) == 0 {
					what = "(its index is kept: quarry workspace clean deletes it)"
				}
				fmt.Fprintf(w, "removed %s (%s) %s\n", ws.ID, ws.Root, what)
			}
		})
	remove.Flags().BoolVar(&keepIndex, "keep-index", false, "unregister the workspace but keep its index")
	var force bool
	refresh := workspaceCmd("refresh [ID] [--force]", "Bring the index of one workspace (default: all) up to date", cobra.MaximumNArgs(1),
		func(args []string) tools.WorkspaceRequest {
			return tools.WorkspaceRequest{Operation: "refresh", ID: optionalArg(args), Force: force}
		},
		func(w io.Writer, res *tools.WorkspaceResult) {
			for _, s := range res.Indexed {
				fmt.Fprintf(w, "%s: %d files (%d added, %d changed, %d deleted) in %.1fs\n", s.ID, s.Files, s.Added, s.Changed, s.Deleted, float64(s.ElapsedMS)/1e3)
			}
		})
	refresh.Flags().BoolVar(&force, "force", false, "drop the index and build it anew")
	stats := workspaceCmd("stats [ID] [--json]", "Show the counts and health of one workspace's index (default: the primary)", cobra.MaximumNArgs(1),
		func(args []string) tools.WorkspaceRequest {
			return tools.WorkspaceRequest{Operation: "stats", ID: optionalArg(args)}
		},
		func(w io.Writer, res *tools.WorkspaceResult) { writeHealth(w, res.Health, true) })
	clean := workspaceCmd("clean", "Delete the indexes that no registered workspace uses", cobra.NoArgs,
		func([]string) tools.WorkspaceRequest { return tools.WorkspaceRequest{Operation: "clean"} },
		func(w io.Writer, res *tools.WorkspaceResult) {
			for _, id := range res.Removed {
				fmt.Fprintf(w, "removed the index %s\n", id)
			}
			if len(res.Removed) == 0 {
				fmt.Fprintln(w, "nothing to clean")
			}
		})
	cmd.AddCommand(add, list, remove, refresh, stats, clean)
	return cmd
}

// workspaceCmd returns a subcommand that runs the manage_workspace operation request makes
// of its arguments and prints its result: as JSON with --json, else with print.
func workspaceCmd(use, short string, args cobra.PositionalArgs, request func([]string) tools.WorkspaceRequest, print func(io.Writer, *tools.WorkspaceResult)) *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args,
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := newService(cmd)
			if err != nil {
				return jsonFailure(cmd, jsonOut, err)
			}
			res, err := svc.Workspace(cmd.Context(), request(args))
			if err != nil {
				return jsonFailure(cmd, jsonOut, err)
			}
			if jsonOut {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			print(cmd.OutOrStdout(), res)
			return nil
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the result of manage_workspace as JSON")
	return cmd
}

// optionalArg returns the one optional argument, or "".
func optionalArg(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return ""
}

func printWorkspaces(w io.Writer, res *tools.WorkspaceResult) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tFILES\tSYMBOLS\tLAST INDEXED\tROOT")
	for _, ws := range res.Workspaces {
		last := "never"
		if ws.LastIndexed != "" {
			last = ws.LastIndexed
		}
		id := ws.ID
		if ws.Primary {
			id += " (primary)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", id, ws.Name, ws.Files, ws.Symbols, last, filepath.ToSlash(ws.Root))
	}
	_ = tw.Flush()
}

// rootFlag is the --root flag shared by the commands that work on a workspace.
var rootFlag string

// primaryRoot returns the workspace root a command works on: --root, else found from the
// current directory like git finds its repository.
func primaryRoot() (string, error) {
	dir := rootFlag
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", err
		}
	}
	root, err := tools.FindRoot(dir)
	if err != nil {
		return "", inputError(err)
	}
	return root, nil
}

// inputError marks errors about a path the user gave (missing, not a directory, unreadable)
// as usage errors.
func inputError(err error) error {
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, tools.ErrNotDirectory) || errors.Is(err, os.ErrPermission) || errors.Is(err, tools.ErrUnknownWorkspace) {
		return &usageError{err: err}
	}
	return err
}

// progress draws a one-line progress report on a terminal and nothing elsewhere.
type progress struct {
	w     io.Writer
	label string
	on    bool
	start time.Time
	last  time.Time
}

// progressInterval is how often the progress line is redrawn.
const progressInterval = 100 * time.Millisecond

func newProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	on := false
	if ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progress{w: w, label: label, on: on, start: time.Now()}
}

func (p *progress) update(pr tools.Progress) {
	if !p.on || time.Since(p.last) < progressInterval && pr.Done < pr.Total {
		return
	}
	p.last = time.Now()
	secs := time.Since(p.start).Seconds()
	mbps := float64(pr.Bytes) / 1e6 / max(secs, 1e-3)
	eta := "?"
	if pr.Done > 0 {
		eta = (time.Duration(secs*float64(pr.Total-pr.Done)/float64(pr.Done)) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\033[K%s: %d/%d files, %.1f MB/s, ETA %s", p.label, pr.Done, pr.Total, mbps, eta)
}

func (p *progress) finish() {
	if p.on && !p.last.IsZero() {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
