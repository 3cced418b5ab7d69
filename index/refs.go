package index

import (
	"bytes"
	"context"
	"fmt"
)

// Ref is one use of a name: an identifier the extractor recorded (a call, a variable or
// type reference, a member access, an import), with the symbol that contains it.
type Ref struct {
	Path          string
	Line, Column  int
	Kind          string // call, variable_ref, type_usage, member_access, import
	Container     string // the name of the containing symbol, "" at the top level
	ContainerKind string
	Text          string // the line
}

// Refs returns the uses of name, by path and line, skipping offset and at most limit of
// them, and how many there are in all. kinds, when not empty, keeps those kinds only.
func (s *Store) Refs(ctx context.Context, name string, kinds []string, offset, limit int) ([]Ref, int, error) {
	where, args := `i.name = ?`, []any{name}
	if len(kinds) > 0 {
		where += ` AND i.kind IN (?` + repeatString(",?", len(kinds)-1) + `)`
		for _, k := range kinds {
			args = append(args, k)
		}
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM identifiers i WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("index: count references to %q: %w", name, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT i.path, i.line, i.column, i.kind, coalesce(s.name, ''), coalesce(s.kind, '')
		FROM identifiers i LEFT JOIN symbols s ON s.id = i.containing_symbol_id
		WHERE `+where+` ORDER BY i.path, i.line, i.column LIMIT ? OFFSET ?`, append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("index: references to %q: %w", name, err)
	}
	defer rows.Close()
	var out []Ref
	for rows.Next() {
		var r Ref
		if err := rows.Scan(&r.Path, &r.Line, &r.Column, &r.Kind, &r.Container, &r.ContainerKind); err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	return out, total, s.addRefText(ctx, out)
}

// addRefText fills in the line of each reference, reading each file once.
func (s *Store) addRefText(ctx context.Context, refs []Ref) error {
	var lines [][]byte
	path := ""
	for i := range refs {
		r := &refs[i]
		if r.Path != path {
			content, err := s.Content(ctx, r.Path)
			if err != nil {
				return err
			}
			lines, path = bytes.Split(content, []byte("\n")), r.Path
		}
		if r.Line >= 1 && r.Line <= len(lines) {
			r.Text = lineText(bytes.TrimSpace(lines[r.Line-1]))
		}
	}
	return nil
}

func repeatString(s string, n int) string { return string(bytes.Repeat([]byte(s), max(n, 0))) }
