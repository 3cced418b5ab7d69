package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	qtext "github.com/quarrysearch/quarry/tools/text"
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
					fmt.Fprintf(w, "%s %s defined at %s:%d (id %s)\n", d.Kind, d.Name, qtext.Path(d.Path), d.Line, d.ID)
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
					fmt.Fprintf(w, "%s:%d:%d: %s%s%s: %s\n", qtext.Path(r.Path), r.Line, r.Column, r.Kind, in, why, r.Text)
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

type callsOptions struct {
	depth     int
	workspace string
	json      bool
}

// newCallsCmd returns the callers or the callees command (direction tools.CallsCallers or
// tools.CallsCallees): both are the calls operation.
func newCallsCmd(direction string) *cobra.Command {
	var opts callsOptions
	what, example := "who calls SYMBOL", "quarry callers helper --depth 3"
	if direction == tools.CallsCallees {
		what, example = "what SYMBOL calls", "quarry callees net/http/server.go:2285 --depth 2 --json"
	}
	cmd := &cobra.Command{
		Use:   direction + " SYMBOL [flags]",
		Short: "Show " + what + ", as a tree",
		Long: `Show ` + what + ` as a tree --depth levels deep: each node a definition with its kind
and path:line, how its calls resolve to it [scope, receiver, import, package, qualified,
global-unique] and where the calls are ("via path:line"); a definition already on the path
from the root is marked (cycle) and not expanded again. SYMBOL is a name defined once in the
workspace, a symbol id, or path:line of the definition; a name defined more than once lists
its definitions to pick from. Calls resolve as in quarry refs; a callee no rule resolves is
shown by its name, (unresolved).`,
		Example: "  " + example,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := newService(cmd)
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			res, err := svc.Calls(cmd.Context(), tools.CallsRequest{Symbol: args[0], Direction: direction, Depth: opts.depth, Workspace: opts.workspace})
			if err != nil {
				return jsonFailure(cmd, opts.json, err)
			}
			w := cmd.OutOrStdout()
			if opts.json {
				if err := writeJSON(w, res); err != nil {
					return err
				}
			} else {
				// The notes below say in flags what the tree leaves out.
				tree := *res
				tree.Truncated, tree.Unresolved = false, 0
				text, err := qtext.Render(&tree)
				if err != nil {
					return err
				}
				fmt.Fprintln(w, text)
				if res.Truncated {
					fmt.Fprintf(cmd.ErrOrStderr(), "(first %d %s shown, the most a tree holds%s)\n", res.Count, direction, cutCallsAdvice(res, args[0]))
				}
				printUnresolved(cmd.ErrOrStderr(), res.Unresolved, "call", args[0], "quarry refs "+args[0]+" --kind call --unresolved")
			}
			if res.Count == 0 {
				return errNothingFound
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVarP(&opts.depth, "depth", "d", 1, flagDoc("calls", "depth"))
	f.StringVarP(&opts.workspace, "workspace", "w", "", flagDoc("calls", "workspace"))
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

// cutCallsAdvice says what shows the rest of a call tree cut at its most nodes: fewer
// levels, and every call of symbol for callers.
func cutCallsAdvice(res *tools.CallsResult, symbol string) string {
	var ways []string
	if res.Depth > 1 {
		ways = append(ways, fmt.Sprintf("--depth %d", res.Depth-1))
	}
	if res.Direction == tools.CallsCallers {
		ways = append(ways, "quarry refs "+symbol+" --kind call")
	}
	if len(ways) == 0 {
		return ""
	}
	return "; " + strings.Join(ways, " or ") + " for the rest"
}
