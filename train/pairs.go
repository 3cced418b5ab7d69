package main

// A pairs file holds one JSON object a line (Pair), in the order of the files' paths and
// the definitions' positions in them. Every word field is the definition's or comment's
// words (tokenizer atoms through codemodel.Normalize) joined by single spaces.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/codemodel"
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/scoring"
	"github.com/quarrysearch/quarry/tokenizer"
	"github.com/quarrysearch/quarry/workspace"
)

// Pair limits.
const (
	// minDocWords is the fewest words a doc comment must have to make a pair.
	minDocWords = 3
	// minFirstWords is the fewest words its first sentence must have.
	minFirstWords = 2
	// maxDocWords is the most words kept of a whole doc comment (and of a name or signature).
	maxDocWords = codemodel.MaxTextWords
	// generatedProbe is how many leading bytes are searched for a generated-code marker.
	generatedProbe = 4096
)

// Pair is one documented definition: the query side (its doc comment) and the code side.
type Pair struct {
	Lang  string `json:"lang"`
	Path  string `json:"path"`  // relative to the walked root
	Group string `json:"group"` // the package it belongs to, for the validation split
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	First string `json:"first"` // words of the doc comment's first sentence
	Doc   string `json:"doc"`   // words of the whole doc comment
	Words string `json:"words"` // words of the name
	Sig   string `json:"sig"`   // words of the signature
	Body  string `json:"body"`  // distinct words of the identifiers used in the body
	// Source is where the query side comes from: "" (the definition's doc comment), or
	// SourceTest, SourceMention.
	Source string `json:"source,omitempty"`
}

// The sources of a pair's query side besides the doc comment (issue 42: pairs that read
// like questions).
const (
	// SourceTest: the name of a test that describes a behaviour (test_rejects_expired_cookie,
	// it('retries after a timeout')), paired with the definition of its package it calls
	// most.
	SourceTest = "test"
	// SourceMention: a sentence of a comment that names another definition of the package
	// ("Use ReadAll to read everything"), the name's words left out, paired with it.
	SourceMention = "mention"
)

// pairStats counts what a pairs run kept and left out.
type pairStats struct {
	files, skippedFiles, pairs, undocumented, duplicates int
	byLang, bySource                                     map[string]int
}

func runPairs(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("pairs", flag.ContinueOnError)
	src := fs.String("src", "", "the source tree to walk")
	dst := fs.String("out", "", "the pairs file to write (JSON lines)")
	exclude := fs.String("exclude", "", "comma-separated path prefixes under -src to leave out")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *src == "" || *dst == "" {
		return usageError("pairs: -src and -out are required\n" + usage)
	}
	var prefixes []string
	if *exclude != "" {
		prefixes = strings.Split(*exclude, ",")
	}
	pairs, st, err := collectPairs(ctx, *src, prefixes)
	if err != nil {
		return err
	}
	if err := writePairs(*dst, pairs); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d files read, %d left out (vendored, generated, docs); %d pairs, %d duplicates dropped, %d definitions undocumented\n",
		st.files, st.skippedFiles, st.pairs, st.duplicates, st.undocumented)
	fmt.Fprintf(out, "  by source: doc comment %d, test name %d, mention %d\n", st.bySource[""], st.bySource[SourceTest], st.bySource[SourceMention])
	langs := make([]string, 0, len(st.byLang))
	for l := range st.byLang {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	for _, l := range langs {
		fmt.Fprintf(out, "  %-12s %d\n", l, st.byLang[l])
	}
	return nil
}

// collectPairs walks root and returns the pairs of its files in order, near-duplicates
// dropped. The files are read package by package (group): a package's definitions, those
// without a doc comment too, are what its tests and comments are paired with.
func collectPairs(ctx context.Context, root string, exclude []string) ([]Pair, pairStats, error) {
	st := pairStats{byLang: map[string]int{}, bySource: map[string]int{}}
	reg, err := languages.Default()
	if err != nil {
		return nil, st, err
	}
	walk, err := workspace.Walk(ctx, root, workspace.WalkOptions{Languages: reg})
	if err != nil {
		return nil, st, err
	}
	var groups [][]workspace.Candidate
	at := map[string]int{}
	for _, f := range walk.Files {
		if excluded(f.Path, exclude) {
			continue
		}
		g := group(f.Path)
		i, ok := at[g]
		if !ok {
			i = len(groups)
			at[g] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	results := make([]groupPairs, len(groups))
	ex := extract.New(reg, extract.Options{})
	tk := tokenizer.New(nil)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				results[i] = packagePairs(ctx, ex, tk, groups[i])
			}
		})
	}
	for i := range groups {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	seen := map[string]bool{}
	var pairs []Pair
	for _, r := range results {
		st.files += r.files
		st.skippedFiles += r.skipped
		st.undocumented += r.undocumented
		for _, p := range r.pairs {
			key := p.First + "\x00" + p.Words
			if seen[key] {
				st.duplicates++
				continue
			}
			seen[key] = true
			pairs = append(pairs, p)
			st.byLang[p.Lang]++
			st.bySource[p.Source]++
		}
	}
	st.pairs = len(pairs)
	return pairs, st, nil
}

// groupPairs is what one package gave.
type groupPairs struct {
	pairs                        []Pair
	files, skipped, undocumented int
}

// extracted is a file of a package, read and extracted.
type extracted struct {
	f    *extract.File
	src  []byte
	test bool
}

// packagePairs returns the pairs of one package's files: its documented definitions', then
// its tests' and its comments' mentions of its definitions.
func packagePairs(ctx context.Context, ex *extract.Extractor, tk *tokenizer.Tokenizer, files []workspace.Candidate) groupPairs {
	var r groupPairs
	var read []extracted
	defs := map[string]Pair{} // a definition of the package by name: its code side (the first of that name)
	for _, f := range files {
		r.files++
		xf, src, test, ok := readFile(ctx, ex, f)
		if !ok {
			r.skipped++
			continue
		}
		read = append(read, extracted{xf, src, test})
		if test {
			continue
		}
		for _, s := range xf.Symbols {
			if !pairKind(s.Kind) || languages.CategoryOf(s.Language) != languages.Code {
				continue
			}
			code := codeSide(tk, xf, s)
			if _, ok := defs[s.Name]; !ok {
				defs[s.Name] = code
			}
			p, ok := makePair(tk, xf, s, code)
			if !ok {
				r.undocumented++
				continue
			}
			r.pairs = append(r.pairs, p)
		}
	}
	for _, e := range read {
		if e.test {
			r.pairs = append(r.pairs, testPairs(tk, e.f, e.src, defs)...)
		} else {
			r.pairs = append(r.pairs, mentionPairs(tk, e.f, defs)...)
		}
	}
	return r
}

// excluded reports whether p is under one of the prefixes.
func excluded(p string, prefixes []string) bool {
	for _, x := range prefixes {
		if x != "" && strings.HasPrefix(p, x) {
			return true
		}
	}
	return false
}

// readFile reads and extracts f; test reports a test file (its tests make pairs, its
// definitions do not). ok is false for a file left out: vendored, generated, documentation,
// unreadable.
func readFile(ctx context.Context, ex *extract.Extractor, f workspace.Candidate) (xf *extract.File, src []byte, test, ok bool) {
	class := scoring.Classify(f.Path)
	if class != scoring.Source && class != scoring.Test {
		return nil, nil, false, false
	}
	src, err := workspace.ReadRegularFile(f.AbsPath)
	if err != nil || workspace.Classify(f.Path, src) != "" || generated(src) {
		return nil, nil, false, false
	}
	xf, err = ex.Extract(ctx, f.Path, src, nil)
	if err != nil || xf.Skipped != "" {
		return nil, nil, false, false
	}
	return xf, src, class == scoring.Test, true
}

// pairKind reports whether definitions of kind k make pairs: what is called or declares a
// type (in a language of code: not a stylesheet's or configuration's keys).
func pairKind(k extract.Kind) bool { return k.IsCallable() || k.IsType() }

// generated reports whether src says it is generated code in its first bytes.
func generated(src []byte) bool {
	head := src[:min(len(src), generatedProbe)]
	return bytes.Contains(head, []byte("DO NOT EDIT")) || bytes.Contains(head, []byte("@generated")) ||
		bytes.Contains(bytes.ToLower(head), []byte("auto-generated")) || bytes.Contains(bytes.ToLower(head), []byte("autogenerated"))
}

// codeSide returns the code side of the definition s of file f: all of a pair but its
// query side.
func codeSide(tk *tokenizer.Tokenizer, f *extract.File, s extract.Symbol) Pair {
	return Pair{
		Lang:  s.Language,
		Path:  f.Path,
		Group: group(f.Path),
		Name:  s.Name,
		Kind:  s.Kind.String(),
		Words: strings.Join(words(tk, s.Name, maxDocWords), " "),
		Sig:   strings.Join(words(tk, s.Signature, maxDocWords), " "),
		Body:  strings.Join(bodyWords(tk, f, s), " "),
	}
}

// makePair returns the pair of the definition s (its code side code) of file f, if its doc
// comment says enough.
func makePair(tk *tokenizer.Tokenizer, f *extract.File, s extract.Symbol, code Pair) (Pair, bool) {
	doc := words(tk, s.DocComment, maxDocWords)
	first := words(tk, firstSentence(s.DocComment), maxDocWords)
	if len(doc) < minDocWords || len(first) < minFirstWords {
		return Pair{}, false
	}
	code.First, code.Doc = strings.Join(first, " "), strings.Join(doc, " ")
	return code, true
}

// words returns the model's words of text (tokenizer atoms through codemodel.Normalize), at
// most limit.
func words(tk *tokenizer.Tokenizer, text string, limit int) []string {
	return codemodel.Words(tk.Atoms(nil, text), limit)
}

// bodyWords returns the distinct words of the identifiers used inside s, in order of first
// use, at most codemodel.MaxBodyWords.
func bodyWords(tk *tokenizer.Tokenizer, f *extract.File, s extract.Symbol) []string {
	var names []string
	for _, id := range f.Identifiers {
		if id.StartByte >= s.StartByte && id.StartByte < s.EndByte {
			names = append(names, id.Name)
		}
	}
	return codemodel.BodyWords(names, func(n string) []string { return tk.Atoms(nil, n) })
}

// firstSentence returns a doc comment's first sentence: up to the first period followed by
// a space or line end, or the first blank line.
func firstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	for i := 0; i+1 < len(doc); i++ {
		if doc[i] == '.' && (doc[i+1] == ' ' || doc[i+1] == '\n') {
			return doc[:i]
		}
	}
	return doc
}

// group returns the package a path belongs to, for the validation split: the directories
// down to a Go module's versioned one, without its version (so two versions of a module
// fall on the same side), else its first two directories.
func group(p string) string {
	parts := strings.Split(path.Dir(p), "/")
	for i, d := range parts {
		if at := strings.IndexByte(d, '@'); at >= 0 {
			return strings.Join(append(parts[:i:i], d[:at]), "/")
		}
	}
	return strings.Join(parts[:min(len(parts), 2)], "/")
}

// writePairs writes pairs to the file name as JSON lines.
func writePairs(name string, pairs []Pair) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, p := range pairs {
		if err := enc.Encode(p); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readPairs reads a pairs file.
func readPairs(name string) ([]Pair, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Pair
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var p Pair
		if err := dec.Decode(&p); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("read pairs %s: pair %d: %w", name, len(out)+1, err)
		}
		out = append(out, p)
	}
}
