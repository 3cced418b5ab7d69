package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

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
				text, err := tools.Render(&tree)
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
