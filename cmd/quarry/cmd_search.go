package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/index"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/suggest"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
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

If the workspace has no index yet, it is built first.`,
		Example: `  quarry search ServeHTTP
  quarry search "connection pool" --target content --context 2
  quarry search --lang python --kind class Model
  quarry search parse --file-pattern 'src/**/*.rs,!**/tests/**' --json`,
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
	f.IntVarP(&opts.limit, "limit", "n", index.DefaultLimit, doc("limit"))
	f.IntVarP(&opts.context, "context", "C", 0, doc("context_lines"))
	f.StringVarP(&opts.workspace, "workspace", "w", "", doc("workspace"))
	f.BoolVar(&opts.json, "json", false, "print one JSON object (quarry schema search)")
	f.BoolVar(&opts.jsonl, "jsonl", false, "print one JSON object per result")
	f.BoolVar(&opts.includeTests, "include-tests", false, doc("include_tests"))
	f.BoolVar(&opts.excludeTests, "exclude-tests", false, doc("exclude_tests"))
	_ = cmd.RegisterFlagCompletionFunc("target", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"auto", "definitions", "content", "files"}, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("lang", completeLanguages)
	return cmd
}

// searchRequest turns the flags into a request, checking each; a bad one is a usage error
// carrying the contract's error (code and field).
func searchRequest(cmd *cobra.Command, opts searchOptions, query string) (index.Request, error) {
	usage := func(code tools.Code, field, format string, a ...any) error {
		return &usageError{cmd: cmd.CommandPath(), err: tools.Errorf(code, field, format, a...)}
	}
	bad := func(field, format string, a ...any) error { return usage(tools.CodeBadValue, field, format, a...) }
	req := index.Request{Query: query, Limit: opts.limit, Context: opts.context}
	if strings.TrimSpace(query) == "" {
		return req, usage(tools.CodeBadQuery, "query", "%v", index.ErrEmptyQuery)
	}
	t, err := index.ParseTarget(opts.target)
	if err != nil {
		if s := suggest.Candidates(opts.target, []string{"auto", "definitions", "content", "files"}); len(s) > 0 {
			return req, bad("target", "--target: %v; did you mean %s?", err, s[0])
		}
		return req, bad("target", "--target: %v", err)
	}
	req.Target = t
	if opts.lang != "" {
		reg, err := languages.Default()
		if err != nil {
			return req, err
		}
		l, err := reg.Resolve(opts.lang)
		if err != nil {
			return req, bad("language", "--lang: %v", err)
		}
		req.Language = l.Name
	}
	if _, err := parseKinds(opts.kinds); err != nil {
		return req, bad("kind", "--kind: %v", err)
	}
	for _, k := range opts.kinds {
		req.Kinds = append(req.Kinds, strings.TrimSpace(k))
	}
	if req.Limit < 1 || req.Limit > index.MaxLimit {
		return req, bad("limit", "--limit %d out of range: give 1 to %d", req.Limit, index.MaxLimit)
	}
	if req.Context < 0 || req.Context > index.MaxContext {
		return req, bad("context_lines", "--context %d out of range: give 0 to %d lines", req.Context, index.MaxContext)
	}
	if req.Pattern, err = index.ParseFilePattern(opts.filePattern); err != nil {
		return req, bad("file_pattern", "--file-pattern: %v", err)
	}
	if opts.includeTests && opts.excludeTests {
		return req, bad("exclude_tests", "--include-tests and --exclude-tests contradict each other; give one")
	}
	if opts.json && opts.jsonl {
		return req, bad("jsonl", "--json and --jsonl: give one")
	}
	return req, nil
}

func runSearch(cmd *cobra.Command, opts searchOptions, query string) error {
	ireq, err := searchRequest(cmd, opts, query)
	if err != nil {
		return jsonFailure(cmd, opts.json || opts.jsonl, err)
	}
	req := tools.SearchRequest{Query: query, Target: string(ireq.Target), Language: ireq.Language, Kind: ireq.Kinds,
		FilePattern: opts.filePattern, Limit: opts.limit, ContextLines: opts.context, IncludeTests: opts.includeTests,
		ExcludeTests: opts.excludeTests, Workspace: opts.workspace}
	svc, err := newService(cmd)
	if err != nil {
		return jsonFailure(cmd, opts.json || opts.jsonl, err)
	}
	res, err := svc.Search(cmd.Context(), req)
	if err != nil {
		return jsonFailure(cmd, opts.json || opts.jsonl, err)
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
		printHits(w, res, isTerminal(w))
	}
	if len(res.Results) == 0 {
		if !opts.json && !opts.jsonl {
			fmt.Fprintf(cmd.ErrOrStderr(), "nothing found for %q\n", query)
		}
		return errNothingFound
	}
	return nil
}

// newService returns the agent-contract service of the current workspace, which draws the
// progress of an index run it starts on a terminal.
func newService(cmd *cobra.Command) (*tools.Service, error) {
	root, err := primaryRoot()
	if err != nil {
		return nil, err
	}
	svc, err := tools.NewService(root)
	if err != nil {
		return nil, err
	}
	var p *progress
	svc.OnIndexStart = func(e workspace.Entry) { p = newProgress(cmd.ErrOrStderr(), "indexing "+e.Name) }
	svc.Progress = func(pr workspace.Progress) { p.update(pr) }
	svc.OnIndexEnd = func() { p.finish() }
	return svc, nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonFailure prints the contract's failure envelope of err on stdout when the output is
// JSON, and returns err as the CLI reports it: the contract's input errors (bad query or
// value, unknown workspace, path outside the workspace, ...) are usage errors, exit code 2.
func jsonFailure(cmd *cobra.Command, jsonOut bool, err error) error {
	env := tools.Fail(err)
	var ue *usageError
	isUsage := errors.As(err, &ue)
	if isUsage && env.Error.Code == tools.CodeInternal {
		env.Error.Code = tools.CodeBadValue
	}
	if jsonOut {
		_ = writeJSON(cmd.OutOrStdout(), env)
	}
	switch env.Error.Code {
	case tools.CodeInternal, tools.CodeBusy, tools.CodeTimeout:
		return err
	}
	if isUsage {
		return err
	}
	return &usageError{cmd: cmd.CommandPath(), err: err}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
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

// printHits prints results: grouped by file and coloured on a terminal, one line each
// (path:line:text, grep-like) elsewhere.
func printHits(w io.Writer, res *tools.SearchResult, tty bool) {
	if res.Relaxed {
		fmt.Fprintln(w, "(no result has every word; showing results with any of them)")
	}
	paint := func(color, s string) string {
		if !tty {
			return s
		}
		return color + s + colorReset
	}
	lastPath := ""
	for _, h := range res.Results {
		p := h.Path
		if h.Workspace != "" {
			p = h.Workspace + ":" + p
		}
		if !tty {
			fmt.Fprintln(w, plainHit(p, h))
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
		case string(index.HitDefinition):
			fmt.Fprintf(w, "%s %s %s  %s\n", paint(colorLine, fmt.Sprintf("%6d:", h.Line)), paint(colorKind, h.Kind), paint(colorName, h.Name), paint(colorDim, oneLineText(h.Signature)))
		case string(index.HitContent):
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
		case string(index.HitFile):
			fmt.Fprintf(w, "%s %s\n", paint(colorLine, fmt.Sprintf("%6s ", "")), paint(colorKind, "file"))
		}
	}
}

// plainHit formats one hit on one line.
func plainHit(p string, h tools.Hit) string {
	switch h.Hit {
	case string(index.HitDefinition):
		return fmt.Sprintf("%s:%d:%d: %s %s: %s", p, h.Line, max(h.Column, 1), h.Kind, h.Name, oneLineText(h.Signature))
	case string(index.HitContent):
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
