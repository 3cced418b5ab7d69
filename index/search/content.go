package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/index/grams"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/scoring"
)

// needles returns what a content hit must hold, lower-cased: each quoted phrase as written
// and each bare word.
func needles(q *query.Query) []string {
	var out []string
	for _, n := range append(q.Phrases(), q.Words()...) {
		if n = strings.ToLower(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// content returns up to want matching lines for q, best first, and whether the query was
// relaxed from all words to any. A file's lines are those holding the most of the words
// (every line holding a one-word query); perFile > 0 keeps at most perFile of them
// (auto's mix), 0 keeps them all, grouped by file: files by their best line, a file's
// lines best first.
func (s *Searcher) content(ctx context.Context, req Request, q *query.Query, keepTests bool, want, perFile int) ([]Hit, bool, error) {
	needles := needles(q)
	if len(needles) == 0 {
		return nil, false, ErrEmptyQuery
	}
	if len(needles) > maxQueryTokens {
		return nil, false, badRequest("query", "query has %d words; the most is %d", len(needles), maxQueryTokens)
	}
	hits, err := s.contentSearch(ctx, req, needles, true, keepTests, want, perFile)
	if err != nil || len(hits) > 0 || len(needles) < 2 {
		return hits, false, err
	}
	hits, err = s.contentSearch(ctx, req, needles, false, keepTests, want, perFile)
	return hits, len(hits) > 0, err
}

// Content ranking. The content index finds the files that may hold the needles, in its
// order (ContentPrior: class, then size; then path). They are verified in that order and
// ranked in blocks: each run of contentBlockFiles files holding the needles is ordered by
// BM25 over the needles' occurrences times its path's weight, and the blocks follow each
// other. A block's order does not depend on how many lines are wanted, so the pages of a
// content search never repeat or skip a line; auto's mix takes one block of the files it
// wants (want, at least contentAutoFiles).
const (
	contentBlockFiles = 50
	contentAutoFiles  = 20
	bm25K1            = 1.2
	bm25B             = 0.75
	// contentAvgBytes is the length BM25 normalizes a file's by: about the average
	// indexed source file (11.5 KB on corpus.sh full).
	contentAvgBytes = 12 << 10
)

// contentSearch verifies the content index's candidate files, a block at a time, until
// want lines hold the needles (every one, unless !all) or the candidates run out.
func (s *Searcher) contentSearch(ctx context.Context, req Request, needles []string, all, keepTests bool, want, perFile int) ([]Hit, error) {
	var cands []grams.Doc
	var idf []float64
	err := s.withGrams(func(ix *grams.Index) {
		cands = ix.Candidates(needlesQuery(needles, all))
		idf = needlesIDF(ix, needles, len(cands))
	})
	if err != nil {
		return nil, err
	}
	cands = s.admitDocs(ctx, &req, cands)
	block := contentBlockFiles
	if perFile > 0 {
		block = max(want, contentAutoFiles)
	}
	var hits, pending []Hit
	files := 0
	counts := make([]int, len(needles))
	flush := func() {
		if perFile > 0 {
			sortHits(pending, nil)
		} else {
			sortGrouped(pending)
		}
		hits = append(hits, pending...)
		pending, files = pending[:0:0], 0
	}
	for _, d := range cands {
		if ctx.Err() != nil {
			break // out of time: what was found is answered
		}
		text, err := s.contents.fileText(ctx, s.store.Store, d.Path)
		lang, content := text.lang, text.content
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, err
		}
		if content == nil || req.Language != "" && lang != req.Language {
			continue
		}
		class := scoring.Classify(d.Path)
		found := matchLines(text, needles, all, d.Path, lang, class, 1, perFile, counts)
		if len(found) == 0 {
			continue
		}
		score := bm25File(len(content), counts, idf) * scoring.PathWeight(class, keepTests)
		for i := range found {
			found[i].Score *= score
		}
		pending = append(pending, found...)
		if files++; files == block {
			flush()
			if len(hits) >= want || perFile > 0 {
				break
			}
		}
	}
	flush()
	return hits, nil
}

// needlesIDF returns each needle's inverse document frequency among the content index's
// files: from the count of the needle's candidates alone (a superset of the files holding
// it), or from the query's candidates when it has one needle.
func needlesIDF(ix *grams.Index, needles []string, candidates int) []float64 {
	out := make([]float64, len(needles))
	n := float64(ix.Docs())
	for i, needle := range needles {
		df := float64(candidates)
		if len(needles) > 1 {
			df = float64(ix.Count(grams.Literal(needle)))
		}
		out[i] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return out
}

// bm25File scores a file of size bytes by BM25 over its needles' occurrences (counts).
func bm25File(size int, counts []int, idf []float64) float64 {
	norm := bm25K1 * (1 - bm25B + bm25B*float64(size)/contentAvgBytes)
	score := 0.0
	for i, c := range counts {
		if tf := float64(c); tf > 0 {
			score += idf[i] * tf * (bm25K1 + 1) / (tf + norm)
		}
	}
	return score
}

// sortGrouped orders content hits grouped by file: files by their best line, then by
// path; a file's lines best first, then in order.
func sortGrouped(hits []Hit) {
	best := map[string]float64{}
	for _, h := range hits {
		best[h.Path] = max(best[h.Path], h.Score)
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if ba, bb := best[a.Path], best[b.Path]; ba != bb {
			return cmpDesc(ba, bb)
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Score != b.Score {
			return cmpDesc(a.Score, b.Score)
		}
		return a.Line - b.Line
	})
}

// matchLines verifies one candidate file against the needles and returns its best lines as
// hits: none when the file does not hold every needle (any, when relaxed), else the lines
// holding the most needles, at most maxContentLinesPerFile of them.
//
// The content cache's lower-cased copy and chunk filter of the text, when it has them,
// speed up the search for ASCII needles.
func matchLines(text cachedText, needles []string, all bool, path, lang string, class scoring.PathClass, fileScore float64, perFile int, counts []int) []Hit {
	content := text.content
	ascii := isASCII(needles)
	// Most candidates that fail do so here, without lower-casing the file. One needle is
	// looked for by matchLinesASCII alone, which finds none in such a file: a check first
	// read a file that holds it twice (sqlite3.c, 9 MB, for sqlite3VdbeExec).
	if ascii && len(needles) > 1 && !holdsNeedles(content, needles, all) {
		return nil
	}
	if ascii && !slices.ContainsFunc(needles, func(n string) bool { return n == "" || strings.ContainsRune(n, '\n') }) {
		return matchLinesASCII(text, needles, path, lang, class, fileScore, perFile, counts)
	}
	return matchLinesLower(content, needles, ascii, all, path, lang, class, fileScore, perFile, counts)
}

// matchLinesLower is matchLines over a lower-cased copy of the file, line by line.
func matchLinesLower(content []byte, needles []string, ascii, all bool, path, lang string, class scoring.PathClass, fileScore float64, perFile int, counts []int) []Hit {
	var lower []byte
	if ascii {
		buf := lowerPool.Get().(*[]byte)
		defer lowerPool.Put(buf)
		*buf = asciiLower((*buf)[:0], content)
		lower = *buf
	} else if lower = bytes.ToLower(content); len(lower) != len(content) {
		lower = asciiLower(nil, content) // keep byte offsets when a rune changes length
	}
	present := 0
	for i, n := range needles {
		c := bytes.Count(lower, []byte(n))
		if c > 0 {
			present++
		}
		if counts != nil {
			counts[i] = c
		}
	}
	if present == 0 || all && present < len(needles) {
		return nil
	}
	together := strings.Join(needles, " ")
	var hits []Hit
	best := 0
	line := 0
	for start := 0; start < len(lower); {
		end := bytes.IndexByte(lower[start:], '\n')
		if end < 0 {
			end = len(lower)
		} else {
			end += start
		}
		line++
		l := lower[start:end]
		cov, col := 0, -1
		for _, n := range needles {
			if i := bytes.Index(l, []byte(n)); i >= 0 {
				cov++
				if col < 0 || i < col {
					col = i
				}
			}
		}
		if cov > 0 && cov >= best {
			if cov > best {
				hits, best = hits[:0], cov
			}
			if perFile == 0 || len(hits) < perFile {
				score := scoring.LineScore(fileScore, cov, len(needles), len(needles) > 1 && bytes.Contains(l, []byte(together)))
				hits = append(hits, Hit{Hit: HitContent, Path: path, Language: lang, Line: line, EndLine: line,
					Column: utf8.RuneCount(content[start:start+col]) + 1, Text: store.LineText(content[start:end]), Score: score, class: class})
			}
		}
		start = end + 1
	}
	return hits
}

// matchLinesASCII is matchLines for ASCII needles without line breaks, which the file is
// known to hold: it visits only the lines holding an occurrence of a needle, found in the
// text as it is (no scan of every line), or in its lower-cased copy when the content cache
// keeps one (lower), so a hit in a 9 MB file costs what its occurrences cost.
func matchLinesASCII(text cachedText, needles []string, path, lang string, class scoring.PathClass, fileScore float64, perFile int, counts []int) []Hit {
	content, lower := text.content, text.lower
	type occ struct{ at, needle int }
	var occs []occ
	for ni, n := range needles {
		c, next := 0, 0 // occurrences without overlaps, as bytes.Count counts them
		nb, at := []byte(n), rareByteOf(n)
		var bits []uint32
		if lower != nil && text.chunks != nil && len(nb) <= chunkBytes {
			bits = needleBits(nb)
		}
		for from := 0; from < len(content); {
			var i int
			switch {
			case len(bits) > 0:
				if i = indexChunked(lower, nb, at, from, text.chunks, bits); i >= 0 {
					i -= from
				}
			case lower != nil:
				i = indexLower(lower[from:], nb, at)
			default:
				i = indexFoldASCII(content[from:], n)
			}
			if i < 0 {
				break
			}
			occs = append(occs, occ{from + i, ni})
			if from+i >= next {
				c, next = c+1, from+i+len(n)
			}
			from += i + 1
		}
		if counts != nil {
			counts[ni] = c
		}
	}
	slices.SortFunc(occs, func(a, b occ) int { return a.at - b.at })
	together := strings.Join(needles, " ")
	var hits []Hit
	best, line, counted := 0, 1, 0 // line: the number of the line starting at counted
	seen := make([]bool, len(needles))
	for k := 0; k < len(occs); {
		start := bytes.LastIndexByte(content[:occs[k].at], '\n') + 1
		end := bytes.IndexByte(content[occs[k].at:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += occs[k].at
		}
		line += bytes.Count(content[counted:start], []byte{'\n'})
		counted = start
		clear(seen)
		cov, col := 0, -1
		for ; k < len(occs) && occs[k].at < end; k++ {
			o := occs[k]
			if o.at+len(needles[o.needle]) > end || seen[o.needle] {
				continue
			}
			seen[o.needle] = true
			cov++
			if col < 0 || o.at-start < col {
				col = o.at - start
			}
		}
		if cov > 0 && cov >= best {
			if cov > best {
				hits, best = hits[:0], cov
			}
			if perFile == 0 || len(hits) < perFile {
				l := content[start:end]
				score := scoring.LineScore(fileScore, cov, len(needles), len(needles) > 1 && indexFoldASCII(l, together) >= 0)
				hits = append(hits, Hit{Hit: HitContent, Path: path, Language: lang, Line: line, EndLine: line,
					Column: utf8.RuneCount(l[:col]) + 1, Text: store.LineText(l), Score: score, class: class})
			}
		}
	}
	return hits
}

// lowerPool holds the buffers content is lower-cased into.
var lowerPool = sync.Pool{New: func() any { return new([]byte) }}

// asciiLower appends b with its ASCII letters lower-cased to dst: offsets stay those of b,
// and needles of ASCII letters match whatever the case of the text.
func asciiLower(dst, b []byte) []byte {
	at := len(dst)
	dst = slices.Grow(dst, len(b))[:at+len(b)]
	out := dst[at:]
	// Eight bytes at a time: a byte below 0x80 that is 'A'..'Z' gets 0x20 added (a letter
	// of another case, and every byte >= 0x80, is left as it is).
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	le := binary.LittleEndian
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := le.Uint64(b[i:])
		seven := x &^ high                      // each byte's low 7 bits: adding below cannot carry out of a byte
		atLeastA := seven + ones*(0x80-'A')     // high bit: the byte's low 7 bits >= 'A'
		aboveZ := seven + ones*(0x80-'Z'-1)     // high bit: the byte's low 7 bits > 'Z'
		upper := atLeastA &^ aboveZ &^ x & high // and the byte itself < 0x80
		le.PutUint64(out[i:], x|upper>>2)
	}
	for ; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return dst
}

// holdsNeedles reports whether content holds every needle (any, unless all), ignoring the
// case of ASCII letters. The needles are ASCII and lower-case.
func holdsNeedles(content []byte, needles []string, all bool) bool {
	for _, n := range needles {
		found := containsFoldASCII(content, n)
		if found && !all {
			return true
		}
		if !found && all {
			return false
		}
	}
	return all
}

// containsFoldASCII reports whether s holds needle (ASCII, lower-case) but for the case of
// ASCII letters.
func containsFoldASCII(s []byte, needle string) bool { return indexFoldASCII(s, needle) >= 0 }

// indexFoldASCII returns the offset of the first occurrence in s of needle (ASCII,
// lower-case) but for the case of ASCII letters, or -1. It jumps between the occurrences, in
// either case, of the needle's rarest byte in source code (rareByteOf): anchored on the
// first byte, "errnorows" stopped at every e of a file (on ErrNoRows, 60% of a warm
// search's time on corpus.sh full went to such stops).
func indexFoldASCII(s []byte, needle string) int {
	n := len(needle)
	if n == 0 {
		return 0
	}
	at := rareByteOf(needle)
	lo, up := needle[at], needle[at]
	if 'a' <= lo && lo <= 'z' {
		up = lo - ('a' - 'A')
	}
	nextLo, nextUp := -1, -1 // the next occurrences at or after j, -2 when there is none
	for j := at; j+n-at <= len(s); j++ {
		if nextLo != -2 && nextLo < j {
			if nextLo = bytes.IndexByte(s[j:], lo); nextLo >= 0 {
				nextLo += j
			} else {
				nextLo = -2
			}
		}
		if lo != up && nextUp != -2 && nextUp < j {
			if nextUp = bytes.IndexByte(s[j:], up); nextUp >= 0 {
				nextUp += j
			} else {
				nextUp = -2
			}
		}
		switch {
		case nextLo < 0 && (lo == up || nextUp < 0):
			return -1
		case nextLo < 0 || lo != up && nextUp >= 0 && nextUp < nextLo:
			j = nextUp
		default:
			j = nextLo
		}
		if i := j - at; j+n-at <= len(s) && equalFoldASCII(s[i:i+n], needle) {
			return i
		}
	}
	return -1
}

// equalFoldASCII reports whether b is needle (ASCII, lower-case) but for the case of ASCII
// letters; len(b) == len(needle).
func equalFoldASCII(b []byte, needle string) bool {
	for k := range len(needle) {
		c := b[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != needle[k] {
			return false
		}
	}
	return true
}

// codeByteOrder lists bytes from the most to the least frequent in source code (letters
// counted in both cases); a byte not listed is rarer than all of them.
const codeByteOrder = " etnrsoiaclud\n\t_pmf(),.h=;gy\"b:{}v/*x-k'w[]>0<1&+#2!|@$%\\jqz?^~`"

// codeByteRank is codeByteOrder as ranks: 0 for the rarest bytes.
var codeByteRank = func() (r [256]uint8) {
	for i := range len(codeByteOrder) {
		r[codeByteOrder[i]] = uint8(len(codeByteOrder) - i)
	}
	return r
}()

// rareByteOf returns the position in needle of its rarest byte (the last of equals).
func rareByteOf(needle string) int {
	best := 0
	for i := 1; i < len(needle); i++ {
		if codeByteRank[needle[i]] <= codeByteRank[needle[best]] {
			best = i
		}
	}
	return best
}

// indexLower returns the offset of the first occurrence in lower, a lower-cased text, of
// needle (lower-case), or -1: it jumps between the occurrences of the needle's byte at
// (its rarest, rareByteOf), of one case only, which is what the lower-cased copy saves
// over indexFoldASCII. (bytes.Index anchors on the first byte, often a common one: 9 MB of
// sqlite3.c cost it 9 ms for sqlite3vdbeexec.)
func indexLower(lower, needle []byte, at int) int {
	n := len(needle)
	c := needle[at]
	for j := at; j+n-at <= len(lower); j++ {
		k := bytes.IndexByte(lower[j:len(lower)-(n-at-1)], c)
		if k < 0 {
			return -1
		}
		j += k
		if i := j - at; bytes.Equal(lower[i:i+n], needle) {
			return i
		}
	}
	return -1
}

// isASCII reports whether every needle is ASCII.
func isASCII(needles []string) bool {
	for _, n := range needles {
		for i := 0; i < len(n); i++ {
			if n[i] >= utf8.RuneSelf {
				return false
			}
		}
	}
	return true
}
