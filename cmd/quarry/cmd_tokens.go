package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

// maxStdinText caps the text `quarry tokens` reads from standard input.
const maxStdinText = 16 << 20

type tokensOptions struct {
	lang  string
	json  bool
	query bool
}

func newTokensCmd() *cobra.Command {
	var opts tokensOptions
	cmd := &cobra.Command{
		Use:   "tokens [--lang L] [--json] [--query] TEXT...",
		Short: "Show the tokens Quarry indexes for a text",
		Long: `Show the tokens Quarry would index for TEXT (the arguments joined by spaces, or standard
input when there are none), tokenized with the rules of one language: the whole words,
their CamelCase and snake_case parts, affix-stripped variants and preserved operators.
With --query, show what a search query for TEXT requires instead: the same tokens without
the compounds whose parts are all present.

Use it to see why a search misses: a document matches a query when it holds every query
token.`,
		Example: `  quarry tokens --lang rust 'std::io::Read is_valid borrow_mut'
  quarry tokens --lang csharp IPaymentService
  quarry tokens --query getUserData
  quarry tokens --lang go --json < main.go`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTokens(cmd, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.lang, "lang", "l", "", "language whose rules apply (default: language-neutral rules)")
	f.BoolVar(&opts.json, "json", false, "print a JSON array of the tokens (text, kind, span) in emission order")
	f.BoolVar(&opts.query, "query", false, "tokenize TEXT as a search query (compounds filtered)")
	_ = cmd.RegisterFlagCompletionFunc("lang", completeLanguages)
	return cmd
}

func completeLanguages(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	c, err := tools.GetCapabilities()
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	return c.Languages, cobra.ShellCompDirectiveNoFileComp
}

func runTokens(cmd *cobra.Command, opts tokensOptions, args []string) error {
	if cmd.Flags().Changed("lang") && strings.TrimSpace(opts.lang) == "" {
		return jsonFailure(cmd, opts.json, tools.Errorf(tools.CodeBadValue, "language", "--lang: give a language name"))
	}
	text, err := tokensInput(cmd, args)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	toks, err := svc.Tokens(cmd.Context(), tools.TokensRequest{Text: text, Language: opts.lang, Query: opts.query})
	if err != nil {
		return jsonFailure(cmd, opts.json, err)
	}
	out := cmd.OutOrStdout()
	if opts.json {
		return writeJSON(out, toks)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOKEN\tKIND\tSPAN\tSOURCE")
	for _, t := range toks {
		fmt.Fprintf(tw, "%s\t%s\t%d:%d\t%q\n", t.Text, t.Kind, t.Start, t.End, text[t.Start:t.End])
	}
	return tw.Flush()
}

// tokensInput returns the arguments joined by spaces, or standard input when there are none.
func tokensInput(cmd *cobra.Command, args []string) (string, error) {
	if len(args) > 0 {
		return strings.Join(args, " "), nil
	}
	in := cmd.InOrStdin()
	if f, ok := in.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return "", usagef(cmd.CommandPath(), "no TEXT: give it as arguments or on standard input")
		}
	}
	data, err := io.ReadAll(io.LimitReader(in, maxStdinText+1))
	if err != nil {
		return "", fmt.Errorf("tokens: read standard input: %w", err)
	}
	if len(data) > maxStdinText {
		return "", usagef(cmd.CommandPath(), "standard input is over %d MiB; tokenize a smaller text", maxStdinText>>20)
	}
	return string(data), nil
}
