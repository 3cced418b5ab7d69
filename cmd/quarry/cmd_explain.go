package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

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
			text, err := tools.Render(res)
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
