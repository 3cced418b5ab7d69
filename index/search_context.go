package index

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// defContextLines is how many lines of a definition are shown when no context is asked for.
const defContextLines = 3

// addContext completes hits from the store: a definition's end line and column, and lines
// of source: the first lines of a definition (context, at least defContextLines), and the
// context lines before and after a content hit.
func (s *Searcher) addContext(ctx context.Context, hits []Hit, n int) error {
	var ids []string
	for _, h := range hits {
		if h.Hit == HitDefinition {
			ids = append(ids, h.SymbolID)
		}
	}
	spans, err := s.store.symbolSpans(ctx, ids)
	if err != nil {
		return err
	}
	files := map[string][][]byte{}
	for i := range hits {
		h := &hits[i]
		if h.Hit == HitFile {
			continue
		}
		lines, ok := files[h.Path]
		if !ok {
			content, err := s.store.Content(ctx, h.Path)
			if err != nil {
				return err
			}
			lines = bytes.Split(content, []byte("\n"))
			files[h.Path] = lines
		}
		switch h.Hit {
		case HitDefinition:
			if sp, ok := spans[h.SymbolID]; ok {
				h.EndLine, h.Column = sp.endLine, sp.column
			}
			if h.EndLine < h.Line {
				h.EndLine = h.Line
			}
			last := min(h.EndLine, h.Line+max(n, defContextLines)-1)
			h.Context = contextLines(lines, h.Line, last, 0)
		case HitContent:
			if n > 0 {
				h.Context = contextLines(lines, h.Line-n, h.Line+n, h.Line)
			}
		}
	}
	return nil
}

// contextLines returns lines first..last (1-based, clamped) but skip.
func contextLines(lines [][]byte, first, last, skip int) []ContextLine {
	var out []ContextLine
	for l := max(first, 1); l <= last && l <= len(lines); l++ {
		if l != skip {
			out = append(out, ContextLine{Line: l, Text: lineText(lines[l-1])})
		}
	}
	return out
}

type symbolSpan struct{ endLine, column int }

// symbolSpans returns the end line and start column of the symbols ids.
func (s *Store) symbolSpans(ctx context.Context, ids []string) (map[string]symbolSpan, error) {
	out := make(map[string]symbolSpan, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, end_line, start_column FROM symbols WHERE id IN (?`+
		strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("index: read symbol spans: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var sp symbolSpan
		if err := rows.Scan(&id, &sp.endLine, &sp.column); err != nil {
			return nil, err
		}
		out[id] = sp
	}
	return out, rows.Err()
}
