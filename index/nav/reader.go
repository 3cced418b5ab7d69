package nav

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/cfamily"
	"github.com/quarrysearch/quarry/index/nav/golang"
	"github.com/quarrysearch/quarry/index/nav/java"
	"github.com/quarrysearch/quarry/index/nav/js"
	"github.com/quarrysearch/quarry/index/nav/python"
	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/nav/rust"
	"github.com/quarrysearch/quarry/index/store"
)

// Resolution reasons (SymbolRef.Resolution, Call.Resolution).
const (
	ResolvedScope        = resolve.ResolvedScope
	ResolvedReceiver     = resolve.ResolvedReceiver
	ResolvedImport       = resolve.ResolvedImport
	ResolvedPackage      = resolve.ResolvedPackage
	ResolvedQualified    = resolve.ResolvedQualified
	ResolvedGlobalUnique = resolve.ResolvedGlobalUnique
)

// Def is a definition as resolution sees it.
type Def = resolve.Def

// OneDefinition returns the definition defs hold when they are one definition or the
// overloads of one, else nil.
func OneDefinition(defs []Def) *Def { return resolve.OneDefinition(defs) }

// Reader answers navigation questions from one store's rows: definitions, references
// resolved to them, callees, children, implementations.
type Reader struct{ *store.Store }

// NewReader returns the Reader of the store s.
func NewReader(s *store.Store) Reader { return Reader{s} }

// langTable are the languages' rules the resolver dispatches to, by language
// (registered here, explicitly: a language package has no init).
var langTable = resolve.NewLanguages(golang.Hooks(), python.Hooks(), js.Hooks(), java.Java(), java.CSharp(), rust.Hooks(), cfamily.Hooks())

// newResolver returns a resolver of uses against s's store, with every language's rules.
func newResolver(ctx context.Context, s Reader) *resolve.Resolver {
	return resolve.New(ctx, s.Store, langTable)
}

// ResolveName resolves symbol (a name, maybe qualified: pkg.F, a::b::C) as if it were
// written in the file at p on line (0: at the file's top level): the definition it means
// and why, nil when no rule decides.
func (s Reader) ResolveName(ctx context.Context, p string, line int, symbol string) (*Def, string, error) {
	name, qualifier := resolve.SplitQualified(symbol)
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
