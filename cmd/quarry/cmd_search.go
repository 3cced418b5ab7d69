package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	qtext "github.com/quarrysearch/quarry/tools/text"
)

type searchOptions struct {
	target       string
	lang         string
	kinds        []string
	filePattern  string
	limit        int
	context      int
	workspace    string
	json         bool
	jsonl        bool
	includeTests bool
	excludeTests bool
	debugQuery   bool
	cursor       string
	timeoutMS    int
	parseOnly    bool
	intent       string
	explain      bool
}

func newSearchCmd() *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search QUERY [flags]",
		Short: "Search definitions, content and files of the workspace",
		Long: `Search the workspace's index. The default target, auto, ranks definitions, matching lines
and files together: a name finds its definition first, a phrase its lines, a file name the
file. QUERY is words (all must match; when none matches all of several words, any may, and
the result says so) and "quoted phrases" (must occur as written).

Tests, fixtures and vendored code rank below source unless --include-tests is given or the
query is about tests (test, spec, TestX); --exclude-tests leaves tests out.

If the workspace has no index yet, it is built first.

` + tools.QueryDocumentHelp(),
		Example: `  quarry search ServeHTTP
  quarry search "connection pool" --target content --context 2
  quarry search --lang python --kind class Model
  quarry search parse --file-pattern 'src/**/*.rs,!**/tests/**' --json
  quarry search $'lex: retry upload\nvec: where do we retry failed uploads'
  quarry search 'expand: parse the byte range header' --intent 'HTTP range requests'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd, opts, strings.Join(args, " "))
		},
	}
	// Flag help is the contract's field documentation: the MCP tool says the same.
	doc := func(field string) string { return flagDoc("search", field) }
	f := cmd.Flags()
	f.StringVarP(&opts.target, "target", "t", "auto", doc("target"))
	f.StringVarP(&opts.lang, "lang", "l", "", doc("language"))
	f.StringSliceVarP(&opts.kinds, "kind", "k", nil, doc("kind"))
	f.StringVarP(&opts.filePattern, "file-pattern", "g", "", doc("file_pattern"))
	f.IntVarP(&opts.limit, "limit", "n", tools.DefaultLimit, doc("limit"))
	f.IntVarP(&opts.context, "context", "C", 0, doc("context_lines"))
	f.StringVarP(&opts.workspace, "workspace", "w", "", doc("workspace"))
	f.BoolVar(&opts.json, "json", false, "print one JSON object (quarry schema search)")
	f.BoolVar(&opts.jsonl, "jsonl", false, "print one JSON object per result")
	f.BoolVar(&opts.includeTests, "include-tests", false, doc("include_tests"))
	f.BoolVar(&opts.excludeTests, "exclude-tests", false, doc("exclude_tests"))
	f.StringVar(&opts.cursor, "cursor", "", doc("cursor"))
	f.IntVar(&opts.timeoutMS, "timeout-ms", 0, doc("timeout_ms"))
	f.StringVar(&opts.intent, "intent", "", doc("intent"))
	f.BoolVar(&opts.explain, "explain", false, doc("explain"))
	f.BoolVar(&opts.parseOnly, "parse-only", false, "check and print the parsed query (canonical form, target, fields) without searching")
	f.BoolVar(&opts.debugQuery, "debug-query", false, "print the parsed query and the compiled full-text queries on standard error")
	_ = f.MarkHidden("debug-query")
	_ = cmd.RegisterFlagCompletionFunc("target", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return tools.Targets(), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("lang", completeLanguages)
	return cmd
}

// searchFlags maps the fields of a search request to the flags that set them, for messages
// about a field to name the flag.
var searchFlags = map[string]string{"query": "QUERY", "target": "--target", "language": "--lang", "kind": "--kind",
	"file_pattern": "--file-pattern", "limit": "--limit", "context_lines": "--context", "workspace": "--workspace",
	"include_tests": "--include-tests", "exclude_tests": "--exclude-tests", "cursor": "--cursor", "timeout_ms": "--timeout-ms", "intent": "--intent", "explain": "--explain"}

func runSearch(cmd *cobra.Command, opts searchOptions, query string) error {
	jsonOut := opts.json || opts.jsonl
	if opts.json && opts.jsonl {
		return jsonFailure(cmd, jsonOut, usagef(cmd.CommandPath(), "--json and --jsonl: give one"))
	}
	req := tools.SearchRequest{Query: query, Target: opts.target, Language: opts.lang, Kind: opts.kinds,
		FilePattern: opts.filePattern, Limit: &opts.limit, ContextLines: opts.context, IncludeTests: opts.includeTests,
		ExcludeTests: opts.excludeTests, Workspace: opts.workspace, Cursor: opts.cursor, TimeoutMS: opts.timeoutMS, Intent: opts.intent, Explain: opts.explain}
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, jsonOut, err)
	}
	if opts.parseOnly {
		p, err := svc.ParseQuery(req)
		if err != nil {
			return jsonFailure(cmd, jsonOut, flagged(err, searchFlags))
		}
		if jsonOut {
			return writeJSON(cmd.OutOrStdout(), p)
		}
		printParsed(cmd.OutOrStdout(), p)
		return nil
	}
	if opts.debugQuery {
		if err := printPlans(cmd, svc, req); err != nil {
			return jsonFailure(cmd, jsonOut, flagged(err, searchFlags))
		}
	}
	res, err := svc.Search(cmd.Context(), req)
	if err == nil && !jsonOut {
		for _, e := range res.Errors {
			fmt.Fprintf(cmd.ErrOrStderr(), "quarry: %s (%s)\n", e.Message, e.Code)
		}
	}
	if err != nil {
		return jsonFailure(cmd, jsonOut, flagged(err, searchFlags))
	}
	w := cmd.OutOrStdout()
	switch {
	case opts.json:
		if err := writeJSON(w, res); err != nil {
			return err
		}
	case opts.jsonl:
		enc := json.NewEncoder(w)
		for _, h := range res.Results {
			if err := enc.Encode(h); err != nil {
				return err
			}
		}
	default:
		printHits(w, cmd.ErrOrStderr(), res, isTerminal(w))
		switch {
		case res.NextCursor != "":
			fmt.Fprintf(cmd.ErrOrStderr(), "(%d results on this page; --cursor %s for the next page)\n", len(res.Results), res.NextCursor)
		case res.TruncatedReason == tools.TruncatedLimit:
			printCut(cmd.ErrOrStderr(), len(res.Results), 0, "results", moreByLimit(len(res.Results), 0))
		case res.TruncatedReason == tools.TruncatedTimeout:
			fmt.Fprintf(cmd.ErrOrStderr(), "(the search ran out of time after %d results; --timeout-ms gives it more)\n", len(res.Results))
		}
		if files := staleFiles(res.Results); len(files) > 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "(changed since indexed, lines may have moved: %s; quarry index refreshes them)\n", strings.Join(files, ", "))
		}
	}
	if len(res.Results) == 0 {
		if !jsonOut && res.TruncatedReason != tools.TruncatedTimeout {
			fmt.Fprintf(cmd.ErrOrStderr(), "nothing found for %q\n", query)
			if res.Notice != "" { // why nothing was found, perhaps
				fmt.Fprintf(cmd.ErrOrStderr(), "(%s)\n", res.Notice)
			}
		}
		return errNothingFound
	}
	return nil
}

// printParsed prints a parsed query: its canonical form, how it runs, and its terms.
func printParsed(w io.Writer, p *tools.ParsedQuery) {
	fmt.Fprintf(w, "query:     %s\n", p.Canonical)
	fmt.Fprintf(w, "syntax:    %s\n", p.Syntax)
	fmt.Fprintf(w, "target:    %s\n", p.Target)
	if len(p.Targets) > 0 {
		fmt.Fprintf(w, "searches:  %s\n", strings.Join(p.Targets, ", "))
	}
	if p.Case != "" {
		fmt.Fprintf(w, "case:      %s\n", p.Case)
	}
	for _, t := range p.Terms {
		neg := ""
		if t.Negated {
			neg = "NOT "
		}
		fmt.Fprintf(w, "  %-9s %-8s %s%s\n", t.Field, t.Kind, neg, t.Text)
	}
	for _, st := range p.Plan {
		how := "exact"
		if st.Verified {
			how = "candidates verified against the stored text"
		}
		fmt.Fprintf(w, "plan %s (%s):\n  %s\n", st.Target, how, st.Fulltext)
	}
}

// printPlans prints, on standard error, how req is searched in each workspace: the parsed
// query and the compiled full-text queries (--debug-query).
func printPlans(cmd *cobra.Command, svc *tools.Service, req tools.SearchRequest) error {
	plans, err := svc.ExplainSearch(cmd.Context(), req)
	if err != nil {
		return err
	}
	w := cmd.ErrOrStderr()
	for _, p := range plans {
		fmt.Fprintf(w, "workspace %s\n  query: %s\n  terms: %s\n", p.Workspace, p.Query, strings.Join(p.Terms, ", "))
		for _, st := range p.Steps {
			if st.Fulltext == "" {
				fmt.Fprintf(w, "  %s: paths matching the query\n", st.Target)
				continue
			}
			fmt.Fprintf(w, "  %s: tokens %s\n    %s\n", st.Target, strings.Join(st.Tokens, " "), st.Fulltext)
		}
	}
	return nil
}

// flagged returns err told in the words of the command line: the message names the flag
// that set the field it is about ("limit 0 out of range" becomes "--limit 0 out of range",
// "unknown language ..." becomes "--lang: unknown language ...").
func flagged(err error, flags map[string]string) error {
	e := tools.AsError(err)
	flag, ok := flags[e.Path]
	if !ok || !strings.HasPrefix(flag, "--") {
		return err
	}
	if rest, found := strings.CutPrefix(e.Message, e.Path+" "); found {
		return tools.Wrap(e, flag+" "+rest)
	}
	return tools.Wrap(e, flag+": "+e.Message)
}

// ANSI colours of terminal output.
const (
	colorPath  = "\x1b[35m"
	colorLine  = "\x1b[32m"
	colorKind  = "\x1b[36m"
	colorName  = "\x1b[1m"
	colorDim   = "\x1b[2m"
	colorReset = "\x1b[0m"
)

// printHits prints results to w: grouped by file and coloured on a terminal, one line each
// (path:line:text, grep-like) elsewhere. Notices about them go to errw, so that w holds only
// results.
func printHits(w, errw io.Writer, res *tools.SearchResult, tty bool) {
	if res.Notice != "" && len(res.Results) > 0 { // without results, "nothing found" says it
		fmt.Fprintf(errw, "(%s)\n", res.Notice)
	}
	if res.Relaxed {
		fmt.Fprintln(errw, "(no result has every word; showing results with any of them)")
	}
	paint := func(color, s string) string {
		if !tty {
			return s
		}
		return color + s + colorReset
	}
	lastPath := ""
	for _, h := range res.Results {
		p := qtext.Path(h.Path)
		if h.Workspace != "" {
			p = h.Workspace + ":" + p
		}
		if !tty {
			fmt.Fprintln(w, plainHit(p, h))
			printExplain(w, h.Explain)
			continue
		}
		if p != lastPath {
			if lastPath != "" {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, paint(colorPath, p))
			lastPath = p
		}
		switch h.Hit {
		case tools.HitDefinition:
			fmt.Fprintf(w, "%s %s %s  %s\n", paint(colorLine, fmt.Sprintf("%6d:", h.Line)), paint(colorKind, h.Kind), paint(colorName, h.Name), paint(colorDim, oneLineText(h.Signature)))
		case tools.HitContent:
			for _, c := range h.Context {
				if c.Line < h.Line {
					fmt.Fprintf(w, "%s %s\n", paint(colorDim, fmt.Sprintf("%6d-", c.Line)), c.Text)
				}
			}
			fmt.Fprintf(w, "%s %s\n", paint(colorLine, fmt.Sprintf("%6d:", h.Line)), h.Text)
			for _, c := range h.Context {
				if c.Line > h.Line {
					fmt.Fprintf(w, "%s %s\n", paint(colorDim, fmt.Sprintf("%6d-", c.Line)), c.Text)
				}
			}
		case tools.HitFile:
			fmt.Fprintf(w, "%s %s\n", paint(colorLine, fmt.Sprintf("%6s ", "")), paint(colorKind, "file"))
		}
		printExplain(w, h.Explain)
	}
}

// plainHit formats one hit on one line.
func plainHit(p string, h tools.Hit) string {
	switch h.Hit {
	case tools.HitDefinition:
		return fmt.Sprintf("%s:%d:%d: %s %s: %s", p, h.Line, max(h.Column, 1), h.Kind, h.Name, oneLineText(h.Signature))
	case tools.HitContent:
		return fmt.Sprintf("%s:%d:%s", p, h.Line, h.Text)
	}
	return p
}

// oneLineText folds whitespace runs (newlines too) into single spaces.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// defaultNote matches a default stated in a field's documentation, which cobra's flag help
// states again.
var defaultNote = regexp.MustCompile(` \(default [^):]*\)|; default [^;]*$`)

// flagDoc is the contract's documentation of a request field as flag help.
func flagDoc(op, field string) string {
	return defaultNote.ReplaceAllString(tools.FieldDoc(op, field), "")
}

// staleFiles returns the files of stale hits, in order, once each.
func staleFiles(hits []tools.Hit) []string {
	var out []string
	for _, h := range hits {
		if p := qtext.Path(h.Path); h.Stale && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// printExplain prints why a hit ranks where it does (--explain), indented under it.
func printExplain(w io.Writer, e *tools.Explanation) {
	if e == nil {
		return
	}
	parts := func(ps []tools.ScorePart) string {
		var out []string
		for i, p := range ps {
			op := p.Op + " "
			if p.Op == "=" {
				op = "then "
				if i == 0 {
					op = ""
				}
			}
			out = append(out, fmt.Sprintf("%s%s %.4g", op, p.Name, p.Value))
		}
		return strings.Join(out, " ")
	}
	fmt.Fprintf(w, "    score %.4g: %s\n", e.Score, parts(e.Parts))
	for _, l := range e.Lines {
		fmt.Fprintf(w, "    %s: rank %d, +%.4f", l.Line, l.Rank, l.Contribution)
		if len(l.Parts) > 0 {
			fmt.Fprintf(w, " (there: %s)", parts(l.Parts))
		}
		fmt.Fprintln(w)
	}
}

// A list cut short says so on standard error, in one form for every command, so that
// standard output keeps one result a line: what was shown of how many (when the count is
// known), and the flag that shows the rest.
//
//	(10 of 22 definitions shown; --limit 22 for all)
//	(first 10 results shown; --limit 20 for more)
//	(50 of 120 uses shown; --cursor 50 for the next page)
//	(10 results on this page; --cursor eyJv... for the next page)
//	(34 more uses of Next left unresolved; --unresolved lists them)

// printCut tells w that shown of total results (total <= shown: unknown, more exist) named
// noun were listed, and how to see the rest (more).
func printCut(w io.Writer, shown, total int, noun, more string) {
	if total > shown {
		fmt.Fprintf(w, "(%d of %d %s shown; %s)\n", shown, total, noun, more)
		return
	}
	fmt.Fprintf(w, "(first %d %s shown; %s)\n", shown, noun, more)
}

// moreByLimit is the --limit advice for a list cut at shown of total results (total <=
// shown: unknown).
func moreByLimit(shown, total int) string {
	switch {
	case total > shown && total <= tools.MaxLimit:
		return fmt.Sprintf("--limit %d for all", total)
	case total > shown || 2*shown > tools.MaxLimit:
		return fmt.Sprintf("--limit %d for more", tools.MaxLimit)
	}
	return fmt.Sprintf("--limit %d for more", 2*shown)
}

// printUnresolved tells w that n uses (noun: "use" or "call") of symbol were left out
// because no rule ties them to a definition, and what lists them.
func printUnresolved(w io.Writer, n int, noun, symbol, lists string) {
	if n <= 0 {
		return
	}
	if n != 1 {
		noun += "s"
	}
	fmt.Fprintf(w, "(%d more %s of %s left unresolved; %s lists them)\n", n, noun, symbol, lists)
}
