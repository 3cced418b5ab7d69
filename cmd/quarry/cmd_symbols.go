package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

// symbolsOptions are quarry symbols' flags: get_symbols' request.
type symbolsOptions struct {
	mode   string
	depth  int
	target string
	limit  int
	cursor string
	json   bool
}

// outlineOnly are the flags of quarry outline that quarry symbols refuses with a pointer there.
var outlineOnly = []string{"kind", "lang", "max-size", "tree"}

func newSymbolsCmd() *cobra.Command {
	var opts symbolsOptions
	cmd := &cobra.Command{
		Use:   "symbols FILE [--mode minimal|structure|full] [--depth N] [--target NAME] [--json]",
		Short: "Show the outline of a file of the workspace (get_symbols)",
		Long: `Show the definitions of FILE, a file of the workspace, as a tree: each with its line, kind,
name and signature, nested under its parent (methods under their class, fields under their
struct), read from the file as it is now. It is the agents' get_symbols: --json prints that
tool's answer (quarry schema symbols), the same fields for the same request. --mode full
adds doc comments and bodies; --target keeps the symbols whose name contains it; a long
outline is paged (--limit, --cursor). The outline of any file, inside the workspace or not,
with every field of each symbol: quarry outline FILE.`,
		Example: `  quarry symbols server.go
  quarry symbols src/app.py --depth 1
  quarry symbols lib.rs --target parse --mode full
  quarry symbols lib.ts --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSymbols(cmd, opts, args[0])
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveDefault
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.mode, "mode", "m", "", flagDoc("symbols", "mode"))
	f.IntVar(&opts.depth, "depth", 0, flagDoc("symbols", "depth"))
	f.StringVarP(&opts.target, "target", "t", "", flagDoc("symbols", "target"))
	f.IntVar(&opts.limit, "limit", 0, flagDoc("symbols", "limit"))
	f.StringVar(&opts.cursor, "cursor", "", flagDoc("symbols", "cursor"))
	f.BoolVar(&opts.json, "json", false, "print get_symbols' answer as JSON")
	for _, name := range outlineOnly {
		if name == "tree" {
			f.Bool(name, false, "a flag of quarry outline")
		} else {
			f.String(name, "", "a flag of quarry outline")
		}
		_ = f.MarkHidden(name)
	}
	return cmd
}

func runSymbols(cmd *cobra.Command, opts symbolsOptions, path string) error {
	for _, name := range outlineOnly {
		if cmd.Flags().Changed(name) {
			return jsonFailure(cmd, opts.json, usagef(cmd.CommandPath(), "--%s is a flag of quarry outline (the outline of any file, every field of each symbol): quarry outline %s --%s ...; quarry symbols takes --mode, --depth, --target, --limit and --cursor", name, path, name))
		}
	}
	// FILE is taken from the current directory, as a file argument is; one that is not
	// there is the workspace's (quarry --root DIR symbols src/a.go from elsewhere).
	file := path
	if _, err := os.Stat(path); err == nil {
		if abs, err := filepath.Abs(path); err == nil {
			file = abs
		}
	}
	req := tools.SymbolsRequest{FilePath: file, Mode: opts.mode, Depth: opts.depth, Target: opts.target, Limit: opts.limit, Cursor: opts.cursor}
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	res, err := svc.Symbols(cmd.Context(), req)
	if err != nil {
		var e *tools.Error
		if errors.As(err, &e) && e.Code == tools.CodePathOutsideWorkspace {
			err = tools.Wrap(e, e.Message+"; quarry outline FILE outlines a file outside the workspace")
		}
		return jsonFailure(cmd, opts.json, err)
	}
	out := cmd.OutOrStdout()
	if opts.json {
		if err := writeJSON(out, res); err != nil {
			return err
		}
	} else {
		printSymbols(out, cmd.ErrOrStderr(), res)
	}
	if len(res.Results) == 0 {
		return errNothingFound
	}
	return nil
}

// printSymbols prints get_symbols' outline as a tree, with the page it is.
func printSymbols(w, errw io.Writer, res *tools.SymbolsResult) {
	fmt.Fprintf(w, "%s (%s, %d symbols)\n", qtext.Path(res.File), res.Language, res.Total)
	for _, e := range res.Results {
		fmt.Fprintf(w, "%6d  %s%s %s", e.Line, strings.Repeat("  ", e.Depth-1), e.Kind, e.Name)
		if e.Signature != "" && e.Signature != e.Name {
			fmt.Fprintf(w, "  —  %s", e.Signature)
		}
		fmt.Fprintln(w)
		if e.DocComment != "" {
			fmt.Fprintf(w, "        %s%s\n", strings.Repeat("  ", e.Depth), strings.ReplaceAll(strings.TrimSpace(e.DocComment), "\n", " "))
		}
		if e.Body != "" {
			for _, l := range strings.Split(strings.TrimRight(e.Body, "\n"), "\n") {
				fmt.Fprintf(w, "        %s%s\n", strings.Repeat("  ", e.Depth), l)
			}
		}
	}
	if res.Truncated {
		fmt.Fprintf(errw, "(%d of %d symbols shown, truncated: %s", len(res.Results), res.Total, res.TruncatedReason)
		if res.NextCursor != "" {
			fmt.Fprintf(errw, "; next page: --cursor %s", res.NextCursor)
		}
		fmt.Fprintln(errw, ")")
	}
	if res.ParseErrors > 0 {
		fmt.Fprintf(errw, "(%d syntax errors: symbols inside them may be missing)\n", res.ParseErrors)
	}
}

type outlineOptions struct {
	depth   int
	kinds   []string
	json    bool
	lang    string
	tree    bool
	maxSize int
}

func newOutlineCmd() *cobra.Command {
	var opts outlineOptions
	cmd := &cobra.Command{
		Use:   "outline FILE [--depth N] [--kind K] [--json]",
		Short: "Show the outline of any file, with every field of each symbol",
		Long: `Show the symbols of one source file as a tree: each definition with its kind, line and
signature, nested under its parent (methods under their class, fields under their struct).
Works on any file, indexed or not, inside the workspace or not; the language comes from the
file name, a "#!" line, or --lang.

With --json, print the outline with every symbol's fields (id, name, kind, language, path,
lines, columns, bytes, signature, doc_comment, visibility, parent_id, metadata, depth):
the result of the contract's outline operation (quarry schema outline). The agents'
outline of a workspace file, paged and by mode, is quarry symbols (get_symbols).`,
		Example: `  quarry outline main.go
  quarry outline src/server.rs --depth 1
  quarry outline app.py --kind class --kind method
  quarry outline lib.ts --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOutline(cmd, opts, args[0])
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveDefault
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.depth, "depth", 0, "show symbols down to this nesting depth (1: top level only; 0: all)")
	f.StringSliceVar(&opts.kinds, "kind", nil, "show only symbols of these kinds (repeat or separate with commas)")
	f.BoolVar(&opts.json, "json", false, "print the outline as JSON, every symbol with all its fields")
	f.StringVarP(&opts.lang, "lang", "l", "", "parse as this language instead of detecting it")
	f.BoolVar(&opts.tree, "tree", false, "print the tree-sitter syntax tree instead (for debugging an extractor)")
	f.IntVar(&opts.maxSize, "max-size", tools.DefaultMaxSourceSize, "largest file to extract, in bytes")
	_ = cmd.RegisterFlagCompletionFunc("lang", completeLanguages)
	_ = cmd.RegisterFlagCompletionFunc("kind", completeKinds)
	return cmd
}

func runOutline(cmd *cobra.Command, opts outlineOptions, path string) error {
	if opts.maxSize <= 0 { // 0 would be the request's default
		return jsonFailure(cmd, opts.json, tools.Errorf(tools.CodeBadValue, "max_size", "--max-size %d: want a positive number of bytes", opts.maxSize))
	}
	req := tools.OutlineRequest{File: path, Depth: opts.depth, Kind: opts.kinds, Language: opts.lang, MaxSize: opts.maxSize}
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	out := cmd.OutOrStdout()
	if opts.tree {
		tree, err := svc.SyntaxTree(cmd.Context(), req)
		if err != nil {
			return jsonFailure(cmd, false, err)
		}
		_, err = fmt.Fprintln(out, tree)
		return err
	}
	res, err := svc.Outline(cmd.Context(), req)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	if opts.json {
		if err := writeJSON(out, res); err != nil {
			return err
		}
	} else {
		printOutline(out, cmd.ErrOrStderr(), res)
	}
	if len(res.Results) == 0 {
		return errNothingFound
	}
	return nil
}

func completeKinds(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	c, err := tools.GetCapabilities()
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	return c.Kinds, cobra.ShellCompDirectiveNoFileComp
}

func printOutline(w, errw io.Writer, res *tools.OutlineResult) {
	fmt.Fprintf(w, "%s (%s, %d symbols)\n", qtext.Path(res.File), res.Language, len(res.Results))
	for _, e := range res.Results {
		indent := strings.Repeat("  ", e.Depth-1)
		fmt.Fprintf(w, "%6d  %s%s %s", e.StartLine, indent, e.Kind, e.Name)
		if e.Signature != "" && e.Signature != e.Name {
			fmt.Fprintf(w, "  —  %s", e.Signature)
		}
		fmt.Fprintln(w)
	}
	if res.ParseErrors > 0 {
		fmt.Fprintf(errw, "(%d syntax errors: symbols inside them may be missing)\n", res.ParseErrors)
	}
}
