package nav

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
)

// Reader answers navigation questions from one store's rows: definitions, references
// resolved to them, callees, children, implementations.
type Reader struct{ *store.Store }

// NewReader returns the Reader of the store s.
func NewReader(s *store.Store) Reader { return Reader{s} }

// langTable are the languages' rules the resolver dispatches to.
var langTable = NewLanguages(goHooks(), pyHooks(), jsHooks(), javaHooks(), csHooks(), rustHooks(), cHooks())

// newResolver returns a resolver of uses against s's store, with every language's rules.
func newResolver(ctx context.Context, s Reader) *Resolver {
	return New(ctx, s.Store, langTable)
}

// ResolveName resolves symbol (a name, maybe qualified: pkg.F, a::b::C) as if it were
// written in the file at p on line (0: at the file's top level): the definition it means
// and why, nil when no rule decides.
func (s Reader) ResolveName(ctx context.Context, p string, line int, symbol string) (*Def, string, error) {
	name, qualifier := SplitQualified(symbol)
	var lang string
	err := s.DB().QueryRowContext(ctx, `SELECT language FROM files WHERE path = ?`, p).Scan(&lang)
	if err == sql.ErrNoRows {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("index: resolve %s in %s: %w", name, p, err)
	}
	use := extract.Identifier{Name: name, Qualifier: qualifier, Kind: extract.VariableRef}
	if line > 0 {
		err := s.DB().QueryRowContext(ctx, `SELECT s.id FROM symbols s JOIN files f ON f.id = s.file
			WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ? AND s.kind != 'import'
			ORDER BY s.start_line DESC, s.end_line ASC LIMIT 1`, p, line, line).Scan(&use.ContainingSymbolID)
		if err != nil && err != sql.ErrNoRows {
			return nil, "", fmt.Errorf("index: resolve %s in %s: %w", name, p, err)
		}
	}
	r := newResolver(ctx, s)
	f, err := r.FileOf(p, lang)
	if err != nil {
		return nil, "", err
	}
	return r.Resolve(f, use)
}
