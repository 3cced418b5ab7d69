package extract

import (
	"cmp"
	"context"
	"slices"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// Embedded code: a host file holds code of another language (the <script> of an HTML page,
// a Vue or Svelte component's script and style, a fenced code block of a Markdown file). A
// host extractor asks for each such region with walker.embed; once it is done, Extract
// parses the regions with the guest language's grammar restricted to them (tree-sitter's
// included ranges, so every position is already the host file's) and runs the guest's
// extractor over them. One mechanism serves every host and guest.

// embedding is one region of a host file to extract as another language.
type embedding struct {
	lang    string // a language name or alias of the registry (ts, python, sh)
	ranges  []sitter.Range
	parent  *Symbol // the enclosing symbol of what the region defines, or nil
	example bool    // the region is an example (code in documentation)
}

// maxEmbeddings bounds the regions of one file that are extracted: a generated page with
// thousands of inline scripts keeps the first ones.
const maxEmbeddings = 256

// embed asks for the source of the nodes to be extracted as the language named lang (a name
// or alias; a language without an extractor is skipped) once the host's extractor is done.
// The nodes form one document of the guest language, in order (a Svelte file's two
// scripts are two embeds). What the region defines gets parent as its parent; example marks
// it as an example, ranked below source. Regions found while extracting a region are not
// extracted: embedding is one level deep.
func (w *walker) embed(lang string, parent *Symbol, example bool, nodes ...*Node) {
	var ranges []sitter.Range
	for _, n := range nodes {
		if n != nil {
			ranges = append(ranges, nodeRange(n))
		}
	}
	w.embedRanges(lang, parent, example, ranges)
}

// embedRanges is embed of ranges of the source, in order and not overlapping.
func (w *walker) embedRanges(lang string, parent *Symbol, example bool, ranges []sitter.Range) {
	if w.guest || len(w.embeds) >= maxEmbeddings || lang == "" {
		return
	}
	ranges = slices.DeleteFunc(ranges, func(r sitter.Range) bool { return r.EndByte <= r.StartByte })
	if len(ranges) == 0 {
		return
	}
	w.embeds = append(w.embeds, embedding{lang: lang, ranges: ranges, parent: parent, example: example})
}

// nodeRange returns the range of the source n spans.
func nodeRange(n *Node) sitter.Range {
	return sitter.Range{StartPoint: n.StartPoint(), EndPoint: n.EndPoint(), StartByte: n.StartByte(), EndByte: n.EndByte()}
}

// rangesWithout returns the range of n without its children of type skip: a Markdown code
// block's content without the block quote markers and list indentation that continue it
// on each line.
func rangesWithout(n *Node, skip string) []sitter.Range {
	var out []sitter.Range
	cur := nodeRange(n)
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != skip {
			continue
		}
		out = append(out, sitter.Range{StartPoint: cur.StartPoint, EndPoint: c.StartPoint(), StartByte: cur.StartByte, EndByte: c.StartByte()})
		cur.StartPoint, cur.StartByte = c.EndPoint(), c.EndByte()
	}
	return append(out, cur)
}

// extractEmbedded extracts the regions the host's extractor asked for into the host's file.
// The guest's symbols get the guest's language; examples are marked with the metadata
// example=true. A region whose parse fails (it ran out of time) is counted as a parse error
// of the file and left out: the host's symbols stay.
func (e *Extractor) extractEmbedded(w *walker) {
	for _, em := range w.embeds {
		lang, ok := e.reg.Lookup(em.lang)
		if !ok || extractors[lang.Name] == nil || lang.Name == w.lang.Name {
			continue
		}
		size := 0
		for _, r := range em.ranges {
			size += int(r.EndByte - r.StartByte)
		}
		tree, err := e.parseRanges(lang.Grammar, w.src, em.ranges, size)
		if err != nil {
			w.f.ParseErrors++
			continue
		}
		guest := &walker{f: w.f, src: w.src, lang: lang, calls: w.calls, ascii: w.ascii, guest: true}
		root := flatten(tree, w.src)
		tree.Close()
		extractors[lang.Name](guest, root)
		if root.HasError() {
			w.f.ParseErrors += countErrors(root)
		}
		root.t.release()
		// The guest's extractor ran as on a file of its own (its top level is its module
		// level); what it left at the top goes under the host's parent.
		for _, s := range guest.syms {
			if s.ParentID == "" && em.parent != nil {
				s.ParentID = em.parent.ID
			}
			if em.example {
				meta(s, "example", "true")
			}
		}
		w.syms = append(w.syms, guest.syms...)
	}
	if len(w.embeds) > 0 {
		// In source order, as a file of one language lists them: a guest's definitions
		// sit among the host's.
		slices.SortStableFunc(w.syms, func(a, b *Symbol) int { return cmp.Compare(a.StartByte, b.StartByte) })
	}
}

// guestParsers pool the parsers of embedded regions apart from the others: their included
// ranges are set before every parse, while a pooled host parser must keep the whole file.
var guestParsers sync.Map // grammar name -> *sync.Pool of *sitter.Parser

// parseRanges parses the ranges of src with grammar, within the time allowed for size bytes.
func (e *Extractor) parseRanges(grammar string, src []byte, ranges []sitter.Range, size int) (*sitter.Tree, error) {
	pool, _ := guestParsers.LoadOrStore(grammar, &sync.Pool{})
	p, ok := pool.(*sync.Pool).Get().(*sitter.Parser)
	if !ok {
		p = sitter.NewParser()
		p.SetLanguage(grammars[grammar]())
	}
	p.SetIncludedRanges(ranges)
	limit := e.parseLimit(size)
	p.SetOperationLimit(int(limit.Microseconds()))
	tree, err := p.ParseCtx(context.Background(), nil, src) // no cancellable context: see parse
	if err != nil {
		p.Reset()
		pool.(*sync.Pool).Put(p)
		return nil, parseError(err, limit)
	}
	pool.(*sync.Pool).Put(p)
	return tree, nil
}
