package search

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/quarrysearch/quarry/index/store"
)

// defContextLines is how many lines of a definition are shown when no context is asked for.
const defContextLines = 3

// addContext completes hits from the store: a definition's end line and column, and lines
// of source: the first lines of a definition (context, at least defContextLines), and the
// context lines before and after a content hit.
func (s *Searcher) addContext(ctx context.Context, hits []Hit, n int) error {
	var ids []string
	var known []span
	for _, h := range hits {
		switch {
		case h.Hit != HitDefinition:
		case h.spanRead: // its span came with it from the store
			known = append(known, span{id: h.SymbolID, path: h.Path, sp: symbolSpan{endLine: h.EndLine, column: h.startColumn}, start: h.startByte})
		default:
			ids = append(ids, h.SymbolID)
		}
	}
	spans, err := s.symbolSpans(ctx, ids, max(n, defContextLines))
	if err != nil {
		return err
	}
	if err := s.readHeads(ctx, known, max(n, defContextLines), spans); err != nil {
		return err
	}
	files := map[string][][]byte{}
	for i := range hits {
		h := &hits[i]
		switch h.Hit {
		case HitDefinition:
			sp, ok := spans[h.SymbolID]
			if ok {
				h.EndLine, h.Column = sp.endLine, sp.column
			}
			if h.EndLine < h.Line {
				h.EndLine = h.Line
			}
			last := min(h.EndLine, h.Line+max(n, defContextLines)-1)
			h.Context = contextLines(bytes.Split(sp.head, []byte("\n")), 1, last-h.Line+1, 0)
			for j := range h.Context {
				h.Context[j].Line += h.Line - 1
			}
		case HitContent:
			if n == 0 {
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
			h.Context = contextLines(lines, h.Line-n, h.Line+n, h.Line)
		}
	}
	return nil
}

// contextLines returns lines first..last (1-based, clamped) but skip.
func contextLines(lines [][]byte, first, last, skip int) []ContextLine {
	var out []ContextLine
	for l := max(first, 1); l <= last && l <= len(lines); l++ {
		if l != skip {
			out = append(out, ContextLine{Line: l, Text: store.LineText(lines[l-1])})
		}
	}
	return out
}

type symbolSpan struct {
	endLine, column int
	head            []byte // the source from the start of the symbol's first line: its first lines
}

// Bytes of a definition's source read for its context: per line wanted, and before the
// symbol's start to find the start of its line.
const (
	headBytesPerLine = 256
	headLookBehind   = 512
)

// symbolSpans returns the end line, start column and first lines (up to lines of them) of
// the symbols ids. The content of their files, stored compressed, is read whole through the
// searcher's content cache, once per file.
func (s *Searcher) symbolSpans(ctx context.Context, ids []string, lines int) (map[string]symbolSpan, error) {
	out := make(map[string]symbolSpan, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.store.DB().QueryContext(ctx, `SELECT s.id, f.path, s.end_line, s.start_column, s.start_byte
		FROM symbols s JOIN files f ON f.id = s.file WHERE s.id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("index: read symbol spans: %w", err)
	}
	var spans []span
	for rows.Next() {
		var x span
		if err := rows.Scan(&x.id, &x.path, &x.sp.endLine, &x.sp.column, &x.start); err != nil {
			rows.Close()
			return nil, err
		}
		spans = append(spans, x)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	return out, s.readHeads(ctx, spans, lines, out)
}

// span is a definition's span as the store gives it, and where it starts in its file.
type span struct {
	id, path string
	sp       symbolSpan
	start    int
}

// readHeads reads the first lines of each span (about lines of them) from its file's text
// and adds the span to out.
func (s *Searcher) readHeads(ctx context.Context, spans []span, lines int, out map[string]symbolSpan) error {
	want := headLookBehind + lines*headBytesPerLine
	for _, x := range spans {
		_, content, err := s.contents.fileContent(ctx, s.store.Store, x.path)
		if err != nil {
			return err
		}
		from := min(max(x.start-headLookBehind, 0), len(content))
		x.sp.head = headOf(content[from:min(from+want, len(content))], x.start-from)
		out[x.id] = x.sp
	}
	return nil
}

// headOf returns chunk from the start of the line holding offset behind.
func headOf(chunk []byte, behind int) []byte {
	behind = min(max(behind, 0), len(chunk))
	return chunk[bytes.LastIndexByte(chunk[:behind], '\n')+1:]
}
