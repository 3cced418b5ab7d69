package tools

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/suggest"
	"github.com/quarrysearch/quarry/workspace"
)

// refOf is the contract's form of a use.
func refOf(r nav.Ref, resolution string) Ref {
	return Ref{Path: r.Path, Line: r.Line, Column: r.Column, Kind: r.Kind, Resolution: resolution,
		Container: r.Container, ContainerKind: r.ContainerKind, Text: r.Text}
}

// Refs limits.
const (
	DefaultRefsLimit = 50
	MaxRefsLimit     = 1000
)

// RefsRequest asks for the uses of a symbol.
type RefsRequest struct {
	Symbol            string   `json:"symbol" jsonschema:"the definition: its name, qualified as code writes it (http.Server, Server.ServeHTTP), its symbol id, or path:line; a name defined nowhere lists its uses by name"`
	Kind              []string `json:"kind,omitempty" jsonschema:"only these kinds of use: call, variable_ref, type_usage, member_access, import"`
	Unresolved        bool     `json:"unresolved,omitempty" jsonschema:"also list the uses of the name that resolution could not tie to any definition (after the resolved ones)"`
	IncludeDefinition bool     `json:"include_definition,omitempty" jsonschema:"list the definition itself first (kind definition)"`
	Workspace         string   `json:"workspace,omitempty" jsonschema:"a workspace id, or all (each workspace's uses of its own definition); default the primary workspace"`
	Limit             int      `json:"limit,omitempty" jsonschema:"at most this many uses per page, 1 to 1000 (default 50)"`
	Cursor            string   `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
}

// Ref is one use of a name.
type Ref struct {
	Path          string `json:"path" jsonschema:"workspace-relative, POSIX"`
	Line          int    `json:"line"`
	Column        int    `json:"column"`
	Kind          string `json:"kind" jsonschema:"call, variable_ref, type_usage, member_access or import; definition for the definition itself (include_definition)"`
	Resolution    string `json:"resolution,omitempty" jsonschema:"why this use means the definition: scope, receiver, import, package, qualified or global-unique; empty for a use matched by name only"`
	Container     string `json:"container,omitempty" jsonschema:"the name of the symbol the use is in"`
	ContainerKind string `json:"container_kind,omitempty"`
	Text          string `json:"text" jsonschema:"the line, trimmed"`
	Workspace     string `json:"workspace,omitempty" jsonschema:"the workspace the use is in (workspace all)"`
}

// RefsResult lists the uses of a symbol: the resolved ones by path and line, then (with
// unresolved) the uses matched by name only.
type RefsResult struct {
	Symbol             string      `json:"symbol"`
	Definition         *Definition `json:"definition,omitempty" jsonschema:"the definition whose uses are listed; absent when the name is defined nowhere in the workspace and its uses are matched by name"`
	Notice             string      `json:"notice,omitempty"`
	Results            []Ref       `json:"results"`
	Total              int         `json:"total" jsonschema:"uses in all, before paging"`
	Unresolved         int         `json:"unresolved" jsonschema:"uses of the name no rule ties to any definition: listed after the resolved ones with unresolved (unresolved_listed), else only counted here"`
	UnresolvedListed   bool        `json:"unresolved_listed,omitempty" jsonschema:"the request asked for the unresolved uses: results list them after the resolved ones"`
	Truncated          bool        `json:"truncated"`
	TruncatedReason    string      `json:"truncated_reason,omitempty"`
	NextCursor         string      `json:"next_cursor,omitempty"`
	TotalFilesSearched int         `json:"total_files_searched"`
	ElapsedMS          float64     `json:"elapsed_ms"`
	Errors             []ErrorInfo `json:"errors"`
}

// Definition is the definition a navigation request is about.
type Definition struct {
	ID        string `json:"id" jsonschema:"the symbol id (give it as symbol to pick this definition)"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Signature string `json:"signature,omitempty"`
}

func definitionOf(d *nav.Def) *Definition {
	return &Definition{ID: d.ID, Name: d.Name, Kind: d.Kind, Path: d.Path, Line: d.Line, Signature: d.Signature}
}

// maxCandidatesListed is how many definitions an ambiguous symbol's error lists.
const maxCandidatesListed = 20

// pickDefinition finds the definition symbol names in x: a symbol id, path:line, or a name
// defined once. A name defined nowhere gives nil (no error); a name defined more than once
// is an error listing the candidates and how to pick one.
func pickDefinition(ctx context.Context, x *workspace.SearchIndex, symbol string) (*nav.Def, error) {
	if d, err := x.Definition(ctx, symbol); err != nil || d != nil {
		return d, err
	}
	if i := strings.LastIndexByte(symbol, ':'); i > 0 {
		if line, err := strconv.Atoi(symbol[i+1:]); err == nil {
			p := strings.TrimPrefix(symbol[:i], "./")
			d, err := x.DefinitionAt(ctx, p, line)
			if err != nil {
				return nil, AsError(err)
			}
			if d == nil {
				return nil, Errorf(CodeNotFound, "symbol", "no definition at %s:%d: give path:line of a line inside a definition (quarry symbols %s lists them)", p, line, p)
			}
			return d, nil
		}
		// file.py:abc is a path with something other than a line after it, not a name
		if before := symbol[:i]; !strings.Contains(symbol, "::") && (strings.Contains(before, "/") || path.Ext(before) != "") {
			return nil, Errorf(CodeBadValue, "symbol", "%q: after the path %s give a line number (%s:LINE), or give a name or a definition's id", symbol, before, before)
		}
	}
	defs, err := x.Definitions(ctx, symbol)
	if err != nil {
		return nil, AsError(err)
	}
	if len(defs) == 0 {
		if defs, err = qualifiedDefinitions(ctx, x, symbol); err != nil || len(defs) == 0 {
			return nil, err
		}
	}
	if d := nav.OneDefinition(defs); d != nil {
		return d, nil
	}
	// A package declaration (Go's package main in every file of it) gives way to the one
	// other definition of the name.
	var code []nav.Def
	for _, d := range defs {
		if d.Kind != "module" && d.Kind != "namespace" {
			code = append(code, d)
		}
	}
	if len(code) > 0 && len(code) < len(defs) {
		if d := nav.OneDefinition(code); d != nil {
			return d, nil
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is defined %d times; pick one by its id or path:line:", symbol, len(defs))
	for i, d := range defs {
		if i == maxCandidatesListed {
			fmt.Fprintf(&b, "\n  ... and %d more", len(defs)-i)
			break
		}
		fmt.Fprintf(&b, "\n  %s:%d  %s %s  (id %s)", d.Path, d.Line, d.Kind, d.Name, d.ID)
	}
	return nil, Errorf(CodeBadValue, "symbol", "%s", b.String())
}

// qualifiedDefinitions returns the definitions a qualified name means (http.Server,
// Vec::new, models.User, a::b::C): those of its last part whose enclosing definition, file
// (without its extension) or directory is named by the qualifier's last part. None for a
// name without a qualifier.
func qualifiedDefinitions(ctx context.Context, x *workspace.SearchIndex, symbol string) ([]nav.Def, error) {
	name, qual, colons := "", "", false
	for _, sep := range []string{"::", "."} {
		if i := strings.LastIndex(symbol, sep); i > 0 && i+len(sep) < len(symbol) {
			name, qual, colons = symbol[i+len(sep):], symbol[:i], sep == "::"
			break
		}
	}
	if name == "" {
		return nil, nil
	}
	parts := strings.FieldsFunc(qual, func(r rune) bool { return r == ':' || r == '.' || r == '/' })
	if len(parts) == 0 {
		return nil, nil
	}
	qual = parts[len(parts)-1] // the qualifier's last part: b of a::b, http of net/http
	defs, err := x.Definitions(ctx, name)
	if err != nil {
		return nil, AsError(err)
	}
	var out []nav.Def
	for _, d := range defs {
		if colons != qualifiesWithColons[d.Language] {
			continue // a::b names Rust, C++, PHP or Ruby; a.b the others
		}
		var parent *nav.Def
		if d.ParentID != "" {
			if parent, err = x.Definition(ctx, d.ParentID); err != nil {
				return nil, AsError(err)
			}
		}
		// A package or module qualifies its top-level definitions (os.Open, not the method
		// Root.Open of package os); an enclosing definition its members.
		topLevel := parent == nil || parent.Kind == "module" || parent.Kind == "namespace"
		dir, file := path.Split(d.Path)
		match := parent != nil && parent.Name == qual ||
			topLevel && (fileModules[d.Language] && strings.TrimSuffix(file, path.Ext(file)) == qual ||
				dirPackages[d.Language] && path.Base(strings.TrimSuffix(dir, "/")) == qual)
		if match {
			out = append(out, d)
		}
	}
	if len(out) < 2 {
		return out, nil
	}
	// Several: those whose path holds most of the qualifier's parts (tokio::sync::Mutex is
	// the one under sync/, not a mock's module named sync).
	score := func(d nav.Def) int {
		segs := strings.Split(strings.TrimSuffix(d.Path, path.Ext(d.Path)), "/")
		n := 0
		for _, p := range parts {
			if slices.Contains(segs, p) {
				n++
			}
		}
		return n
	}
	best := 0
	for _, d := range out {
		best = max(best, score(d))
	}
	return slices.DeleteFunc(out, func(d nav.Def) bool { return score(d) < best }), nil
}

// How languages qualify names: with :: (else .), by file (a module per file), by directory
// (a package per directory); every language by the enclosing definition.
var (
	qualifiesWithColons = map[string]bool{"rust": true, "cpp": true, "php": true, "ruby": true}
	fileModules         = map[string]bool{"python": true, "rust": true, "typescript": true, "tsx": true, "javascript": true, "lua": true, "ruby": true}
	dirPackages         = map[string]bool{"go": true, "rust": true}
)

// navTarget opens the one workspace a navigation request (op: refs, calls, explain) covers
// and finds the definition symbol names there (nil: a name defined nowhere). The caller
// releases the indexes.
func (s *Service) navTarget(ctx context.Context, op, ws, symbol string) ([]*workspace.SearchIndex, *nav.Def, error) {
	if ws == "all" {
		return nil, nil, Errorf(CodeBadValue, "workspace", "%s covers one workspace at a time: give its id, or none for the primary", op)
	}
	xs, err := s.OpenIndexes(ctx, ws)
	if err != nil {
		return nil, nil, err
	}
	if len(xs) > 1 { // a compound shard's service, asked without a workspace
		s.Release(xs)
		return nil, nil, Errorf(CodeBadValue, "workspace", "%s covers one workspace at a time: give its id", op)
	}
	def, err := pickDefinition(ctx, xs[0], symbol)
	if err != nil {
		s.Release(xs)
		return nil, nil, err
	}
	return xs, def, nil
}

// maxNearest is how many similar definitions an unknown symbol's error suggests.
const maxNearest = 5

// notDefined is the error of a symbol that names no definition: it lists the nearest
// definitions a definitions search finds for it (names alike, parts of it), with path:line.
func notDefined(ctx context.Context, x *workspace.SearchIndex, name string) error {
	var near []string
	seen := map[string]bool{}
	add := func(n, kind, p string, line int) {
		if !seen[n] && len(near) < maxNearest {
			seen[n] = true
			near = append(near, fmt.Sprintf("%s (%s %s:%d)", n, kind, p, line))
		}
	}
	// Names spelled alike (within two edits, or extending it), among those sharing its
	// first two letters; then what a definitions search finds for its parts.
	if r := []rune(strings.ToLower(name)); len(r) >= 2 {
		if known, err := x.NamesWithPrefix(ctx, string(r[:2]), 5000); err == nil {
			for _, n := range suggest.Candidates(name, known) {
				if defs, err := x.Definitions(ctx, n); err == nil && len(defs) > 0 {
					add(n, defs[0].Kind, defs[0].Path, defs[0].Line)
				}
			}
		}
	}
	if q, err := query.Parse(name); err == nil {
		res, err := workspace.Search(ctx, []*workspace.SearchIndex{x}, search.Request{Query: q, Target: search.TargetDefinitions, Limit: maxNearest})
		if err == nil {
			for _, h := range res.Hits {
				add(h.Name, h.Kind, h.Path, h.Line)
			}
		}
	}
	msg := fmt.Sprintf("no definition named %s in the workspace: give the name of a definition, its symbol id or path:line", name)
	if len(near) > 0 {
		msg += "; the nearest: " + strings.Join(near, ", ")
	}
	return Errorf(CodeNotFound, "symbol", "%s", msg)
}

// unresolvedUses returns how many uses of def's name (of kinds, none: all) no rule ties to
// any definition: those refs lists with unresolved only.
func unresolvedUses(ctx context.Context, x *workspace.SearchIndex, def nav.Def, kinds []string) (int, error) {
	_, resolved, err := x.SymbolRefs(ctx, def, nav.RefsQuery{Kinds: kinds, NoText: true})
	if err != nil {
		return 0, AsError(err)
	}
	_, all, err := x.SymbolRefs(ctx, def, nav.RefsQuery{Kinds: kinds, Unresolved: true, NoText: true})
	if err != nil {
		return 0, AsError(err)
	}
	return all - resolved, nil
}

// maxTextLines bounds the lines a content search reads for unlistedText.
const maxTextLines = 1000

// unlistedText counts the lines of the workspaces holding name as a word (case as written)
// that hold no use of it by name: the name in comments and strings, in files whose language
// records no uses. more reports that the count stopped at maxTextLines.
func unlistedText(ctx context.Context, xs []*workspace.SearchIndex, name string) (n int, more bool) {
	q, err := query.Parse(name)
	if err != nil {
		return 0, false
	}
	for _, x := range xs {
		used := map[string]bool{}
		refs, _, err := x.Refs(ctx, name, nil, 0, maxTextLines)
		if err != nil {
			return 0, false
		}
		for _, r := range refs {
			used[r.Path+":"+strconv.Itoa(r.Line)] = true
		}
		res, err := workspace.Search(ctx, []*workspace.SearchIndex{x}, search.Request{Query: q, Target: search.TargetContent, Limit: maxTextLines, Tests: search.TestsInclude})
		if err != nil {
			return 0, false
		}
		more = more || res.Truncated
		for _, h := range res.Hits {
			if h.Hit == search.HitContent && containsWord(h.Text, name) && !used[h.Path+":"+strconv.Itoa(h.Line)] {
				n++
			}
		}
	}
	return n, more
}

// containsWord reports whether text holds word with no letter, digit, _ or $ on either side.
func containsWord(text, word string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], word)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(word)
		if (at == 0 || !isWordByte(text[at-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		i = at + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// workspaceRefs returns the first n uses in x of def (nil: the workspace does not define
// the symbol), with the definition first when the request includes it, and how many there
// are in all. A workspace without a definition gives its uses by name when no workspace
// defines the symbol (byName), or with unresolved.
func workspaceRefs(ctx context.Context, x *workspace.SearchIndex, def *nav.Def, name string, req RefsRequest, byName bool, n int) ([]Ref, int, error) {
	var out []Ref
	if def == nil {
		if !byName && !req.Unresolved {
			return nil, 0, nil
		}
		refs, total, err := x.Refs(ctx, name, req.Kind, 0, n)
		for _, r := range refs {
			out = append(out, refOf(r, ""))
		}
		return out, total, err
	}
	if req.IncludeDefinition {
		out = append(out, Ref{Path: def.Path, Line: def.Line, Column: 1, Kind: "definition", Text: def.Signature})
	}
	refs, total, err := x.SymbolRefs(ctx, *def, nav.RefsQuery{Kinds: req.Kind, Unresolved: req.Unresolved, Limit: max(n-len(out), 0)})
	for _, r := range refs {
		out = append(out, refOf(r.Ref, r.Resolution))
	}
	return out, total + len(out) - len(refs), err
}

// identKinds are the kinds of use a refs request may filter on.
var identKinds = []string{"call", "variable_ref", "type_usage", "member_access", "import"}

// Refs lists the uses of a name from the identifiers the index stores.
func (s *Service) Refs(ctx context.Context, req RefsRequest) (*RefsResult, error) {
	if res, ok, err := forward[RefsResult](ctx, s, "refs", req); ok {
		return res, err
	}
	start := time.Now()
	name := strings.TrimSpace(req.Symbol)
	if name == "" {
		return nil, Errorf(CodeBadQuery, "symbol", "empty symbol: give the name whose uses to list")
	}
	for _, k := range req.Kind {
		var ik extract.IdentKind
		if ik.UnmarshalText([]byte(k)) != nil {
			return nil, Errorf(CodeBadValue, "kind", "kind %q: want one of %s%s", k, strings.Join(identKinds, ", "), DidYouMean(k, identKinds))
		}
	}
	limit, err := PageLimit(req.Limit, DefaultRefsLimit, MaxRefsLimit)
	if err != nil {
		return nil, err
	}
	offset, err := ParseCursor(req.Cursor)
	if err != nil {
		return nil, err
	}
	var xs []*workspace.SearchIndex
	var defs []*nav.Def // by workspace: its definition of the symbol, nil when it has none
	if req.Workspace == "all" {
		if xs, err = s.OpenIndexes(ctx, "all"); err != nil {
			return nil, err
		}
		var notHere error // path:line of no definition, in every workspace
		for _, x := range xs {
			d, err := pickDefinition(ctx, x, name)
			var e *Error
			if errors.As(err, &e) && e.Code == CodeNotFound {
				notHere, err = err, nil
			}
			if err != nil {
				s.Release(xs)
				return nil, err
			}
			defs = append(defs, d)
		}
		if notHere != nil && !slices.ContainsFunc(defs, func(d *nav.Def) bool { return d != nil }) {
			s.Release(xs)
			return nil, notHere
		}
	} else {
		x, d, err := s.navTarget(ctx, "refs", req.Workspace, name)
		if err != nil {
			return nil, err
		}
		xs, defs = x, []*nav.Def{d}
	}
	defer s.Release(xs)
	out := &RefsResult{Symbol: name, Results: []Ref{}, Errors: []ErrorInfo{}}
	byName := !slices.ContainsFunc(defs, func(d *nav.Def) bool { return d != nil })
	if byName {
		out.Notice = fmt.Sprintf("no definition named %s in the workspace: its uses matched by name", name)
	}
	// Each workspace's uses, in order, up to the end of the page; the page is cut from
	// them all.
	var all []Ref
	named := name // what the uses by name are uses of: the definition's name
	if i := slices.IndexFunc(defs, func(d *nav.Def) bool { return d != nil }); i >= 0 {
		named = defs[i].Name
	}
	for i, x := range xs {
		wsID := ""
		if req.Workspace == "all" {
			wsID = x.Entry.ID
		}
		refs, total, err := workspaceRefs(ctx, x, defs[i], named, req, byName, offset+limit)
		if err != nil {
			return nil, AsError(err)
		}
		if defs[i] != nil && out.Definition == nil {
			out.Definition = definitionOf(defs[i])
		}
		if defs[i] != nil {
			n, err := unresolvedUses(ctx, x, *defs[i], req.Kind)
			if err != nil {
				return nil, err
			}
			out.Unresolved += n
		}
		out.Total += total
		for _, r := range refs {
			r.Workspace = wsID
			all = append(all, r)
		}
	}
	out.UnresolvedListed = req.Unresolved && out.Definition != nil
	if byName { // what the uses by name leave out: the name in comments, strings, other files
		if n, more := unlistedText(ctx, xs, named); n > 0 {
			atLeast := ""
			if more {
				atLeast = "at least "
			}
			out.Notice += fmt.Sprintf("; %s%s hold %s only as text (comments, strings, files whose uses are not indexed), not listed: a content search lists them",
				atLeast, count(n, "more line", "more lines"), named)
		}
	}
	out.Results = append(out.Results, all[min(offset, len(all)):min(offset+limit, len(all))]...)
	if out.TotalFilesSearched, err = FilesIn(ctx, xs); err != nil {
		return nil, err
	}
	if offset+len(out.Results) < out.Total {
		out.Truncated, out.TruncatedReason = true, TruncatedLimit
	}
	FitBytes(&out.Results, s.Budget(ctx, 0), &out.Truncated, &out.TruncatedReason)
	if offset+len(out.Results) < out.Total {
		out.NextCursor = strconv.Itoa(offset + len(out.Results))
	}
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
