package main

// train rerank: the learned reranker of a question's candidates (issue 42, scoring.Reranker).
//
// It indexes a workspace of training packages (never the benchmark corpus), asks it
// questions whose answer is known, and records for every question the features of all its
// candidates (index/search's Request.Observe: the very vectors the search computes) and
// which one is the answer. The questions are of two sources:
//   - written: descriptions written by reading the packages' code (-queries, the quality
//     suite's JSON format), in the words a developer would use without knowing the name;
//   - doc: the first sentence of a documented definition's doc comment, its name's words
//     and code spans left out, at most eight words (-synthetic per language).
//
// Gradient-boosted trees are then fitted to them with LambdaMART's gradients (lambdamart.go)
// on the packages outside a validation share, written questions weighing -written-weight
// each; the validation packages' MRR@10, before (the search's order) and after, is printed
// per source and written into the model's Trained line.

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/scoring"
	"github.com/quarrysearch/quarry/tokenizer"
	"github.com/quarrysearch/quarry/workspace"
)

// rerankQuery is a question with its known answer.
type rerankQuery struct {
	ID      string `json:"id"`
	Lang    string `json:"lang"`
	Package string `json:"package"`
	Query   string `json:"query"`
	Target  struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Name string `json:"name"`
	} `json:"target"`
	source string  // "written" or "doc"
	edit   docEdit // a doc question's: its sentence, taken out of the copy it is asked of
}

// rerankGroup is a question's candidates: their features, the answer's place among them
// (-1: not a candidate) and the place the search gave it.
type rerankGroup struct {
	q      rerankQuery
	x      [][]float64
	target int
	weight float64
	val    bool
}

// targetSlack is how far a candidate's line may be from the answer's (decorators,
// attributes and annotations come before the name), as the quality suite allows.
const targetSlack = 3

// matches reports whether h is q's answer.
func (q rerankQuery) matches(h search.Hit) bool {
	if h.Path != q.Target.Path || h.Name != q.Target.Name {
		return false
	}
	d := h.Line - q.Target.Line
	return d >= -targetSlack && d <= targetSlack || h.Line <= q.Target.Line && q.Target.Line <= h.EndLine
}

type rerankOptions struct {
	ws, queries, out string
	synthetic        int
	seed             uint64
	writtenWeight    float64
	valShare         int
	fit              fitTreesOptions
	dump, load       string
	maxPlace, kept   int
}

func runRerank(ctx context.Context, args []string, out io.Writer) error {
	var o rerankOptions
	fs := flag.NewFlagSet("rerank", flag.ContinueOnError)
	fs.StringVar(&o.ws, "ws", "", "the workspace of training packages to index and question (never the benchmark corpus)")
	fs.StringVar(&o.queries, "queries", "", "files of written questions (JSON arrays in the quality suite's format, with package), comma-separated")
	fs.StringVar(&o.out, "out", "", "the reranker file to write (scoring/rerank.json ships it)")
	fs.IntVar(&o.synthetic, "synthetic", 400, "doc-comment questions per language, asked of a copy without their sentences")
	fs.IntVar(&o.kept, "kept", 0, "doc-comment questions per language asked of the workspace as it is (their answer's comment holds them)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the question sample and of the trees")
	fs.Float64Var(&o.writtenWeight, "written-weight", 4, "weight of a written question against a doc-comment one")
	fs.IntVar(&o.valShare, "val", 4, "one question in this many is held out for validation")
	fs.IntVar(&o.fit.trees, "trees", 300, "trees at most (the validation's best count is kept)")
	fs.IntVar(&o.fit.leaves, "leaves", 12, "leaves per tree")
	fs.Float64Var(&o.fit.rate, "lr", 0.05, "learning rate (shrinkage)")
	fs.IntVar(&o.fit.minLeaf, "min-leaf", 40, "fewest candidates in a leaf")
	fs.IntVar(&o.maxPlace, "max-place", 0, "train only on the questions whose answer the search places within this many (0: all); validation keeps every question")
	fs.Float64Var(&o.fit.base, "base", 0, "weight of the search's order (1 / place) under the trees: the larger, the less they move it")
	fs.StringVar(&o.dump, "dump", "", "also write every question's candidates and features here (JSON lines)")
	fs.StringVar(&o.load, "load", "", "fit on the questions of a -dump file instead of indexing and asking (-ws, -queries and -synthetic are not read)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (o.ws == "" && o.load == "") || o.out == "" {
		return usageError("rerank: -ws (or -load) and -out are required\n" + usage)
	}
	var groups []rerankGroup
	var err error
	if o.load != "" {
		groups, err = loadGroups(o.load)
	} else {
		groups, err = askQuestions(ctx, o, out)
	}
	if err != nil {
		return err
	}
	written := 0
	for i := range groups {
		g := &groups[i]
		g.val = heldOut(g.q.ID+"\x00"+g.q.Query, o.valShare)
		g.weight = 1
		if g.q.source == "written" {
			g.weight = o.writtenWeight
			written++
		}
	}
	if o.dump != "" {
		if err := dumpGroups(o.dump, groups); err != nil {
			return err
		}
	}
	var train, val []rerankGroup
	for _, g := range groups {
		switch {
		case g.val:
			val = append(val, g)
		case o.maxPlace == 0 || g.target >= 0 && g.target < o.maxPlace:
			train = append(train, g)
		}
	}
	r, curve := fitTrees(train, val, o.fit)
	report := rerankReport(groups, r)
	fmt.Fprint(out, curve, report)
	r.Features = slices.Clone(scoring.RerankFeatures)
	r.Trained = fmt.Sprintf("train rerank -synthetic %d -kept %d -seed %d -written-weight %g -val %d -trees %d -leaves %d -lr %g -min-leaf %d -base %g: %d trees; %d questions (%d written); validation MRR@10 %s",
		o.synthetic, o.kept, o.seed, o.writtenWeight, o.valShare, o.fit.trees, o.fit.leaves, o.fit.rate, o.fit.minLeaf, o.fit.base, len(r.Trees), len(groups), written, valSummary(val, r))
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := scoring.DecodeReranker(b); err != nil {
		return err
	}
	return os.WriteFile(o.out, append(b, '\n'), 0o644)
}

// askQuestions indexes o.ws, asks it the written and doc-comment questions and returns
// their groups.
func askQuestions(ctx context.Context, o rerankOptions, out io.Writer) ([]rerankGroup, error) {
	root, err := filepath.Abs(o.ws)
	if err != nil {
		return nil, err
	}
	reg, err := languages.Default()
	if err != nil {
		return nil, err
	}
	id := workspace.ID(root)
	dir := workspace.IndexDir(root, id)
	sum, err := workspace.Index(ctx, root, dir, reg, workspace.IndexOptions{})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	fmt.Fprintf(out, "indexed %s: %d files added, %d changed, %d definitions with a vector\n", root, sum.Added, sum.Changed, sum.Vectors.Vectored)
	var queries []rerankQuery
	for _, name := range strings.Split(o.queries, ",") {
		if name == "" {
			continue
		}
		qs, err := readWritten(name)
		if err != nil {
			return nil, err
		}
		queries = append(queries, qs...)
	}
	written := len(queries)
	synth, err := docQuestions(ctx, root, reg, o.synthetic, o.seed)
	if err != nil {
		return nil, err
	}
	x, err := workspace.OpenSearch(workspace.Entry{ID: id, Root: root}, dir)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	if o.kept > 0 {
		// Doc questions asked of the workspace as it is: their answer's comment holds them.
		kept, err := docQuestions(ctx, root, reg, o.kept, o.seed+1)
		if err != nil {
			return nil, err
		}
		for i := range kept {
			kept[i].source, kept[i].ID = "doc-kept", "kept-"+kept[i].ID
		}
		queries = append(queries, kept...)
	}
	groups, err := gatherGroups(ctx, x.Searcher(), queries)
	if err != nil || len(synth) == 0 {
		return groups, err
	}
	// The doc questions, of a copy without their sentences.
	docs := root + "-docs"
	edits := map[string][]docEdit{}
	for _, q := range synth {
		edits[q.Target.Path] = append(edits[q.Target.Path], q.edit)
	}
	applied, err := copyWithEdits(root, docs, edits)
	if err != nil {
		return nil, err
	}
	var asked []rerankQuery
	for _, q := range synth {
		if applied[q.Target.Path][q.edit.line] {
			asked = append(asked, q)
		}
	}
	fmt.Fprintf(out, "%d questions: %d written, %d from doc comments (%d of %d sentences found and taken out of %s)\n", len(queries)+len(asked), written, len(asked), len(asked), len(synth), docs)
	did, dsum, err := workspace.ID(docs), (*workspace.Summary)(nil), error(nil)
	ddir := workspace.IndexDir(docs, did)
	if dsum, err = workspace.Index(ctx, docs, ddir, reg, workspace.IndexOptions{}); err != nil {
		return nil, fmt.Errorf("index %s: %w", docs, err)
	}
	fmt.Fprintf(out, "indexed %s: %d definitions with a vector\n", docs, dsum.Vectors.Vectored)
	dx, err := workspace.OpenSearch(workspace.Entry{ID: did, Root: docs}, ddir)
	if err != nil {
		return nil, err
	}
	defer dx.Close()
	more, err := gatherGroups(ctx, dx.Searcher(), asked)
	return append(groups, more...), err
}

// loadGroups reads the groups of a -dump file.
func loadGroups(name string) ([]rerankGroup, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var groups []rerankGroup
	for {
		var d dumped
		if err := dec.Decode(&d); err == io.EOF {
			return groups, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, x := range d.X {
			if len(x) != len(scoring.RerankFeatures) {
				return nil, fmt.Errorf("%s: question %s has %d features, the ranking gives %d: dump it again", name, d.ID, len(x), len(scoring.RerankFeatures))
			}
		}
		q := rerankQuery{ID: d.ID, Lang: d.Lang, Package: d.Package, Query: d.Query, source: d.Source}
		groups = append(groups, rerankGroup{q: q, x: d.X, target: d.Target})
	}
}

// dumped is a group as a -dump file holds it.
type dumped struct {
	ID      string      `json:"id"`
	Source  string      `json:"source"`
	Lang    string      `json:"lang"`
	Package string      `json:"package"`
	Query   string      `json:"query"`
	Target  int         `json:"target"`
	X       [][]float64 `json:"x"`
}

// heldOut reports whether a question is among the validation share (one in n, by a hash
// of its id and text). Packages are too few to split by (one Java, one TypeScript).
func heldOut(key string, n int) bool {
	h := fnv.New32a()
	h.Write([]byte("rerank\x00" + key))
	return n > 0 && h.Sum32()%uint32(n) == 0
}

// readWritten reads a file of written questions.
func readWritten(name string) ([]rerankQuery, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var qs []rerankQuery
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range qs {
		q := &qs[i]
		if q.Query == "" || q.Target.Path == "" || q.Target.Name == "" || q.Package == "" {
			return nil, fmt.Errorf("%s: question %q lacks a query, a target path and name, or a package", name, q.ID)
		}
		q.source = "written"
	}
	return qs, nil
}

// docQuestions returns up to perLang questions a language from the doc comments of root's
// documented functions, methods and types (its source files: not tests, vendored or
// generated code): the first sentence's words, without code spans, the name's words and
// words of one letter or with digits, at most maxQuestionWords, when at least
// minQuestionWords of them are not stop words. The sample is the seed's.
func docQuestions(ctx context.Context, root string, reg *languages.Registry, perLang int, seed uint64) ([]rerankQuery, error) {
	walk, err := workspace.Walk(ctx, root, workspace.WalkOptions{Languages: reg})
	if err != nil {
		return nil, err
	}
	ex := extract.New(reg, extract.Options{})
	tk := tokenizer.New(nil)
	byLang := map[string][]rerankQuery{}
	for _, f := range walk.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		xf, _, test, ok := readFile(ctx, ex, f)
		if !ok || test {
			continue
		}
		for _, s := range xf.Symbols {
			if !pairKind(s.Kind) || languages.CategoryOf(s.Language) != languages.Code || s.DocComment == "" {
				continue
			}
			text, ok := docQuestion(tk, s.Name, s.DocComment)
			first := firstSentence(s.DocComment)
			if !ok || len(sentenceWords(s.DocComment))-len(sentenceWords(first)) < minRestWords {
				continue // the comment would be left with too little to say
			}
			q := rerankQuery{Lang: s.Language, Package: group(f.Path), Query: text, source: "doc", edit: docEdit{line: s.StartLine, words: sentenceWords(first)}}
			q.Target.Path, q.Target.Line, q.Target.Name = f.Path, s.StartLine, s.Name
			byLang[s.Language] = append(byLang[s.Language], q)
		}
	}
	var out []rerankQuery
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	for _, l := range langs {
		qs := byLang[l]
		rng := rand.New(rand.NewPCG(seed, uint64(len(l))<<32|uint64(hashString(l))))
		rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
		for i := range qs[:min(perLang, len(qs))] {
			qs[i].ID = fmt.Sprintf("doc-%s-%d", l, i+1)
			out = append(out, qs[i])
		}
	}
	return out, nil
}

func hashString(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// The bounds of a doc-comment question.
const (
	maxQuestionWords = 8
	minQuestionWords = 3
	// minRestWords is the fewest words its answer's comment must keep without the sentence.
	minRestWords = 4
)

// docQuestion makes a question of a doc comment for the definition name (see docQuestions).
func docQuestion(tk *tokenizer.Tokenizer, name, doc string) (string, bool) {
	first := firstSentence(doc)
	// Code spans name code, not what it does.
	for {
		i := strings.IndexByte(first, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(first[i+1:], '`')
		if j < 0 {
			first = first[:i]
			break
		}
		first = first[:i] + " " + first[i+1+j+1:]
	}
	nameWords := map[string]bool{strings.ToLower(name): true}
	for _, a := range tk.Atoms(nil, name) {
		nameWords[strings.ToLower(a)] = true
	}
	var words []string
	content := 0
	for _, w := range strings.FieldsFunc(first, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		lw := strings.ToLower(w)
		if len(lw) < 2 || nameWords[lw] || nameWords[strings.TrimSuffix(lw, "s")] || strings.ContainsFunc(lw, func(r rune) bool { return unicode.IsDigit(r) || r == '_' || r > unicode.MaxASCII }) {
			continue
		}
		if w != lw && strings.ToLower(w[:1])+w[1:] != lw {
			continue // an inner capital: a name (HTTPServer, camelCase)
		}
		words = append(words, lw)
		if !search.StopWord(lw) {
			content++
		}
		if len(words) == maxQuestionWords {
			break
		}
	}
	if content < minQuestionWords {
		return "", false
	}
	return strings.Join(words, " "), true
}

// gatherGroups asks every question of the searcher (the definitions target, as `quarry
// search` asks a question) and records its candidates' features.
func gatherGroups(ctx context.Context, s *search.Searcher, queries []rerankQuery) ([]rerankGroup, error) {
	var groups []rerankGroup
	for _, q := range queries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pq, err := query.Parse(q.Query)
		if err != nil {
			continue // a question the query language refuses (NOT at its end) is not asked
		}
		g := rerankGroup{q: q, target: -1}
		req := search.Request{Query: pq, Target: search.TargetDefinitions, Limit: 10, Observe: func(hits []search.Hit, features [][]float64) {
			for i, h := range hits {
				g.x = append(g.x, slices.Clone(features[i]))
				if g.target < 0 && q.matches(h) {
					g.target = i
				}
			}
		}}
		if _, err := s.Search(ctx, req); err != nil {
			return nil, fmt.Errorf("question %s %q: %w", q.ID, q.Query, err)
		}
		if g.x == nil {
			continue // not a question to the search (names, or no vectors)
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// dumpGroups writes every group as a JSON line.
func dumpGroups(name string, groups []rerankGroup) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, g := range groups {
		if err := enc.Encode(dumped{ID: g.q.ID, Source: g.q.source, Lang: g.q.Lang, Package: g.q.Package, Query: g.q.Query, Target: g.target, X: g.x}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// mrrAt10 is the reciprocal of a 0-based place, 0 beyond the tenth (or -1: not found).
func mrrAt10(place int) float64 {
	if place < 0 || place >= 10 {
		return 0
	}
	return 1 / float64(place+1)
}

// rankedPlace returns the answer's place in g when its candidates are ordered by score
// (ties: the search's order); -1 when it is not a candidate.
func rankedPlace(g rerankGroup, score func(x []float64) float64) int {
	scores := make([]float64, len(g.x))
	for i, x := range g.x {
		scores[i] = score(x)
	}
	return placeOf(g.target, scores)
}

// groupMRR returns the MRR@10 of groups, before (the search's order) and after reranking.
func groupMRR(groups []rerankGroup, r *scoring.Reranker) (before, after float64) {
	if len(groups) == 0 {
		return 0, 0
	}
	for _, g := range groups {
		before += mrrAt10(g.target)
		after += mrrAt10(rankedPlace(g, r.Score))
	}
	return before / float64(len(groups)), after / float64(len(groups))
}

// valSummary is the validation figures of the Trained line.
func valSummary(val []rerankGroup, r *scoring.Reranker) string {
	var parts []string
	for _, src := range []string{"written", "doc", "doc-kept"} {
		var gs []rerankGroup
		for _, g := range val {
			if g.q.source == src {
				gs = append(gs, g)
			}
		}
		b, a := groupMRR(gs, r)
		parts = append(parts, fmt.Sprintf("%s %.3f -> %.3f (%d)", src, b, a, len(gs)))
	}
	return strings.Join(parts, ", ")
}

// rerankReport is a table of MRR@10 before and after, by split, source and language.
func rerankReport(groups []rerankGroup, r *scoring.Reranker) string {
	type key struct{ split, source, lang string }
	by := map[key][]rerankGroup{}
	for _, g := range groups {
		split := "train"
		if g.val {
			split = "val"
		}
		for _, k := range []key{{split, g.q.source, "all"}, {split, g.q.source, g.q.Lang}} {
			by[k] = append(by[k], g)
		}
	}
	keys := make([]key, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.split, b.split), cmp.Compare(a.source, b.source), cmp.Compare(a.lang, b.lang))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "| split | source | language | questions | answer a candidate | MRR@10 before | after |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, k := range keys {
		gs := by[k]
		found := 0
		for _, g := range gs {
			if g.target >= 0 {
				found++
			}
		}
		bm, am := groupMRR(gs, r)
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %.3f | %.3f |\n", k.split, k.source, k.lang, len(gs), found, bm, am)
	}
	return b.String()
}
