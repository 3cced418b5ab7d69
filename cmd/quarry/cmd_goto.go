package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

// gotoFlags maps the fields of a goto request to the flags that set them.
var gotoFlags = map[string]string{"symbol": "SYMBOL", "context_file": "--context-file", "line": "--line", "workspace": "--workspace", "limit": "--limit"}

type gotoOptions struct {
	contextFile string
	line        int
	workspace   string
	json        bool
	limit       int
}

func newGotoCmd() *cobra.Command {
	var opts gotoOptions
	cmd := &cobra.Command{
		Use:   "goto SYMBOL [--context-file F [--line L]]",
		Short: "Print where a symbol is defined, best first",
		Long: `Print the definitions named SYMBOL (exactly, or but for case and naming convention:
get_user_data finds getUserData), one per line as path:line:column: kind name, best first:
definitions in code before document headings and config keys. Where some are named exactly
as written, the other spellings are left out, with a note on standard error. With --context-file (and --line, where in it the name is used), the
definition the file sees comes first, with the reason in brackets: scope (the file and the
symbols around the line), receiver, import, package, qualified or global-unique; the others
are [name-only], in the same order, those in the same file, then directory, then language
first. A list cut at --limit says so on standard error. SYMBOL may be qualified
(http.HandlerFunc, store.Open, Vec::new): the last part names the symbol, the rest is
resolved as the file would (an import's name, a type).`,
		Example: `  quarry goto HandlerFunc
  quarry goto parse_config --context-file src/app/main.py
  quarry goto store.Open --context-file cmd/app/main.go --line 12`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			symbol := args[0]
			svc, err := newService(cmd)
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			res, err := svc.Goto(cmd.Context(), tools.GotoRequest{Symbol: symbol, ContextFile: opts.contextFile, Line: opts.line, Workspace: opts.workspace, Limit: &opts.limit})
			if err != nil {
				return jsonFailure(cmd, opts.json, flagged(err, gotoFlags))
			}
			w := cmd.OutOrStdout()
			if opts.json {
				if err := writeJSON(w, res); err != nil {
					return err
				}
			} else {
				for _, h := range res.Results {
					p := qtext.Path(h.Path)
					if h.Workspace != "" {
						p = h.Workspace + ":" + p
					}
					if h.Resolution != "" {
						fmt.Fprintf(w, "%s [%s]\n", plainHit(p, h), h.Resolution)
					} else {
						fmt.Fprintln(w, plainHit(p, h))
					}
				}
				if res.Truncated {
					printCut(cmd.ErrOrStderr(), len(res.Results), res.Total, "definitions", moreByLimit(len(res.Results), res.Total))
				}
			}
			if res.Notice != "" && !opts.json {
				fmt.Fprintf(cmd.ErrOrStderr(), "(%s)\n", res.Notice)
			}
			if len(res.Results) == 0 {
				if !opts.json {
					fmt.Fprintf(cmd.ErrOrStderr(), "no definition of %q found\n", symbol)
				}
				return errNothingFound
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.contextFile, "context-file", "", flagDoc("goto", "context_file"))
	f.IntVar(&opts.line, "line", 0, flagDoc("goto", "line"))
	f.StringVarP(&opts.workspace, "workspace", "w", "", flagDoc("goto", "workspace"))
	f.BoolVar(&opts.json, "json", false, "print JSON")
	f.IntVarP(&opts.limit, "limit", "n", tools.DefaultLimit, flagDoc("goto", "limit"))
	return cmd
}

type explainOptions struct {
	depth     string
	workspace string
	json      bool
}

func newExplainCmd() *cobra.Command {
	var opts explainOptions
	cmd := &cobra.Command{
		Use:   "explain SYMBOL [--depth overview|context|full]",
		Short: "Everything about one definition: signature, doc, parent, children, callers, callees, type usages, implementations",
		Long: `Explain the definition SYMBOL in one answer: its kind, place, signature and doc comment,
the symbol it is in, its children (an outline), who calls it and what it calls (calls
resolved as in quarry refs; the calls no rule resolves by name), where it is used as a type,
and the types extending or implementing it (for a method: the methods overriding it).
--depth sizes it: overview (default) shows 5 of each list and the doc's first sentence,
context 25 of each, full 200 of each and the body. SYMBOL is a name defined once in the
workspace, a symbol id, or path:line of the definition.`,
		Example: `  quarry explain NewRequest
  quarry explain net/http/server.go:2285 --depth full --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := newService(cmd)
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			res, err := svc.Explain(cmd.Context(), tools.ExplainRequest{Symbol: args[0], Depth: opts.depth, Workspace: opts.workspace})
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			w := cmd.OutOrStdout()
			if opts.json {
				return writeJSON(w, res)
			}
			text, err := qtext.Render(res)
			if err != nil {
				return err
			}
			fmt.Fprintln(w, text)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.depth, "depth", "d", tools.ExplainOverview, flagDoc("explain", "depth"))
	f.StringVarP(&opts.workspace, "workspace", "w", "", flagDoc("explain", "workspace"))
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}
