package tools

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/extract"
)

// Refs limits.
const (
	defaultRefsLimit = 50
	maxRefsLimit     = 1000
)

// RefsRequest asks for the uses of a name.
type RefsRequest struct {
	Symbol    string   `json:"symbol" jsonschema:"the name whose uses to list (exactly as written in code: ServeHTTP, get_user_data)"`
	Kind      []string `json:"kind,omitempty" jsonschema:"only these kinds of use: call, variable_ref, type_usage, member_access, import"`
	Workspace string   `json:"workspace,omitempty" jsonschema:"a workspace id; default the primary workspace"`
	Limit     int      `json:"limit,omitempty" jsonschema:"at most this many uses per page, 1 to 1000 (default 50)"`
	Cursor    string   `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
}

// Ref is one use of a name.
type Ref struct {
	Path          string `json:"path" jsonschema:"workspace-relative, POSIX"`
	Line          int    `json:"line"`
	Column        int    `json:"column"`
	Kind          string `json:"kind" jsonschema:"call, variable_ref, type_usage, member_access or import"`
	Container     string `json:"container,omitempty" jsonschema:"the name of the symbol the use is in"`
	ContainerKind string `json:"container_kind,omitempty"`
	Text          string `json:"text" jsonschema:"the line, trimmed"`
}

// RefsResult lists the uses of a name, by path and line.
type RefsResult struct {
	Symbol             string      `json:"symbol"`
	Results            []Ref       `json:"results"`
	Total              int         `json:"total" jsonschema:"uses in all, before paging"`
	Truncated          bool        `json:"truncated"`
	TruncatedReason    string      `json:"truncated_reason,omitempty"`
	NextCursor         string      `json:"next_cursor,omitempty"`
	TotalFilesSearched int         `json:"total_files_searched"`
	ElapsedMS          float64     `json:"elapsed_ms"`
	Errors             []ErrorInfo `json:"errors"`
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
			return nil, Errorf(CodeBadValue, "kind", "kind %q: want one of %s%s", k, strings.Join(identKinds, ", "), didYouMean(k, identKinds))
		}
	}
	limit, err := pageLimit(req.Limit, defaultRefsLimit, maxRefsLimit)
	if err != nil {
		return nil, err
	}
	offset, err := parseCursor(req.Cursor)
	if err != nil {
		return nil, err
	}
	if req.Workspace == "all" {
		return nil, Errorf(CodeBadValue, "workspace", "refs covers one workspace at a time: give its id, or none for the primary")
	}
	xs, err := s.openIndexes(ctx, req.Workspace)
	if err != nil {
		return nil, err
	}
	defer s.release(xs)
	refs, total, err := xs[0].Refs(ctx, name, req.Kind, offset, limit)
	if err != nil {
		return nil, AsError(err)
	}
	out := &RefsResult{Symbol: name, Total: total, Results: []Ref{}, Errors: []ErrorInfo{}}
	if out.TotalFilesSearched, err = filesIn(ctx, xs); err != nil {
		return nil, err
	}
	for _, r := range refs {
		out.Results = append(out.Results, Ref(r))
	}
	if offset+len(refs) < total {
		out.Truncated, out.TruncatedReason = true, TruncatedLimit
	}
	fitBytes(&out.Results, s.budget(ctx, 0), &out.Truncated, &out.TruncatedReason)
	if offset+len(out.Results) < total {
		out.NextCursor = strconv.Itoa(offset + len(out.Results))
	}
	out.ElapsedMS = elapsedMS(start)
	return out, nil
}
