package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

type refsOptions struct {
	kinds     []string
	workspace string
	limit     int
	cursor    string
	json      bool
}

func newRefsCmd() *cobra.Command {
	var opts refsOptions
	cmd := &cobra.Command{
		Use:   "refs NAME [flags]",
		Short: "List the uses of a name: calls, references, type usages, member accesses, imports",
		Long: `List where NAME is used, one per line as path:line:column: kind in container: text, by path
and line. The uses come from the identifiers the index stores (names as written in code,
matched exactly). Pages of --limit; the last line gives the --cursor of the next page.`,
		Example: `  quarry refs ServeHTTP
  quarry refs get_user_data --kind call --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := newService(cmd)
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			res, err := svc.Refs(cmd.Context(), tools.RefsRequest{Symbol: args[0], Kind: opts.kinds, Workspace: opts.workspace, Limit: opts.limit, Cursor: opts.cursor})
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			w := cmd.OutOrStdout()
			if opts.json {
				if err := writeJSON(w, res); err != nil {
					return err
				}
			} else {
				for _, r := range res.Results {
					in := ""
					if r.Container != "" {
						in = " in " + r.Container
					}
					fmt.Fprintf(w, "%s:%d:%d: %s%s: %s\n", r.Path, r.Line, r.Column, r.Kind, in, r.Text)
				}
				if res.NextCursor != "" {
					fmt.Fprintf(w, "(%d of %d uses; next page: --cursor %s)\n", len(res.Results), res.Total, res.NextCursor)
				}
			}
			if res.Total == 0 {
				if !opts.json {
					fmt.Fprintf(cmd.ErrOrStderr(), "no uses of %q found\n", args[0])
				}
				return errNothingFound
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringSliceVarP(&opts.kinds, "kind", "k", nil, flagDoc("refs", "kind"))
	f.StringVarP(&opts.workspace, "workspace", "w", "", flagDoc("refs", "workspace"))
	f.IntVarP(&opts.limit, "limit", "n", 50, flagDoc("refs", "limit"))
	f.StringVar(&opts.cursor, "cursor", "", flagDoc("refs", "cursor"))
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}
