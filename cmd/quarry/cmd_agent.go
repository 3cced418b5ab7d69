package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/quarrysearch/quarry/tools"
)

// The commands an agent reads the contract with: schema, describe, capabilities and
// agent-version. All print JSON.

func newSchemaCmd() *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "schema [COMMAND | NAME] [--all]",
		Short: "Print the JSON Schemas (Draft 2020-12) of the agent contract",
		Long: `Print the JSON Schemas of a command's request and result (quarry schema search), of one
schema by name (quarry schema search.result, quarry schema error), or all of them (--all).
They are generated from the contract's Go types.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			schemas, err := tools.Schemas()
			if err != nil {
				return err
			}
			switch {
			case all && len(args) == 0:
				return writeJSON(cmd.OutOrStdout(), schemas)
			case len(args) == 0 || all:
				return usagef(cmd.CommandPath(), "give a COMMAND (%s), a schema name, or --all alone", commandList())
			}
			if s, ok := schemas[args[0]]; ok {
				return writeJSON(cmd.OutOrStdout(), s)
			}
			op, err := tools.OperationNamed(args[0])
			if err != nil {
				names, _ := tools.SchemaNames()
				return usagef(cmd.CommandPath(), "%v%s", err, didYouMean(args[0], append(tools.OperationNames(), names...)))
			}
			return writeJSON(cmd.OutOrStdout(), map[string]any{"request": schemas[op.Name+".request"], "result": schemas[op.Name+".result"], "error": schemas["error"]})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "print every schema, by name")
	return cmd
}

func newDescribeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "describe COMMAND | query",
		Short: "Describe a command of the agent contract (summary, flags, schemas), or the query language",
		Long: `Describe a command of the agent contract: its summary, flags and the JSON Schemas of its
request and result (quarry describe search). quarry describe query prints the query
language instead: its fields, operators, rules and examples (the text of quarry help query,
as JSON).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			op, err := tools.OperationNamed(args[0])
			if err != nil {
				return usagef(cmd.CommandPath(), "%v%s", err, didYouMean(args[0], tools.OperationNames()))
			}
			if op.Name == tools.QueryOperation {
				l, err := tools.QueryLanguage()
				if err != nil {
					return err
				}
				return writeJSON(cmd.OutOrStdout(), l)
			}
			d := tools.Description{Name: op.Name, Tool: op.Tool, Summary: op.Summary, AgentVersion: tools.AgentVersion, Flags: []tools.FlagInfo{}}
			if c, _, err := cmd.Root().Find([]string{op.Name}); err == nil && c != cmd.Root() {
				c.Flags().VisitAll(func(f *pflag.Flag) {
					if !f.Hidden {
						d.Flags = append(d.Flags, tools.FlagInfo{Name: "--" + f.Name, Type: f.Value.Type(), Default: f.DefValue, Usage: f.Usage})
					}
				})
			}
			for _, part := range []struct {
				dst  *map[string]any
				name string
			}{{&d.Request, op.Name + ".request"}, {&d.Result, op.Name + ".result"}, {&d.Error, "error"}} {
				if *part.dst, err = tools.SchemaMap(part.name); err != nil {
					return err
				}
			}
			return writeJSON(cmd.OutOrStdout(), d)
		},
	}
}

func newCapabilitiesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "capabilities",
		Short: "Print what this Quarry can do (languages, targets, kinds, limits, error codes) as JSON",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := tools.GetCapabilities()
			if err != nil {
				return err
			}
			return writeJSON(cmd.OutOrStdout(), c)
		},
	}
}

func newAgentVersionCmd() *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "agent-version",
		Short: "Print the version of the agent contract (not the release version)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if jsonOut {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(tools.AgentVersionResult{AgentVersion: tools.AgentVersion})
			}
			fmt.Fprintln(cmd.OutOrStdout(), tools.AgentVersion)
			return nil
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return cmd
}

func commandList() string {
	s := ""
	for i, n := range tools.OperationNames() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// didYouMean returns "; did you mean X?" for the closest of known, or "".
func didYouMean(typed string, known []string) string {
	if s := tools.Suggest(typed, known); len(s) > 0 {
		return fmt.Sprintf("; did you mean %s?", s[0])
	}
	return ""
}
