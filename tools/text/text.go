package text

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/tools"
)

// Render returns the compact text of an operation's result, for an agent to read at little
// cost: one line per hit (path:line: kind name — signature for a definition, path:line: text
// for a line, the path for a file; context lines as path-line- text) and a last line with
// the count and any truncation. A result without a text form is compact JSON.
func Render(result any) (string, error) {
	v := reflect.ValueOf(result)
	if v.Kind() != reflect.Pointer && v.IsValid() {
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		v = p
	}
	if v.IsValid() && !v.IsNil() {
		if r, ok := renderers[v.Type().Elem()]; ok {
			return r(v.Interface()), nil
		}
	}
	b, err := json.Marshal(result)
	if err != nil {
		return "", fmt.Errorf("tools: render result: %w", err)
	}
	return string(b), nil
}

func renderSearch(r *tools.SearchResult) string {
	var b strings.Builder
	renderHits(&b, r.Results)
	renderErrors(&b, r.Errors)
	b.WriteString(count(len(r.Results), "result", "results"))
	var notes []string
	if r.Truncated {
		notes = append(notes, "truncated: "+r.TruncatedReason)
	}
	switch {
	case r.NextCursor != "":
		notes = append(notes, "more: cursor "+r.NextCursor)
	case r.TruncatedReason == tools.TruncatedLimit:
		notes = append(notes, fmt.Sprintf("more: limit %d", moreLimit(len(r.Results), 0)))
	}
	if r.Notice != "" {
		notes = append(notes, r.Notice)
	}
	if r.Relaxed {
		notes = append(notes, "relaxed: no result has every word, these have some")
	}
	if len(r.Results) == 0 {
		notes = append(notes, fmt.Sprintf("%d files searched; try fewer words, another target or fewer filters", r.TotalFilesSearched))
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, "; ") + ")")
	}
	return b.String()
}

func renderGoto(r *tools.GotoResult) string {
	var b strings.Builder
	renderHits(&b, r.Results)
	renderErrors(&b, r.Errors)
	if r.Total > len(r.Results) {
		fmt.Fprintf(&b, "%d of ", len(r.Results))
	}
	b.WriteString(count(max(r.Total, len(r.Results)), "definition", "definitions") + " of " + r.Symbol)
	if r.Truncated {
		b.WriteString(" (truncated: " + r.TruncatedReason)
		if r.TruncatedReason == tools.TruncatedLimit {
			fmt.Fprintf(&b, "; more: limit %d", moreLimit(len(r.Results), r.Total))
		}
		b.WriteString(")")
	}
	if r.Notice != "" {
		b.WriteString(" (" + r.Notice + ")")
	}
	return b.String()
}

// moreLimit is the limit that shows the rest of a list cut at shown results of total (0:
// unknown, then twice as many), within MaxLimit.
func moreLimit(shown, total int) int {
	if total <= shown {
		total = 2 * shown
	}
	return min(total, tools.MaxLimit)
}

// renderHits writes one line per hit, with its context lines around it.
func renderHits(b *strings.Builder, hits []tools.Hit) {
	for _, h := range hits {
		p := Path(h.Path)
		if h.Workspace != "" {
			p = h.Workspace + ":" + p
		}
		for _, c := range h.Context {
			if c.Line < h.Line {
				fmt.Fprintf(b, "%s-%d- %s\n", p, c.Line, strings.TrimRight(c.Text, " \t\r"))
			}
		}
		stale := ""
		if h.Stale { // the file changed since it was indexed: the line may have moved
			stale = " [stale: file changed since indexed]"
		}
		switch h.Hit {
		case tools.HitDefinition:
			fmt.Fprintf(b, "%s:%d: %s %s", p, h.Line, h.Kind, h.Name)
			if sig := strings.Join(strings.Fields(h.Signature), " "); sig != "" {
				b.WriteString(" — " + sig)
			}
			b.WriteString(stale + "\n")
		case tools.HitContent:
			text := strings.TrimSpace(h.Text)
			if len(h.Context) > 0 { // keep the indentation that the context lines show
				text = strings.TrimRight(h.Text, " \t\r")
			}
			fmt.Fprintf(b, "%s:%d: %s%s\n", p, h.Line, text, stale)
		default:
			b.WriteString(p + stale + "\n")
		}
		for _, c := range h.Context {
			if c.Line > h.Line {
				fmt.Fprintf(b, "%s-%d- %s\n", p, c.Line, strings.TrimRight(c.Text, " \t\r"))
			}
		}
	}
}

func renderErrors(b *strings.Builder, errs []tools.ErrorInfo) {
	for _, e := range errs {
		where := ""
		if e.Workspace != "" {
			where = " in " + e.Workspace
		}
		fmt.Fprintf(b, "error %s%s: %s\n", e.Code, where, e.Message)
	}
}

// renderSymbols writes an outline: one line per symbol, indented by depth, as
// "line kind name — signature", bodies below their line in full mode.
func renderSymbols(r *tools.SymbolsResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", Path(r.File), r.Language)
	for _, sym := range r.Results {
		fmt.Fprintf(&b, "%s%d %s %s", strings.Repeat("  ", max(sym.Depth-1, 0)), sym.Line, sym.Kind, sym.Name)
		if sig := strings.Join(strings.Fields(sym.Signature), " "); sig != "" && sig != sym.Name {
			b.WriteString(" — " + sig)
		}
		b.WriteByte('\n')
		if sym.DocComment != "" {
			fmt.Fprintf(&b, "%s  // %s\n", strings.Repeat("  ", max(sym.Depth-1, 0)), strings.Join(strings.Fields(sym.DocComment), " "))
		}
		if sym.Body != "" {
			b.WriteString(sym.Body)
			if !strings.HasSuffix(sym.Body, "\n") {
				b.WriteByte('\n')
			}
		}
	}
	fmt.Fprintf(&b, "%d of %s", len(r.Results), count(r.Total, "symbol", "symbols"))
	if r.NextCursor != "" {
		fmt.Fprintf(&b, " (truncated: %s; next page: cursor %s)", r.TruncatedReason, r.NextCursor)
	}
	if r.ParseErrors > 0 {
		fmt.Fprintf(&b, "; %d regions could not be parsed", r.ParseErrors)
	}
	return b.String()
}

// renderRefs writes one line per use: "path:line:column: kind in container: text".
func renderRefs(r *tools.RefsResult) string {
	var b strings.Builder
	for _, ref := range r.Results {
		in := ""
		if ref.Container != "" {
			in = " in " + ref.Container
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s%s: %s\n", Path(ref.Path), ref.Line, ref.Column, ref.Kind, in, ref.Text)
	}
	fmt.Fprintf(&b, "%d of %s of %s", len(r.Results), count(r.Total, "use", "uses"), r.Symbol)
	if r.NextCursor != "" {
		fmt.Fprintf(&b, " (truncated: %s; next page: cursor %s)", r.TruncatedReason, r.NextCursor)
	}
	switch {
	case r.Unresolved > 0 && r.UnresolvedListed:
		fmt.Fprintf(&b, "; %s unresolved (after the resolved ones)", count(r.Unresolved, "use", "uses"))
	case r.Unresolved > 0:
		fmt.Fprintf(&b, "; %s left unresolved (unresolved: true lists them)", count(r.Unresolved, "more use", "more uses"))
	}
	return b.String()
}

// renderWorkspace writes a workspace operation's outcome.
func renderWorkspace(r *tools.WorkspaceResult) string {
	var b strings.Builder
	if r.Health != nil && r.Operation == "health" {
		renderHealth(&b, r.Health)
	}
	for _, w := range r.Workspaces {
		state := "not indexed"
		if w.Indexed {
			state = fmt.Sprintf("%d files, %d symbols", w.Files, w.Symbols)
		}
		primary := ""
		if w.Primary {
			primary = " (primary)"
		}
		fmt.Fprintf(&b, "%s%s %s: %s\n", w.ID, primary, Path(w.Root), state)
	}
	for _, s := range r.Indexed {
		fmt.Fprintf(&b, "indexed %s: %d files, %d symbols (%d added, %d changed, %d deleted, %d renamed) in %.1fs\n",
			s.ID, s.Files, s.Symbols, s.Added, s.Changed, s.Deleted, s.Renamed, float64(s.ElapsedMS)/1000)
	}
	if r.Health != nil && r.Operation != "health" {
		fmt.Fprintf(&b, "health: %s, %d problems\n", r.Health.Status, len(r.Health.Problems))
	}
	for _, d := range r.Removed {
		fmt.Fprintf(&b, "removed the index %s\n", d)
	}
	fmt.Fprintf(&b, "%s done", r.Operation)
	return b.String()
}

// renderHealth writes a health report in a few lines: the status, the store and the
// full-text index, the changes on disk since indexing, the notices and the problems with
// their actions (the structured content has the rest).
func renderHealth(b *strings.Builder, h *tools.HealthReport) {
	fmt.Fprintf(b, "%s (%s): %s\n", h.Workspace.Name, h.Workspace.ID, h.Status)
	if h.Status != tools.NotIndexed {
		c := h.Store.Counts
		fmt.Fprintf(b, "store: %d files, %d symbols; full-text: %s\n", c.Files, c.Symbols, h.Fulltext.Status)
		ch := h.Changed
		fmt.Fprintf(b, "changed on disk since indexed: %d modified, %d added, %d deleted\n", ch.Modified, ch.Added, ch.Deleted)
	}
	for _, n := range h.Notices {
		fmt.Fprintf(b, "note: %s\n", n)
	}
	for _, p := range h.Problems {
		fmt.Fprintf(b, "problem: %s; action: %s\n", p.What, p.Action)
	}
}

// renderers are the compact text renderings of result types, by type.
var renderers = map[reflect.Type]func(any) string{
	reflect.TypeFor[tools.SearchResult]():  func(v any) string { return renderSearch(v.(*tools.SearchResult)) },
	reflect.TypeFor[tools.GotoResult]():    func(v any) string { return renderGoto(v.(*tools.GotoResult)) },
	reflect.TypeFor[tools.SymbolsResult](): func(v any) string { return renderSymbols(v.(*tools.SymbolsResult)) },
	reflect.TypeFor[tools.RefsResult]():    func(v any) string { return renderRefs(v.(*tools.RefsResult)) },
	reflect.TypeFor[tools.CallsResult]():   func(v any) string { return renderCalls(v.(*tools.CallsResult)) },
	reflect.TypeFor[tools.ExplainResult](): func(v any) string { return renderExplain(v.(*tools.ExplainResult)) },
	reflect.TypeFor[tools.WorkspaceResult](): func(v any) string {
		return renderWorkspace(v.(*tools.WorkspaceResult))
	},
}

// renderCalls writes a call tree as indented lines: name kind path:line (resolution) with the
// call sites, cycles marked.
func renderCalls(r *tools.CallsResult) string {
	var b strings.Builder
	for i := range r.Nodes {
		n := &r.Nodes[i]
		b.WriteString(strings.Repeat("  ", n.Depth))
		if n.Symbol != nil {
			fmt.Fprintf(&b, "%s %s %s:%d", n.Symbol.Kind, n.Name, Path(n.Symbol.Path), n.Symbol.Line)
		} else {
			fmt.Fprintf(&b, "%s (unresolved)", n.Name)
		}
		if n.Resolution != "" {
			fmt.Fprintf(&b, " [%s]", n.Resolution)
		}
		if len(n.Sites) > 0 {
			var sites []string
			for _, s := range n.Sites {
				sites = append(sites, fmt.Sprintf("%s:%d", Path(s.Path), s.Line))
			}
			fmt.Fprintf(&b, " via %s", strings.Join(sites, ", "))
		}
		if n.Cycle {
			b.WriteString(" (cycle)")
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d %s of %s, depth %d", r.Count, r.Direction, r.Symbol, r.Depth)
	if r.Truncated {
		fmt.Fprintf(&b, " (truncated: %s, at %d nodes; a smaller depth, or refs with kind call, lists the rest)", r.TruncatedReason, tools.MaxCallsNodes)
	}
	if r.Unresolved > 0 {
		fmt.Fprintf(&b, "; %s of %s left unresolved (refs with unresolved lists them)", count(r.Unresolved, "more call", "more calls"), r.Symbol)
	}
	return b.String()
}

// renderExplain writes an explanation as a few lines of text.
func renderExplain(r *tools.ExplainResult) string {
	var b strings.Builder
	d := r.Definition
	fmt.Fprintf(&b, "%s %s %s:%d-%d", d.Kind, d.Name, Path(d.Path), d.Line, d.EndLine)
	if d.Visibility != "" {
		fmt.Fprintf(&b, " (%s)", d.Visibility)
	}
	b.WriteByte('\n')
	if d.Signature != "" {
		fmt.Fprintf(&b, "%s\n", d.Signature)
	}
	if d.DocComment != "" {
		doc := d.DocComment
		if r.Depth == tools.ExplainOverview {
			doc = firstSentence(doc)
		}
		fmt.Fprintf(&b, "doc: %s\n", doc)
	}
	if r.Parent != nil {
		fmt.Fprintf(&b, "in: %s %s %s:%d\n", r.Parent.Kind, r.Parent.Name, Path(r.Parent.Path), r.Parent.Line)
	}
	defs := func(label string, list []tools.Definition, total int) {
		if total == 0 {
			return
		}
		var parts []string
		for _, c := range list {
			parts = append(parts, fmt.Sprintf("%s %s :%d", c.Kind, c.Name, c.Line))
		}
		fmt.Fprintf(&b, "%s (%d): %s%s\n", label, total, strings.Join(parts, ", "), more(len(list), total))
	}
	related := func(label string, list []tools.Related, total int) {
		if total == 0 {
			return
		}
		var parts []string
		for _, c := range list {
			parts = append(parts, fmt.Sprintf("%s %s:%d", c.Name, Path(c.Path), c.Line))
		}
		fmt.Fprintf(&b, "%s (%d): %s%s\n", label, total, strings.Join(parts, ", "), more(len(list), total))
	}
	defs("children", r.Children, r.ChildrenTotal)
	related("callers", r.Callers, r.CallersTotal)
	related("callees", r.Callees, r.CalleesTotal)
	if len(r.Unresolved) > 0 {
		fmt.Fprintf(&b, "calls (unresolved): %s\n", strings.Join(r.Unresolved, ", "))
	}
	if r.TypeUsagesTotal > 0 {
		var parts []string
		for _, u := range r.TypeUsages {
			parts = append(parts, fmt.Sprintf("%s:%d", Path(u.Path), u.Line))
		}
		fmt.Fprintf(&b, "type usages (%d): %s%s\n", r.TypeUsagesTotal, strings.Join(parts, ", "), more(len(r.TypeUsages), r.TypeUsagesTotal))
	}
	var impls []string
	for _, c := range r.Implementations {
		impls = append(impls, fmt.Sprintf("%s %s %s:%d", c.Kind, c.Name, Path(c.Path), c.Line))
	}
	if r.ImplementationsTotal > 0 {
		fmt.Fprintf(&b, "implementations (%d): %s%s\n", r.ImplementationsTotal, strings.Join(impls, ", "), more(len(impls), r.ImplementationsTotal))
	}
	if d.Body != "" {
		fmt.Fprintf(&b, "body:\n%s\n", d.Body)
	}
	fmt.Fprintf(&b, "id %s", d.ID)
	return b.String()
}

func more(shown, total int) string {
	if shown < total {
		return fmt.Sprintf(", ... %d more", total-shown)
	}
	return ""
}

// firstSentence returns s up to its first sentence end (or its first line).
func firstSentence(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Path returns a path as a line of text shows it: unchanged, or quoted as Go quotes a
// string ("we\nird.go") when it holds a control character (a newline, a tab, ...) or
// bytes that are not UTF-8, or starts with a double quote, so that one result stays one
// line and a quoted path is told from a plain one.
func Path(p string) string {
	if strings.HasPrefix(p, `"`) || !utf8.ValidString(p) || strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return strconv.Quote(p)
	}
	return p
}
