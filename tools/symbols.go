package tools

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/suggest"
	"github.com/quarrysearch/quarry/workspace"
)

// Outline modes: how much of each symbol get_symbols shows.
const (
	ModeMinimal   = "minimal"   // name, kind, line, depth
	ModeStructure = "structure" // plus end line, column, signature, parent, visibility (the default)
	ModeFull      = "full"      // plus doc comment and code body
)

// Outline limits.
const (
	defaultSymbolsLimit = 200
	maxSymbolsLimit     = 5000
)

// SymbolsRequest asks for the outline of a file.
type SymbolsRequest struct {
	FilePath string `json:"file_path" jsonschema:"the file, relative to the workspace root or absolute inside it"`
	Depth    int    `json:"depth,omitempty" jsonschema:"nesting depth to show: 1 top level only, 0 all (default)"`
	Target   string `json:"target,omitempty" jsonschema:"only symbols whose name contains this (case-insensitive), with their bodies in full mode"`
	Mode     string `json:"mode,omitempty" jsonschema:"minimal, structure (default) or full (with doc comments and code bodies)"`
	Limit    int    `json:"limit,omitempty" jsonschema:"at most this many symbols per page, 1 to 5000 (default 200)"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
}

// Symbol is one definition of an outline.
type Symbol struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Line       int    `json:"line"`
	Depth      int    `json:"depth" jsonschema:"1 for top level"`
	EndLine    int    `json:"end_line,omitempty"`
	Column     int    `json:"column,omitempty"`
	Signature  string `json:"signature,omitempty"`
	Parent     string `json:"parent,omitempty" jsonschema:"the name of the enclosing symbol"`
	Visibility string `json:"visibility,omitempty"`
	DocComment string `json:"doc_comment,omitempty"`
	Body       string `json:"body,omitempty" jsonschema:"the source, capped (full mode)"`
	SymbolID   string `json:"symbol_id,omitempty"`
}

// SymbolsResult is the outline of a file.
type SymbolsResult struct {
	File               string      `json:"file"`
	Language           string      `json:"language"`
	Results            []Symbol    `json:"results"`
	Total              int         `json:"total" jsonschema:"symbols in the outline before paging"`
	Truncated          bool        `json:"truncated"`
	TruncatedReason    string      `json:"truncated_reason,omitempty"`
	NextCursor         string      `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page"`
	ParseErrors        int         `json:"parse_errors,omitempty" jsonschema:"regions the parser could not read; symbols outside them are listed"`
	TotalFilesSearched int         `json:"total_files_searched" jsonschema:"always 1: the file outlined"`
	ElapsedMS          float64     `json:"elapsed_ms"`
	Errors             []ErrorInfo `json:"errors"`
}

// Symbols returns the outline of a file, read from disk as it is now.
func (s *Service) Symbols(ctx context.Context, req SymbolsRequest) (*SymbolsResult, error) {
	if res, ok, err := forward[SymbolsResult](ctx, s, "symbols", req); ok {
		return res, err
	}
	start := time.Now()
	if strings.TrimSpace(req.FilePath) == "" {
		return nil, Errorf(CodeBadValue, "file_path", "file_path is required: the file to outline")
	}
	mode := req.Mode
	switch mode {
	case "":
		mode = ModeStructure
	case ModeMinimal, ModeStructure, ModeFull:
	default:
		return nil, Errorf(CodeBadValue, "mode", "mode %q: want minimal, structure or full%s", req.Mode, DidYouMean(req.Mode, []string{ModeMinimal, ModeStructure, ModeFull}))
	}
	limit, err := PageLimit(req.Limit, defaultSymbolsLimit, maxSymbolsLimit)
	if err != nil {
		return nil, err
	}
	offset, err := ParseCursor(req.Cursor)
	if err != nil {
		return nil, err
	}
	if req.Depth < 0 {
		return nil, Errorf(CodeBadValue, "depth", "depth %d: want 0 (all) or a positive depth", req.Depth)
	}
	rel, err := s.relPath("file_path", req.FilePath)
	if err != nil {
		return nil, err
	}
	abs := filepath.Join(s.root, filepath.FromSlash(rel))
	src, err := workspace.ReadRegularFile(abs)
	if err != nil {
		e := AsError(err)
		e.Path = "file_path"
		return nil, e
	}
	f, err := extract.New(s.langs, extract.Options{}).Extract(ctx, rel, src, nil)
	if err != nil {
		return nil, &Error{Code: CodeUnreadable, Path: "file_path", Message: err.Error(), err: err}
	}
	if f.Skipped != "" {
		return nil, Errorf(CodeUnreadable, "file_path", "%s: not outlined: %s", rel, f.Skipped)
	}
	all := outline(f.Symbols, req.Depth, strings.ToLower(req.Target))
	out := &SymbolsResult{File: rel, Language: f.Language, Total: len(all), ParseErrors: f.ParseErrors, TotalFilesSearched: 1, Results: []Symbol{}, Errors: []ErrorInfo{}}
	if offset > len(all) {
		offset = len(all)
	}
	page := all[offset:]
	if len(page) > limit {
		page, out.Truncated, out.TruncatedReason, out.NextCursor = page[:limit], true, TruncatedLimit, strconv.Itoa(offset+limit)
	}
	for _, e := range page {
		out.Results = append(out.Results, symbolOf(e, mode, req.Target != "", src))
	}
	if n := len(out.Results); n > 0 {
		FitBytes(&out.Results, s.Budget(ctx, 0), &out.Truncated, &out.TruncatedReason)
		if len(out.Results) < n {
			out.NextCursor = strconv.Itoa(offset + len(out.Results))
		}
	}
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

type outlined struct {
	sym    extract.Symbol
	depth  int
	parent string
}

// outline orders symbols as a tree (each parent before its children, in source order),
// within depth (0: all), and with target only those whose name contains it.
func outline(syms []extract.Symbol, depth int, target string) []outlined {
	byID := map[string]*extract.Symbol{}
	for i := range syms {
		byID[syms[i].ID] = &syms[i]
	}
	children := map[string][]extract.Symbol{}
	for _, s := range syms {
		parent := s.ParentID
		if byID[parent] == nil {
			parent = ""
		}
		children[parent] = append(children[parent], s)
	}
	var out []outlined
	var visit func(parent string, d int)
	visit = func(parent string, d int) {
		if depth > 0 && d > depth {
			return
		}
		for _, s := range children[parent] {
			if target == "" || strings.Contains(strings.ToLower(s.Name), target) {
				p := ""
				if ps := byID[s.ParentID]; ps != nil {
					p = ps.Name
				}
				out = append(out, outlined{s, d, p})
			}
			visit(s.ID, d+1)
		}
	}
	visit("", 1)
	return out
}

func symbolOf(e outlined, mode string, targeted bool, src []byte) Symbol {
	s := e.sym
	out := Symbol{Name: s.Name, Kind: s.Kind.String(), Line: s.StartLine, Depth: e.depth}
	if mode == ModeMinimal {
		return out
	}
	out.EndLine, out.Column, out.Signature, out.Parent, out.Visibility, out.SymbolID = s.EndLine, s.StartColumn, s.Signature, e.parent, string(s.Visibility), s.ID
	if mode == ModeFull {
		out.DocComment = s.DocComment
		if targeted || !s.Kind.IsContainer() { // a container's members are shown on their own
			out.Body = store.CodeBody(src, s.StartByte, s.EndByte)
		}
	}
	return out
}

// pageLimit checks a limit (0: def).
func PageLimit(limit, def, most int) (int, error) {
	switch {
	case limit == 0:
		return def, nil
	case limit < 0 || limit > most:
		return 0, Errorf(CodeBadValue, "limit", "limit %d out of range: give 1 to %d", limit, most)
	}
	return limit, nil
}

// parseCursor reads a paging cursor: the offset of the next page.
func ParseCursor(c string) (int, error) {
	if c == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(c)
	if err != nil || n < 0 {
		return 0, Errorf(CodeBadValue, "cursor", "cursor %q: pass the next_cursor of the previous page", c)
	}
	return n, nil
}

// DidYouMean returns "; did you mean X?" for the known name closest to typed, or "".
func DidYouMean(typed string, known []string) string {
	if s := suggest.Closest(typed, known); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}
