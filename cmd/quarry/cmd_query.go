package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

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
