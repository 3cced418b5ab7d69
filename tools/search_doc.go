package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/index/vectors"
	"github.com/quarrysearch/quarry/scoring"
	"github.com/quarrysearch/quarry/workspace"
)

// SearchLine is one line of a query document given as a list (fast_search searches).
type SearchLine struct {
	Type  string `json:"type" jsonschema:"lex (keywords), vec (a question, searched by meaning) or hyde (a passage like the answer)"`
	Query string `json:"query" jsonschema:"the line's text"`
}

// Query documents' settings.
const (
	// fusionDepth is how many results of each line fusion reads, at least.
	fusionDepth = 30
	// IntentBonus is added to a fused result's score for the share of the intent's words
	// its path, name, signature or first lines hold (fused scores are about 0.03 a list).
	IntentBonus = 0.01
	// FusedPromotionScale turns a definitions search's promotion (2 for an exact name) into
	// fused score: above every fused score without one (at most about 0.1).
	FusedPromotionScale = 0.1
)

// queryDocument returns the query document req states (text in query, or searches and
// intent), nil for a plain search: one line without a type and no intent.
func QueryDocument(req SearchRequest) (*query.Document, error) {
	bad := func(field string, err error) error {
		return &Error{Code: CodeBadQuery, Path: field, Message: err.Error(), err: err}
	}
	switch {
	case len(req.Searches) > 0:
		if strings.TrimSpace(req.Query) != "" {
			return nil, Errorf(CodeBadValue, "searches", "give query or searches, not both: searches is the query document as a list")
		}
		lines := make([]query.DocLine, len(req.Searches))
		for i, l := range req.Searches {
			lines[i] = query.DocLine{Type: query.LineType(l.Type), Text: l.Query}
		}
		d, err := query.NewDocument(lines, req.Intent)
		if err != nil {
			return nil, bad("searches", err)
		}
		return d, nil
	case query.IsDocument(req.Query):
		d, err := query.ParseDocument(req.Query)
		if err != nil {
			return nil, bad("query", err)
		}
		if req.Intent != "" {
			if d.Intent != "" {
				return nil, Errorf(CodeBadValue, "intent", "the query document has an intent: line already; give one intent")
			}
			d.Intent = strings.TrimSpace(req.Intent)
		}
		if !d.Typed() { // expand: the query by keywords and by meaning
			d = &query.Document{Searches: []query.DocLine{{Type: query.LineLex, Text: d.Expand, Line: d.ExpandLine}, {Type: query.LineVec, Text: d.Expand, Line: d.ExpandLine}}, Intent: d.Intent, Expanded: true}
		}
		return d, nil
	case strings.TrimSpace(req.Intent) != "":
		// A plain query with an intent: its lex line, steered.
		return &query.Document{Searches: []query.DocLine{{Type: query.LineLex, Text: strings.TrimSpace(req.Query), Line: 1}}, Intent: strings.TrimSpace(req.Intent)}, nil
	}
	return nil, nil
}

// fusedKey names a result across the lines' lists.
func fusedKey(h Hit) string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%s", h.Workspace, h.Hit, h.Path, h.Line, h.Name)
}

// searchDocument runs each line of a query document and fuses their results by reciprocal
// rank fusion, the first line's weighing double; the intent adds to the results that share
// its words.
func (s *Service) searchDocument(ctx context.Context, req SearchRequest, doc *query.Document) (*SearchResult, error) {
	return s.FuseDocument(ctx, req, doc, &localLines{s: s})
}

// docLines runs a query document's lines: on this service's indexes (localLines), or on a
// cluster's shards (clusterLines).
type DocLines interface {
	// Fresh brings the workspaces up to date, as a search does, and says how fresh they are.
	Fresh(ctx context.Context, ws string) *workspace.Freshness
	// Search runs one line: sub is its plain search request, vector the text whose vector a
	// vec: or hyde: line searches. A fault of the request is returned as bad, and is the
	// document's error; one of the search as err.
	Search(ctx, sctx context.Context, sub SearchRequest, vector string) (res *search.Result, bad, err error)
	// Expand returns an expand: query's variant: the nearest terms of text's words in the
	// searched workspaces' models.
	Expand(ctx context.Context, text string) (string, error)
	// Files is the number of files the first line searched.
	Files(ctx context.Context) (int, error)
	// Missing names what did not answer (a cluster's shards).
	Missing() []ErrorInfo
	Release()
}

// localLines runs a document's lines on the service's own indexes.
type localLines struct {
	s        *Service
	searched []*workspace.SearchIndex // the first line's indexes, kept for expand and the count of files
}

func (l *localLines) Fresh(ctx context.Context, ws string) *workspace.Freshness {
	return l.s.FreshenFirst(ctx, ws)
}

func (l *localLines) Search(ctx, sctx context.Context, sub SearchRequest, vector string) (*search.Result, error, error) {
	ireq, xs, err := l.s.PrepareSearch(ctx, sub)
	if err != nil {
		l.s.Release(xs)
		return nil, err, nil
	}
	ireq.Vector = vector
	res, err := workspace.Search(sctx, xs, ireq)
	if l.searched == nil {
		l.searched = xs
	} else {
		l.s.Release(xs)
	}
	return res, nil, err
}

func (l *localLines) Expand(ctx context.Context, text string) (string, error) {
	if len(l.searched) == 0 {
		return "", nil
	}
	return ExpandVariant(ctx, l.searched, text)
}

func (l *localLines) Files(ctx context.Context) (int, error) { return FilesIn(ctx, l.searched) }
func (l *localLines) Missing() []ErrorInfo                   { return nil }
func (l *localLines) Release()                               { l.s.Release(l.searched) }

// fuseDocument runs doc's lines with run and fuses their results.
func (s *Service) FuseDocument(ctx context.Context, req SearchRequest, doc *query.Document, run DocLines) (*SearchResult, error) {
	start := time.Now()
	if req.Cursor != "" {
		return nil, Errorf(CodeBadValue, "cursor", "a query document has no next page: ask for a larger limit")
	}
	limit, err := ResultLimit(req.Limit)
	if err != nil {
		return nil, err
	}
	depth := min(max(limit*3, fusionDepth), MaxLimit)
	fresh := run.Fresh(ctx, req.Workspace)
	timeout := time.Duration(cmp.Or(req.TimeoutMS, DefaultTimeoutMS)) * time.Millisecond
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := &SearchResult{Query: req.Query, Target: cmp.Or(req.Target, string(search.TargetAuto)), Results: []Hit{}, Errors: []ErrorInfo{}}
	var lists [][]string
	var listLines []string // the line each list is of
	var lexLists []int     // the lists of the document's own lex: lines
	vectorLists := false   // a vec: or hyde: line's list is among them
	byKey := map[string]Hit{}
	var skipped, failed []string // vector lines without vectors, and those whose embedder failed
	var embedErr error
	defer run.Release()
	lines := slices.Clone(doc.Searches)
	names := make([]string, len(lines))
	for i, l := range lines {
		names[i] = lineName(l, len(req.Searches) > 0)
	}
	for li := 0; li < len(lines); li++ {
		line := lines[li]
		if li == 1 && doc.Expanded {
			// expand: the query's words' nearest workspace terms, a lex line of their own
			// after the query's own.
			variant, err := run.Expand(ctx, lines[0].Text)
			if err != nil {
				return nil, AsError(err)
			}
			if variant != "" {
				line = query.DocLine{Type: query.LineLex, Text: variant, Line: line.Line}
				lines = slices.Insert(lines, li, line)
				names = slices.Insert(names, li, fmt.Sprintf("line %d (expand: lex %s)", line.Line, variant))
			}
		}
		sub := req
		sub.Searches, sub.Intent, sub.Cursor, sub.Limit = nil, "", "", &depth
		vector := line.Type == query.LineVec || line.Type == query.LineHyde
		if vector {
			sub.Query, sub.Target = plainWords(line.Text), string(search.TargetDefinitions)
		} else {
			sub.Query = line.Text
		}
		vectorText := ""
		if vector {
			vectorText = strings.TrimSpace(line.Text + " " + doc.Intent) // the intent biases the vector
		}
		res, bad, err := run.Search(ctx, sctx, sub, vectorText)
		if bad != nil {
			var e *Error
			if errors.As(bad, &e) && (e.Path == "query" || e.Path == "") {
				e.Message = fmt.Sprintf("%s: %s", names[li], e.Message)
			}
			return nil, bad
		}
		if errors.Is(err, vectors.ErrNoVectors) {
			skipped = append(skipped, names[li])
			continue
		}
		if errors.Is(err, vectors.ErrEmbedder) {
			failed = append(failed, names[li])
			embedErr = err
			continue
		}
		if err != nil {
			if sctx.Err() != nil && ctx.Err() == nil {
				out.Truncated, out.TruncatedReason = true, TruncatedTimeout
				break
			}
			return nil, AsError(err)
		}
		var keys []string
		for _, h := range res.Hits {
			k := fusedKey(h)
			if _, ok := byKey[k]; !ok {
				byKey[k] = h
			}
			keys = append(keys, k)
		}
		if line.Type == query.LineLex && !(li == 1 && doc.Expanded) {
			lexLists = append(lexLists, len(lists)) // the document's own lex: line, not an expansion's
		}
		vectorLists = vectorLists || vector
		lists = append(lists, keys)
		listLines = append(listLines, names[li])
		out.Relaxed = out.Relaxed || res.Relaxed
	}
	if len(lists) == 0 && len(skipped) > 0 {
		return nil, Errorf(CodeNotIndexed, "query", "%s need the workspace's symbol vectors, which its index does not have yet: run quarry index (or add a lex: line)", strings.Join(skipped, ", "))
	}
	if len(lists) == 0 && len(failed) > 0 {
		return nil, Errorf(CodeInternal, "query", "%s: %v (check the embedder in .quarry/config.toml, or add a lex: line)", strings.Join(failed, ", "), embedErr)
	}
	switch {
	case len(skipped) > 0:
		out.Notice = fmt.Sprintf("lex-only answers: %s skipped, the index has no symbol vectors yet (run quarry index)", strings.Join(skipped, ", "))
	case len(failed) > 0:
		out.Notice = fmt.Sprintf("lex-only answers: %s skipped: %v", strings.Join(failed, ", "), embedErr)
	}
	out.Notice = JoinNotices(out.Notice, freshNotice(fresh))
	intent := intentWords(doc.Intent)
	// The promotions of a name asked for, once, after fusion: a lex: line's exact name comes
	// first whichever line found it.
	var promoters []func(Hit) float64
	for _, l := range doc.Searches { // the document's own lines: not an expansion's variants
		if l.Type == query.LineLex {
			promoters = append(promoters, search.Promoter(l.Text, req.IncludeTests))
		}
	}
	fused := scoring.FuseRRF(lists)
	for i := range fused {
		h := byKey[fused[i].Key]
		intentAdd, promo := 0.0, 0.0
		if len(intent) > 0 {
			intentAdd = IntentBonus * intentShare(h, intent)
		}
		for _, p := range promoters {
			promo = max(promo, FusedPromotionScale*p(h))
		}
		fused[i].Score += intentAdd + promo
		if req.Explain {
			explainFused(&h, fused[i], listLines, promo, intentAdd)
			byKey[fused[i].Key] = h
		}
	}
	sort.SliceStable(fused, func(a, b int) bool { return fused[a].Score > fused[b].Score })
	if vectorLists {
		fused = scoring.GuardLex(fused, lists, lexLists)
	}
	for _, f := range fused {
		if len(out.Results) == limit {
			out.Truncated, out.TruncatedReason = true, TruncatedLimit
			break
		}
		h := byKey[f.Key]
		h.Score = f.Score
		if h.Explain != nil && h.Explain.Score != f.Score { // GuardLex lifted it
			e := *h.Explain
			e.Score = f.Score
			e.Parts = append(e.Parts[:len(e.Parts):len(e.Parts)], ScorePart{Name: "lex_guard", Op: "=", Value: f.Score,
				Doc: "one of a lex: line's first three, kept at or above its place there: it takes the score of the result below it"})
			h.Explain = &e
		}
		out.Results = append(out.Results, h)
	}
	if out.TotalFilesSearched, err = run.Files(ctx); err != nil {
		return nil, err
	}
	if missing := run.Missing(); len(missing) > 0 {
		out.Errors = append(out.Errors, missing...)
		out.Truncated, out.TruncatedReason = true, TruncatedShards
	}
	FitBytes(&out.Results, s.Budget(ctx, req.MaxBytes), &out.Truncated, &out.TruncatedReason)
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// expandVariant returns the lex variants of an expand query: the nearest terms of its words
// in the searched workspaces' models, each once ("" when none has any).
func ExpandVariant(ctx context.Context, xs []*workspace.SearchIndex, text string) (string, error) {
	seen := map[string]bool{}
	var words []string
	for _, x := range xs {
		ws, err := x.ExpandWords(ctx, text)
		if err != nil {
			return "", err
		}
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	return strings.Join(words, " "), nil
}

// lineName names a document's line in messages: line 2 (vec:), searches[1] (vec).
func lineName(l query.DocLine, list bool) string {
	if list {
		return fmt.Sprintf("searches[%d] (%s)", l.Line-1, l.Type)
	}
	return fmt.Sprintf("line %d (%s:)", l.Line, l.Type)
}

// plainWords returns the letters and digits of text as words: a vec: line's words, for the
// parts of a search that read words (whether it is about tests).
func plainWords(text string) string {
	f := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	if len(f) == 0 {
		return "x"
	}
	return strings.Join(f, " ")
}

// intentWords returns the intent's words worth matching: lower-cased, three letters or more.
func intentWords(intent string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(intent), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 && !intentStop[w] {
			out = append(out, w)
		}
	}
	return out
}

var intentStop = map[string]bool{"the": true, "and": true, "for": true, "with": true, "that": true, "this": true, "from": true, "into": true, "how": true, "what": true, "when": true, "where": true, "which": true, "about": true}

// intentShare is the share of the intent's words a hit's path, name, signature and lines
// hold.
func intentShare(h Hit, words []string) float64 {
	var b strings.Builder
	b.WriteString(strings.ToLower(h.Path + " " + h.Name + " " + h.Signature + " " + h.Text))
	for _, c := range h.Context {
		b.WriteString(" " + strings.ToLower(c.Text))
	}
	text := b.String()
	n := 0
	for _, w := range words {
		if strings.Contains(text, w) {
			n++
		}
	}
	return float64(n) / float64(len(words))
}

// rrfSum is the part of a fused score its lines' ranks made.
func rrfSum(f scoring.Fused) float64 {
	sum := 0.0
	for _, p := range f.Parts {
		sum += p.Contribution
	}
	return sum
}

// explainFused sets a fused hit's explanation: the fusion's parts, and its rank in each
// line (with the parts of its score in the first line that found it).
func explainFused(h *Hit, f scoring.Fused, lines []string, promotion, intent float64) {
	e := &search.Explanation{Score: f.Score}
	first := true // byKey holds the hit as the first line that found it has it
	for _, p := range f.Parts {
		l := search.LineRank{Line: lines[p.List], Rank: p.Rank, Contribution: p.Contribution}
		if first && h.Explain != nil {
			l.Parts = h.Explain.Parts
		}
		first = false
		e.Lines = append(e.Lines, l)
	}
	e.Parts = append(e.Parts, search.ScorePart{Name: "rrf", Op: "=", Value: rrfSum(f), Doc: "the fused score: the sum of the lines' weight/(60+rank), the first line weighing double"})
	if f.Bonus != 0 {
		e.Parts = append(e.Parts, search.ScorePart{Name: "top_rank_bonus", Op: "+", Value: f.Bonus, Doc: "first in a line's results (0.05), or second or third (0.02)"})
	}
	if intent > 1e-12 {
		e.Parts = append(e.Parts, search.ScorePart{Name: "intent", Op: "+", Value: intent, Doc: "the share of the intent's words its path, name, signature and lines hold"})
	}
	if promotion != 0 {
		e.Parts = append(e.Parts, search.ScorePart{Name: "promotion", Op: "+", Value: promotion, Doc: "a lex: line's exact or qualified name, after fusion"})
	}
	h.Explain = e
}

// Explanation is why a search result ranks where it does (explain).
type Explanation = search.Explanation

// ScorePart is one part of a search result's score (explain).
type ScorePart = search.ScorePart
