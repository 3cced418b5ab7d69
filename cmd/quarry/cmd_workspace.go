package main

import (
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

func newWorkspaceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workspace",
		Short: "Manage reference workspaces searched beside the primary one",
		Long: `Reference workspaces are other directories (a library, a sibling service) indexed beside
the primary workspace and searched with --workspace ID or --workspace all. Their indexes
live in the primary workspace's .quarry/indexes/.`,
	}
	var name string
	var jsonOut bool
	add := &cobra.Command{
		Use:   "add PATH [--name N]",
		Short: "Add and index a reference workspace",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withRegistry(func(primary string, reg *workspace.Registry) error {
				e, err := reg.Add(args[0], name)
				if err != nil {
					return inputError(err)
				}
				if err := reg.Save(); err != nil {
					return err
				}
				sum, err := indexWorkspace(cmd, reg, primary, e, workspace.IndexOptions{})
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "added %s (%s): %d files, %d symbols\n", e.ID, e.Root, sum.Counts.Files, sum.Counts.Symbols)
				return nil
			})
		},
	}
	add.Flags().StringVar(&name, "name", "", "a name for the workspace (default: its directory name)")
	list := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the primary and reference workspaces",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withRegistry(func(primary string, reg *workspace.Registry) error {
				return listWorkspaces(cmd, primary, reg, jsonOut)
			})
		},
	}
	list.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	remove := &cobra.Command{
		Use:   "remove ID",
		Short: "Remove a reference workspace and its index",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withRegistry(func(primary string, reg *workspace.Registry) error {
				e, err := reg.Remove(args[0])
				if err != nil {
					return inputError(err)
				}
				if err := reg.Save(); err != nil {
					return err
				}
				if err := os.RemoveAll(workspace.IndexDir(primary, e.ID)); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "removed %s (%s)\n", e.ID, e.Root)
				return nil
			})
		},
	}
	var refreshForce bool
	refresh := &cobra.Command{
		Use:   "refresh [ID] [--force]",
		Short: "Bring the index of one workspace (default: all) up to date",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withRegistry(func(primary string, reg *workspace.Registry) error {
				entries := reg.All()
				if len(args) == 1 {
					e, err := reg.Lookup(args[0])
					if err != nil {
						return inputError(err)
					}
					entries = []workspace.Entry{e}
				}
				for _, e := range entries {
					sum, err := indexWorkspace(cmd, reg, primary, e, workspace.IndexOptions{Force: refreshForce})
					if err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %d files (%d added, %d changed, %d deleted) in %.1fs\n", e.ID, sum.Counts.Files, sum.Added, sum.Changed, sum.Deleted, sum.Elapsed.Seconds())
				}
				return nil
			})
		},
	}
	refresh.Flags().BoolVar(&refreshForce, "force", false, "drop the index and build it anew")
	stats := &cobra.Command{
		Use:   "stats [ID] [--json]",
		Short: "Show the counts of one workspace's index (default: the primary)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withRegistry(func(primary string, reg *workspace.Registry) error {
				id := ""
				if len(args) == 1 {
					id = args[0]
				}
				return printHealth(cmd, primary, reg, id, healthOptions{json: jsonOut, detailed: true}, false)
			})
		},
	}
	stats.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	clean := &cobra.Command{
		Use:   "clean",
		Short: "Delete the indexes that no registered workspace uses",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withRegistry(func(primary string, reg *workspace.Registry) error {
				removed, err := workspace.Clean(primary, reg)
				for _, id := range removed {
					fmt.Fprintf(cmd.OutOrStdout(), "removed the index %s\n", id)
				}
				if err == nil && len(removed) == 0 {
					fmt.Fprintln(cmd.OutOrStdout(), "nothing to clean")
				}
				return err
			})
		},
	}
	cmd.AddCommand(add, list, remove, refresh, stats, clean)
	return cmd
}

// withRegistry runs fn with the primary root and its registry.
func withRegistry(fn func(primary string, reg *workspace.Registry) error) error {
	primary, err := primaryRoot()
	if err != nil {
		return err
	}
	reg, err := workspace.LoadRegistry(primary)
	if err != nil {
		return err
	}
	return fn(primary, reg)
}

type workspaceRow struct {
	workspace.Entry
	Primary bool         `json:"primary"`
	Counts  index.Counts `json:"counts"`
	Indexed bool         `json:"indexed"`
}

func listWorkspaces(cmd *cobra.Command, primary string, reg *workspace.Registry, jsonOut bool) error {
	if jsonOut { // the agent contract's answer to manage_workspace list
		svc, err := tools.NewService(primary)
		if err != nil {
			return err
		}
		res, err := svc.Workspace(cmd.Context(), tools.WorkspaceRequest{Operation: "list"})
		if err != nil {
			return jsonFailure(cmd, true, err)
		}
		return writeJSON(cmd.OutOrStdout(), res)
	}
	var rows []workspaceRow
	for i, e := range reg.All() {
		row := workspaceRow{Entry: e, Primary: i == 0}
		if c, err := workspace.StoreCounts(cmd.Context(), workspace.IndexDir(primary, e.ID)); err == nil {
			row.Counts, row.Indexed = c, true
		}
		rows = append(rows, row)
	}
	tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tFILES\tSYMBOLS\tLAST INDEXED\tROOT")
	for _, r := range rows {
		last := "never"
		if !r.LastIndexed.IsZero() {
			last = r.LastIndexed.Format("2006-01-02T15:04:05Z")
		}
		id := r.ID
		if r.Primary {
			id += " (primary)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", id, r.Name, r.Counts.Files, r.Counts.Symbols, last, filepath.ToSlash(r.Root))
	}
	return tw.Flush()
}
