package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

type indexOptions struct {
	force   bool
	json    bool
	maxSize int64
}

func newIndexCmd() *cobra.Command {
	var opts indexOptions
	cmd := &cobra.Command{
		Use:   "index [PATH] [--force] [--json]",
		Short: "Index a workspace, or bring its index up to date",
		Long: `Index the workspace at PATH (default: the current workspace: the nearest directory with a
.quarry/ index, else the enclosing git work tree, else the current directory). The index is
kept in PATH/.quarry/. A second run re-reads only files whose size or modification time
changed and re-extracts only files whose content changed; deleted files are removed.

Files ignored by .gitignore, .git/info/exclude or .quarryignore, build outputs
(node_modules, target, dist, ...), files over --max-size, binary and minified files are
skipped and counted by reason.`,
		Example: `  quarry index
  quarry index ~/src/project --json
  quarry index --force`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIndex(cmd, opts, args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.force, "force", false, "drop the index and build it anew")
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON (the index report of manage_workspace)")
	f.Int64Var(&opts.maxSize, "max-size", tools.DefaultMaxFileSize, "skip files larger than this many bytes")
	return cmd
}

func runIndex(cmd *cobra.Command, opts indexOptions, args []string) error {
	if opts.maxSize <= 0 { // 0 would be the request's default
		return jsonFailure(cmd, opts.json, tools.Errorf(tools.CodeBadValue, "max_size", "--max-size %d: want a positive number of bytes", opts.maxSize))
	}
	req := tools.IndexRequest{Force: opts.force, MaxSize: opts.maxSize}
	if len(args) == 1 {
		req.Path = args[0]
	}
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	res, err := svc.Index(cmd.Context(), req)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	if opts.json {
		return writeJSON(cmd.OutOrStdout(), res)
	}
	printSummary(cmd.OutOrStdout(), res)
	return nil
}

func printSummary(w io.Writer, s *tools.IndexReport) {
	fmt.Fprintf(w, "Indexed %s (%s) in %.1fs\n", s.Root, s.ID, float64(s.ElapsedMS)/1e3)
	fmt.Fprintf(w, "  files: %d indexed (%d added, %d changed, %d renamed, %d deleted, %d unchanged); %d extracted, %.1f MB read\n",
		s.Counts.Files, s.Added, s.Changed, s.Renamed, s.Deleted, s.Unchanged, s.Extracted, float64(s.BytesRead)/1e6)
	fmt.Fprintf(w, "  symbols: %d, identifiers: %d, relationships: %d\n", s.Counts.Symbols, s.Counts.Identifiers, s.Counts.Relationships)
	var langs []string
	for _, l := range s.Languages {
		name := l.Language
		if name == "" {
			name = "other"
		}
		langs = append(langs, fmt.Sprintf("%s %d", name, l.Files))
	}
	if len(langs) > 0 {
		fmt.Fprintf(w, "  languages: %s\n", strings.Join(langs, ", "))
	}
	var skipped []string
	for reason, n := range s.Skipped {
		if n > 0 {
			skipped = append(skipped, fmt.Sprintf("%s %d", reason, n))
		}
	}
	sort.Strings(skipped)
	if len(skipped) > 0 {
		fmt.Fprintf(w, "  skipped: %s\n", strings.Join(skipped, ", "))
	}
	fmt.Fprintf(w, "  full-text index: %s\n", s.Fulltext)
	for i, e := range s.Errors {
		if i == maxListedErrors {
			fmt.Fprintf(w, "  ... and %d more errors\n", len(s.Errors)-i)
			break
		}
		fmt.Fprintf(w, "  error: %s\n", strings.SplitN(e, "\n", 2)[0])
	}
}

// maxListedErrors caps the per-file errors a summary prints.
const maxListedErrors = 10
