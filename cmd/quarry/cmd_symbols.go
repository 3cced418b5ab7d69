package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

type symbolsOptions struct {
	depth   int
	kinds   []string
	json    bool
	lang    string
	tree    bool
	maxSize int
}

func newSymbolsCmd() *cobra.Command {
	var opts symbolsOptions
	cmd := &cobra.Command{
		Use:   "symbols FILE [--depth N] [--kind K] [--json]",
		Short: "Show the outline of a source file",
		Long: `Show the symbols of one source file as a tree: each definition with its kind, line and
signature, nested under its parent (methods under their class, fields under their struct).
Works on any file, indexed or not; the language comes from the file name, a "#!" line, or
--lang.

With --json, print the outline with every symbol's fields (id, name, kind, language, path,
lines, columns, bytes, signature, doc_comment, visibility, parent_id, metadata, depth):
the result of the contract's outline operation (quarry schema outline).`,
		Example: `  quarry symbols main.go
  quarry symbols src/server.rs --depth 1
  quarry symbols app.py --kind class --kind method
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

func runSymbols(cmd *cobra.Command, opts symbolsOptions, path string) error {
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
