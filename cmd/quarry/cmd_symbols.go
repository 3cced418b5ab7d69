package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/suggest"
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

With --json, print the flat list of symbols with all their fields (id, name, kind, language,
path, lines, columns, bytes, signature, doc_comment, visibility, parent_id, metadata).`,
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
	f.BoolVar(&opts.json, "json", false, "print the flat list of symbols as JSON")
	f.StringVarP(&opts.lang, "lang", "l", "", "parse as this language instead of detecting it")
	f.BoolVar(&opts.tree, "tree", false, "print the tree-sitter syntax tree instead (for debugging an extractor)")
	f.IntVar(&opts.maxSize, "max-size", extract.DefaultMaxFileSize, "largest file to extract, in bytes")
	_ = cmd.RegisterFlagCompletionFunc("lang", completeLanguages)
	_ = cmd.RegisterFlagCompletionFunc("kind", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return extract.Kinds(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runSymbols(cmd *cobra.Command, opts symbolsOptions, path string) error {
	usage := func(format string, args ...any) error { return usagef(cmd.CommandPath(), format, args...) }
	if opts.depth < 0 {
		return usage("--depth %d: want 0 (all) or a positive depth", opts.depth)
	}
	if opts.maxSize <= 0 {
		return usage("--max-size %d: want a positive number of bytes", opts.maxSize)
	}
	kinds, err := parseKinds(opts.kinds)
	if err != nil {
		return usage("--kind: %v", err)
	}
	reg, err := languages.Default()
	if err != nil {
		return err
	}
	src, err := readSource(path, opts.maxSize)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	lang := reg.Detect(path, src)
	if opts.lang != "" {
		if lang, err = reg.Resolve(opts.lang); err != nil {
			return usage("--lang: %v", err)
		}
	}
	if lang == nil {
		return usage("%s: unknown language (not from its name, nor from a #! line); give --lang, one of: %s", path, strings.Join(reg.Names(), ", "))
	}
	ex := extract.New(reg, extract.Options{MaxFileSize: opts.maxSize})
	if opts.tree {
		tree, err := ex.SyntaxTree(cmd.Context(), src, lang)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		_, err = fmt.Fprintln(cmd.OutOrStdout(), tree)
		return err
	}
	f, err := ex.Extract(cmd.Context(), filepath.ToSlash(path), src, lang)
	if err != nil {
		return err
	}
	if f.Skipped != "" {
		return usage("%s: not extracted: %s", path, skipReason(f.Skipped, len(src), opts.maxSize))
	}
	syms := outline(f.Symbols, opts.depth, kinds)
	out := cmd.OutOrStdout()
	if opts.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if syms == nil {
			syms = []outlineEntry{}
		}
		list := make([]extract.Symbol, len(syms))
		for i, e := range syms {
			list[i] = e.Symbol
		}
		if err := enc.Encode(list); err != nil {
			return err
		}
	} else {
		printOutline(out, f, syms)
	}
	if len(syms) == 0 {
		return errNothingFound
	}
	return nil
}

// readSource reads a file for extraction, with errors that say what was wrong.
func readSource(path string, maxSize int) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such file", path)
	case err != nil:
		return nil, err
	case st.IsDir():
		return nil, fmt.Errorf("%s is a directory; give a source file (quarry index covers a whole directory)", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case st.Size() > int64(maxSize):
		return nil, fmt.Errorf("%s: not extracted: %s", path, skipReason(extract.SkipTooLarge, int(st.Size()), maxSize))
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	}
	return src, nil
}

func skipReason(reason string, size, maxSize int) string {
	switch reason {
	case extract.SkipTooLarge:
		return fmt.Sprintf("the file is %d bytes, over the %d-byte limit (raise it with --max-size)", size, maxSize)
	case extract.SkipBinary:
		return "it is a binary file (it has NUL bytes)"
	case extract.SkipUnknownLanguage:
		return "unknown language"
	case extract.SkipNoExtractor:
		return "no extractor for its language"
	}
	return reason
}

func parseKinds(names []string) (map[extract.Kind]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	kinds := map[extract.Kind]bool{}
	for _, n := range names {
		k, err := extract.ParseKind(strings.TrimSpace(n))
		if err != nil {
			msg := err.Error()
			if s := suggest.Candidates(n, extract.Kinds()); len(s) > 0 {
				msg += fmt.Sprintf("; did you mean %s?", s[0])
			}
			return nil, fmt.Errorf("%s; known kinds: %s", msg, strings.Join(extract.Kinds(), ", "))
		}
		kinds[k] = true
	}
	return kinds, nil
}

// outlineEntry is a symbol with its nesting depth (1 for top level).
type outlineEntry struct {
	extract.Symbol
	depth int
}

// outline orders symbols as a tree (each parent followed by its children, in source order)
// and keeps those within depth (0: all) and of the wanted kinds (nil: all).
func outline(syms []extract.Symbol, depth int, kinds map[extract.Kind]bool) []outlineEntry {
	ids := map[string]bool{}
	for _, s := range syms {
		ids[s.ID] = true
	}
	children := map[string][]extract.Symbol{}
	for _, s := range syms {
		parent := s.ParentID
		if !ids[parent] {
			parent = ""
		}
		children[parent] = append(children[parent], s)
	}
	var out []outlineEntry
	var visit func(parent string, d int)
	visit = func(parent string, d int) {
		if depth > 0 && d > depth {
			return
		}
		for _, s := range children[parent] {
			if kinds == nil || kinds[s.Kind] {
				out = append(out, outlineEntry{s, d})
			}
			visit(s.ID, d+1)
		}
	}
	visit("", 1)
	return out
}

func printOutline(w io.Writer, f *extract.File, syms []outlineEntry) {
	fmt.Fprintf(w, "%s (%s, %d symbols)\n", f.Path, f.Language, len(syms))
	for _, e := range syms {
		indent := strings.Repeat("  ", e.depth-1)
		fmt.Fprintf(w, "%6d  %s%s %s", e.StartLine, indent, e.Kind, e.Name)
		if e.Signature != "" && e.Signature != e.Name {
			fmt.Fprintf(w, "  —  %s", e.Signature)
		}
		fmt.Fprintln(w)
	}
	if f.ParseErrors > 0 {
		fmt.Fprintf(w, "(%d syntax errors: symbols inside them may be missing)\n", f.ParseErrors)
	}
}
