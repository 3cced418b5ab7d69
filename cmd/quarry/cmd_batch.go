package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/batchrun"
)

type batchOptions struct {
	format   string
	json     bool
	maxBytes int
}

// newBatchCmd returns quarry q: a batch of statements in one call (the MCP tool batch).
func newBatchCmd() *cobra.Command {
	var opts batchOptions
	cmd := &cobra.Command{
		Use:     "q [BATCH] [--format compact|json] [--max-bytes N]",
		Aliases: []string{"batch"},
		Short:   "Run several lookups in one call: a batch of statements (quarry help batch)",
		Long: `Run a batch: statements separated by ;, each operation(parameters) { fields }, from the
argument or, without one, standard input. The statements run concurrently and answer in
order: with --format compact (the default) a # header line per statement, a line of the
fields' names and one tab-separated row per result; with --format json an array, one
entry per statement, each the operation's --json answer or its error envelope.

A syntax error, an unknown operation, parameter or field, or an operator a parameter does
not accept rejects the whole batch with its line and column; a statement's own failure
(a symbol not found) is its entry's error and the others still run. quarry help batch
(this text) lists the operations, their parameters and operators below; schema() answers
the same as data.

` + batchrun.BatchHelp(),
		Example: `  quarry q 'search(q="ServeHTTP", kind=method) { name path line }; refs(symbol=HandlerFunc, kind=call, take=5) { path line }; explain(symbol=Server) { brief }'
  quarry q 'count(refs, symbol=HandlerFunc, kind=call); distinct(search, field=lang, q=Open)'
  quarry q 'search(q=parse, lang!=python, line>=100, name~="^Parse") { brief }' --format json
  echo 'schema()' | quarry q --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBatch(cmd, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.format, "format", tools.BatchCompact, "compact (rows) or json (an array, one entry per statement)")
	f.BoolVar(&opts.json, "json", false, "the same as --format json")
	f.IntVar(&opts.maxBytes, "max-bytes", 0, "the whole answer's budget in bytes: results past it are cut and marked (0: no cut)")
	return cmd
}

func runBatch(cmd *cobra.Command, opts batchOptions, args []string) error {
	if opts.json {
		if cmd.Flags().Changed("format") && opts.format != tools.BatchJSON {
			return jsonFailure(cmd, true, usagef(cmd.CommandPath(), "--json and --format %s: give one", opts.format))
		}
		opts.format = tools.BatchJSON
	}
	jsonOut := opts.format == tools.BatchJSON
	text, err := tokensInput(cmd, args)
	if err != nil {
		return jsonFailure(cmd, jsonOut, err)
	}
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, jsonOut, err)
	}
	ans, err := batchrun.Run(cmd.Context(), svc, tools.BatchRequest{Batch: text, Format: opts.format, MaxBytes: opts.maxBytes})
	if err != nil {
		return jsonFailure(cmd, jsonOut, err)
	}
	if jsonOut {
		return writeJSON(cmd.OutOrStdout(), ans)
	}
	_, err = fmt.Fprint(cmd.OutOrStdout(), strings.TrimSuffix(ans.Compact(), "\n")+"\n")
	return err
}

// newQueryHelpTopic returns the help topic quarry help query: the query language as text,
// rendered from its registry when the command tree is built.
func newQueryHelpTopic() *cobra.Command {
	text, err := tools.QueryLanguageHelp()
	if err != nil {
		text = fmt.Sprintf("The query language cannot be described: %v", err)
	}
	return &cobra.Command{
		Use:   "query",
		Short: "The query language of quarry search: fields, operators, rules, examples",
		Long:  text,
	}
}
