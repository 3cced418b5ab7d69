package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

// gotoFlags maps the fields of a goto request to the flags that set them.
var gotoFlags = map[string]string{"symbol": "SYMBOL", "context_file": "--context-file", "workspace": "--workspace", "limit": "--limit"}

type gotoOptions struct {
	contextFile string
	workspace   string
	json        bool
	limit       int
}

func newGotoCmd() *cobra.Command {
	var opts gotoOptions
	cmd := &cobra.Command{
		Use:   "goto SYMBOL [--context-file F]",
		Short: "Print where a symbol is defined, best first",
		Long: `Print the definitions named SYMBOL (exactly, or but for case and naming convention:
get_user_data finds getUserData), one per line as path:line:column: kind name, best first.
With --context-file, definitions in that file, then in its directory, then in its language
come first: the one a reader of that file most likely means. SYMBOL may be qualified
(http.HandlerFunc, Vec::new): the last part names the symbol.`,
		Example: `  quarry goto HandlerFunc
  quarry goto parse_config --context-file src/app/main.py`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			symbol := args[0]
			svc, err := newService(cmd)
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			res, err := svc.Goto(cmd.Context(), tools.GotoRequest{Symbol: symbol, ContextFile: opts.contextFile, Workspace: opts.workspace, Limit: &opts.limit})
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
					p := h.Path
					if h.Workspace != "" {
						p = h.Workspace + ":" + p
					}
					fmt.Fprintln(w, plainHit(p, h))
				}
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
	f.StringVarP(&opts.workspace, "workspace", "w", "", flagDoc("goto", "workspace"))
	f.BoolVar(&opts.json, "json", false, "print JSON")
	f.IntVarP(&opts.limit, "limit", "n", tools.DefaultLimit, flagDoc("goto", "limit"))
	return cmd
}
