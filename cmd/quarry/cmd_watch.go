package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

func newWatchCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "watch",
		Short: "Keep the index up to date as files change, in the foreground",
		Long: `Watch the workspace's files and keep its index up to date, printing a line per batch
applied, until interrupted. Changes (files created, changed, deleted or renamed, editors'
atomic saves, new and removed directories, .gitignore and .quarryignore edits, a branch
switch touching thousands of files) are gathered until the file system is quiet for a moment
and applied as one incremental index run; searches from other terminals keep working. Where
the system's limit of watches runs out, the workspace is scanned every few seconds instead.
quarry mcp watches by default (--no-watch turns it off).`,
		Example: `  quarry watch
  quarry watch --root ~/src/project`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := primaryRoot()
			if err != nil {
				return err
			}
			svc, err := tools.NewService(root)
			if err != nil {
				return err
			}
			defer svc.Close()
			out := cmd.OutOrStdout()
			ls, other := serveWorkspace(cmd, svc)
			for waited := 0; other != 0; waited++ {
				// One writer at a time: a quarry index run ends; a quarry mcp or quarry watch
				// already keeps the index up to date, and this one takes over when it stops.
				if waited == 0 {
					fmt.Fprintf(out, "waiting: quarry process %d serves this workspace (quarry mcp, quarry watch or quarry index); watching starts when it stops\n", other)
				}
				select {
				case <-cmd.Context().Done():
					return nil
				case <-time.After(time.Second):
				}
				ls, other = serveWorkspace(cmd, svc)
			}
			if ls != nil {
				defer ls.Close()
			}
			fmt.Fprintf(out, "watching %s (Ctrl-C stops)\n", root)
			return svc.Watch(cmd.Context(), func(b workspace.WatchBatch) { printBatch(out, b) })
		},
	}
}

// printBatch prints one line for a batch the watcher applied.
func printBatch(w io.Writer, b workspace.WatchBatch) {
	at := time.Now().Format("15:04:05")
	what := fmt.Sprintf("%d events", b.Events)
	if b.Events == 0 {
		what = "scan"
	}
	if b.Err != nil {
		fmt.Fprintf(w, "%s %s: index run failed: %v\n", at, what, b.Err)
		return
	}
	s := b.Summary
	fmt.Fprintf(w, "%s %s: %d added, %d changed, %d renamed, %d deleted in %d ms (%.0f ms after the first event)\n",
		at, what, s.Added, s.Changed, s.Renamed, s.Deleted, s.ElapsedMS, float64(b.Lag.Microseconds())/1000)
}
