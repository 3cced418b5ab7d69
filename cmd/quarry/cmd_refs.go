package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

type refsOptions struct {
	kinds      []string
	unresolved bool
	includeDef bool
	workspace  string
	limit      int
	cursor     string
	json       bool
}

func newRefsCmd() *cobra.Command {
	var opts refsOptions
	cmd := &cobra.Command{
		Use:   "refs SYMBOL [flags]",
		Short: "List the uses of a definition: calls, references, type usages, member accesses, imports",
		Long: `List where the definition SYMBOL is used, one per line as
path:line:column: kind in container [resolution]: text, by path and line. SYMBOL is a name
defined once in the workspace, a symbol id, or path:line of the definition; a name defined
more than once lists its definitions to pick from, and a name defined nowhere (a library's)
lists its uses by name.

A use counts when resolution ties it to the definition: the same scope, a receiver (self,
this, a Go method's receiver), an import, the same package, a Type.member qualifier, or the
only definition of the name. --unresolved adds the uses no rule ties to any definition;
without it, a note on standard error counts them. Pages of --limit; a note on standard
error gives the --cursor of the next page.`,
		Example: `  quarry refs ServeHTTP
  quarry refs net/http/server.go:2285
  quarry refs get_user_data --kind call --unresolved --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := newService(cmd)
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			res, err := svc.Refs(cmd.Context(), tools.RefsRequest{Symbol: args[0], Kind: opts.kinds, Unresolved: opts.unresolved, IncludeDefinition: opts.includeDef,
				Workspace: opts.workspace, Limit: opts.limit, Cursor: opts.cursor})
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			w := cmd.OutOrStdout()
			if opts.json {
				if err := writeJSON(w, res); err != nil {
					return err
				}
			} else {
				if d := res.Definition; d != nil {
					fmt.Fprintf(w, "%s %s defined at %s:%d (id %s)\n", d.Kind, d.Name, tools.TextPath(d.Path), d.Line, d.ID)
				} else if res.Notice != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), res.Notice)
				}
				for _, r := range res.Results {
					in, why := "", ""
					if r.Container != "" {
						in = " in " + r.Container
					}
					if r.Resolution != "" {
						why = " [" + r.Resolution + "]"
					} else if res.Definition != nil && r.Kind != "definition" {
						why = " [unresolved]"
					}
					fmt.Fprintf(w, "%s:%d:%d: %s%s%s: %s\n", tools.TextPath(r.Path), r.Line, r.Column, r.Kind, in, why, r.Text)
				}
				if res.NextCursor != "" {
					printCut(cmd.ErrOrStderr(), len(res.Results), res.Total, "uses", "--cursor "+res.NextCursor+" for the next page")
				}
				if !res.UnresolvedListed {
					printUnresolved(cmd.ErrOrStderr(), res.Unresolved, "use", args[0], "--unresolved")
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
	f.BoolVar(&opts.unresolved, "unresolved", false, flagDoc("refs", "unresolved"))
	f.BoolVar(&opts.includeDef, "include-definition", false, flagDoc("refs", "include_definition"))
	f.StringVarP(&opts.workspace, "workspace", "w", "", flagDoc("refs", "workspace"))
	f.IntVarP(&opts.limit, "limit", "n", 50, flagDoc("refs", "limit"))
	f.StringVar(&opts.cursor, "cursor", "", flagDoc("refs", "cursor"))
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}
