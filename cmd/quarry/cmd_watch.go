package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/localserver"
)

func newWatchCmd() *cobra.Command {
	var idleExit time.Duration
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Keep the index up to date as files change, in the foreground",
		Long: `Watch the workspace's files and keep its index up to date, printing a line per batch
applied, until interrupted. Changes (files created, changed, deleted or renamed, editors'
atomic saves, new and removed directories, .gitignore and .quarryignore edits, a branch
switch touching thousands of files) are gathered until the file system is quiet for a moment
and applied as one incremental index run; searches from other terminals keep working. Where
the system's limit of watches runs out, the workspace is scanned every few seconds instead.
quarry mcp watches by default (--no-watch turns it off).

With --idle-exit, it stops once no other quarry command has asked it anything for that long,
and stops at once when another process already serves the workspace: the watcher a search
starts for the next ones (QUARRY_AUTOWATCH) runs so.`,
		Example: `  quarry watch
  quarry watch --root ~/src/project
  quarry watch --idle-exit 10m`,
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
			svc.SetForwarder(localserver.Client{}) // forwarding, when set, reaches the workspace's server
			defer svc.Close()
			svc.Keep = tools.KeepOpen // the searches it answers for other commands reuse the open index
			out := cmd.OutOrStdout()
			if idleExit < 0 {
				return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--idle-exit %v: want a positive duration, like 10m", idleExit)}
			}
			ls, other := serveWorkspace(cmd, svc)
			if other != 0 && idleExit > 0 {
				fmt.Fprintf(out, "quarry process %d serves this workspace already: nothing to do\n", other)
				return nil
			}
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
			ctx := cmd.Context()
			if idleExit > 0 {
				var stop context.CancelFunc
				ctx, stop = context.WithCancel(ctx)
				defer stop()
				current := func() bool { return true }
				if ls != nil {
					current = ls.Current
				}
				go stopWhenIdle(ctx, svc, idleExit, current, func(why string) {
					fmt.Fprintf(out, "%s %s: stopping\n", time.Now().Format("15:04:05"), why)
					stop()
				})
				fmt.Fprintf(out, "watching %s until no other quarry command asks for %v\n", root, idleExit)
			} else {
				fmt.Fprintf(out, "watching %s (Ctrl-C stops)\n", root)
			}
			return svc.Watch(ctx, func(b tools.WatchBatch) { printBatch(out, b) })
		},
	}
	cmd.Flags().DurationVar(&idleExit, "idle-exit", 0, "stop after this long without a request from another quarry command (0: never)")
	return cmd
}

// stopWhenIdle calls stop, saying why, once svc has served no other process for idle
// (counted from now at the start), or once it no longer serves at the workspace's socket
// (current: .quarry/ removed, maybe a new index and watcher in its place, so no command
// can reach this one any more), unless ctx ends first.
func stopWhenIdle(ctx context.Context, svc *tools.Service, idle time.Duration, current func() bool, stop func(why string)) {
	start := time.Now()
	tick := time.NewTicker(min(idle/4, 2*time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if !current() {
				stop("the workspace's socket is gone or another server's")
				return
			}
			last := svc.LastServed()
			if last.Before(start) {
				last = start
			}
			if now.Sub(last) >= idle {
				stop(fmt.Sprintf("no request for %v", idle))
				return
			}
		}
	}
}

// printBatch prints one line for a batch the watcher applied.
func printBatch(w io.Writer, b tools.WatchBatch) {
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
