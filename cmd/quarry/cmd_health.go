package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

type healthOptions struct {
	detailed  bool
	json      bool
	workspace string
}

func newHealthCmd() *cobra.Command {
	var opts healthOptions
	cmd := &cobra.Command{
		Use:   "health [--detailed] [--json] [--workspace ID]",
		Short: "Check a workspace's index and say what to do about each problem",
		Long: `Check the index of a workspace (default: the primary one): the store's counts, the
languages with their files, symbols and files with syntax errors, the files skipped by
reason, the sizes on disk, the full-text index's state (ready, building, stale, missing,
corrupt, inconsistent; documents in bleve against rows in SQLite), the content index's
(ready, missing, corrupt, inconsistent; its files against the store's), and the files changed on
disk since the last index run, each problem with the action that fixes it.

The exit code is 0 when the index is healthy and 1 when it has problems.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runHealth(cmd, opts) },
	}
	f := cmd.Flags()
	f.BoolVar(&opts.detailed, "detailed", false, "list languages, skipped files and changed files")
	f.BoolVar(&opts.json, "json", false, "print JSON: what manage_workspace health answers, the report in health")
	f.StringVar(&opts.workspace, "workspace", "", "the workspace to check (an id from quarry workspace list)")
	return cmd
}

// errUnhealthy ends `quarry health` with exit code 1 when the index has problems.
var errUnhealthy = fmt.Errorf("the index has problems: %w", errNothingFound)

func runHealth(cmd *cobra.Command, opts healthOptions) error {
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	res, err := svc.HealthOperation(cmd.Context(), tools.HealthRequest{Workspace: opts.workspace, Detailed: opts.detailed})
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	h := res.Health
	out := cmd.OutOrStdout()
	if opts.json {
		if err := writeJSON(out, res); err != nil {
			return err
		}
	} else {
		writeHealth(out, h, opts.detailed)
	}
	if h.Status != tools.Healthy {
		return errUnhealthy
	}
	return nil
}

func writeHealth(w io.Writer, h *tools.HealthReport, detailed bool) {
	fmt.Fprintf(w, "%s (%s): %s\n", h.Workspace.Name, h.Workspace.ID, h.Status)
	if h.Status == tools.NotIndexed {
		writeProblems(w, h)
		return
	}
	c := h.Store.Counts
	fmt.Fprintf(w, "  store: %d files, %d symbols, %d identifiers, %d relationships; %.1f MB (%s)\n",
		c.Files, c.Symbols, c.Identifiers, c.Relationships, float64(h.Store.SizeBytes)/1e6, h.Store.Path)
	f := h.Fulltext
	fmt.Fprintf(w, "  full-text: %s; %d symbol documents; %.1f MB\n", f.Status, f.SymbolDocs, float64(f.SizeBytes)/1e6)
	ct := h.Content
	fmt.Fprintf(w, "  content: %s; %d files in %d segments; %.1f MB\n", ct.Status, ct.FileDocs, ct.Segments, float64(ct.SizeBytes)/1e6)
	if h.LastIndex != nil {
		fmt.Fprintf(w, "  last indexed: %s (%.1fs)\n", h.LastIndex.At.Format("2006-01-02T15:04:05Z"), float64(h.LastIndex.ElapsedMS)/1e3)
	}
	if wt := h.Watch; wt != nil {
		how := fmt.Sprintf("%d directories watched", wt.Directories)
		if wt.Scanning {
			how += "; the system's limit of watches reached: scanning every few seconds"
		}
		fmt.Fprintf(w, "  watcher: running since %s, %s; %d events in %d batches, the last applied %.0f ms after its first event\n",
			wt.Since.Format("15:04:05"), how, wt.Events, wt.Batches, wt.LastLagMS)
		if wt.Repair != "" {
			fmt.Fprintf(w, "  repaired at start: %s\n", wt.Repair)
		}
		if wt.LastError != "" {
			fmt.Fprintf(w, "  watcher's last error: %s\n", wt.LastError)
		}
	}
	ch := h.Changed
	fmt.Fprintf(w, "  changed on disk since: %d modified, %d added, %d deleted\n", ch.Modified, ch.Added, ch.Deleted)
	if detailed {
		fmt.Fprintln(w, "  languages:")
		for _, l := range h.Languages {
			name := l.Language
			if name == "" {
				name = "(other text)"
			}
			fmt.Fprintf(w, "    %-12s %6d files %8d symbols %4d with syntax errors\n", name, l.Files, l.Symbols, l.FilesParseErrors)
		}
		if len(h.WithoutExtractor) > 0 {
			parts := make([]string, len(h.WithoutExtractor))
			for i, c := range h.WithoutExtractor {
				parts[i] = fmt.Sprintf("%s %d", c.Name, c.Files)
			}
			fmt.Fprintf(w, "  without an extractor (content search only): %s\n", strings.Join(parts, ", "))
		}
		if h.LastIndex != nil && len(h.LastIndex.Skipped) > 0 {
			var parts []string
			for r, n := range h.LastIndex.Skipped {
				if n > 0 {
					parts = append(parts, fmt.Sprintf("%s %d", r, n))
				}
			}
			sort.Strings(parts)
			fmt.Fprintf(w, "  skipped: %s\n", strings.Join(parts, ", "))
		}
		for _, p := range ch.Samples {
			fmt.Fprintf(w, "  changed: %s\n", qtext.Path(p))
		}
	}
	writeProblems(w, h)
}

func writeProblems(w io.Writer, h *tools.HealthReport) {
	for _, n := range h.Notices {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, p := range h.Problems {
		fmt.Fprintf(w, "  problem: %s\n    action: %s\n", p.What, p.Action)
	}
}
