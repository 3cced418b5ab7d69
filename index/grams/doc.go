// Package grams is a file-level n-gram index of file text: trigrams and hashed 4-grams of
// identifier bytes.
// Given literals combined with And and Or, it returns the files that may satisfy them: a
// superset of those that do, which the caller verifies against the real text. It replaces
// bleve's full-text index of file content, so build speed, query speed, memory and size are
// all measured (below).
//
// # Keys
//
// Text is folded first: ASCII A-Z lower-cased, every other byte (UTF-8 bytes >= 0x80 too) as
// it is. A trigram is 3 consecutive folded bytes; its key is b0<<16 | b1<<8 | b2, below
// 1<<24. A 4-gram is 4 consecutive folded bytes, g = b0<<24 | b1<<16 | b2<<8 | b3; its key
// is 1<<24 | hash24(g), hash24(g) = (g * 0x9E3779B1 mod 1<<32) >> 8 (a multiplicative hash
// to 24 bits), so keys are uint32 below 1<<25 and no 4-gram key is a trigram key. Of the
// 1<<32 4-grams, 256 share each hash: 4-grams that collide share a posting, which holds the
// documents of both, so a collision only adds candidates, never loses one (on 40 MB of Go,
// 476,474 distinct 4-grams gave 469,764 keys). Only 4-grams of four identifier bytes (a-z,
// 0-9, _ after folding: wordByte) are indexed and asked for. A document is indexed as the
// set of its distinct keys: no positions, no counts.
//
// A query literal is folded the same way and asks for the keys of its trigrams and of its
// identifier 4-grams, all of them (the rarest first), less trigrams holding a byte >= 0x80, because
// Unicode case folding of the text (which a caller's verification may apply) can change
// such bytes. A literal of 3 usable bytes asks for its trigram alone; one left with no
// trigram (shorter than 3 bytes, say) constrains nothing. So a file that holds a literal
// under ASCII case folding holds every key the literal keeps, and is a candidate:
// Candidates never misses a file.
//
// Why 4-grams: with trigrams alone, a literal made of common trigrams has many false
// candidates, each a file the caller reads (from SQLite, zstd) and rejects, which made such
// searches slow. On a 292 MB corpus (25k files), `usestate` had 3,669 candidates by its
// trigrams and no file holding it, `serializer` 867 for 159 files and `mergemap` 124 for
// 25; files holding their 4-grams too number 80, 246 and 27 (counted with grep). On 40 MB
// of Go's own sources (TestFilter), candidates by trigrams -> by trigrams and 4-grams
// (files holding it): `usestate` 477 -> 7 (0), `serializer` 130 -> 6 (0), `mergemap` 28 ->
// 0 (0), `errnotexist` 94 -> 33 (28), `newreadersize` 52 -> 8 (2), `if x == nil` 140 -> 38
// (14), `) error {` 382 -> 339 (323), `return` 1,662 -> 1,656 (1,656), with every 4-gram
// indexed; but that made segments 52% of the text instead of 16.5% (see the measurements).
// Indexing only the 4-grams of identifier bytes keeps the same candidates for identifiers and
// words, segments 25.5% of the text, built at 206 MB/s (BenchmarkBuild, against 215 with
// trigrams alone); literals with punctuation keep their trigrams' candidates (`if x == nil`
// 140, `) error {` 382). The index of corpus.sh full: 47 MB with trigrams alone.
//
// # Segments
//
// An index is a set of immutable segment files, each written once (by a Builder, or by a
// merge of other segments) and mapped read-only by its readers. A segment numbers its
// documents in (prior, path) order, the caller's ranking order (a lower prior first, e.g.
// source before tests), so a segment's candidates come out in that order without a sort,
// and the candidates of several segments are merged.
//
// The segment file, all integers little-endian:
//
//	header      128 bytes
//	  magic       8 bytes  "QGRAMS1\n"
//	  version     uint32   2 (1: trigrams alone, refused)
//	  headerLen   uint32   128
//	  docs        uint32   documents in the segment
//	  grams       uint32   distinct keys: directory entries
//	  smallMax    uint32   32: a posting of at most this many documents is a varint list
//	  blockSize   uint32   65536: the span of postings each block CRC covers
//	  sections    9 uint64 offset and length of the docs, postings, directory and block-CRC
//	                       sections (in this order, adjacent), then the file's size
//	  CRCs        3 uint32 CRC-32C of the docs section, of the directory, of the block CRCs
//	  reserved    8 bytes  zero
//	  headerCRC   uint32   CRC-32C of the header's first 124 bytes
//	docs        priors [docs]uint8, zeros to a multiple of 4 bytes, path offsets
//	            [docs+1]uint32 into the path bytes, the paths' bytes; in (prior, path) order
//	postings    one a key, in key order: uvarint n (documents, >= 1), then n uvarints
//	            (the first document, then each gap - 1) when n <= smallMax, else the
//	            documents as a roaring bitmap in the portable format (RoaringFormatSpec)
//	directory   keys [grams]uint32 increasing, then offsets [grams+1]uint32 into the
//	            postings: entry i's posting is postings[offsets[i]:offsets[i+1]]
//	blockCRCs   CRC-32C of each 64 KiB of the postings (the last block may be shorter)
//
// OpenSegment checks the magic, the version (another version, such as 1 before the 4-grams,
// is an error wrapping ErrCorrupt that says both, and the caller builds the index again),
// the header's CRC, the file's size against the header's (a truncated file), the places and
// lengths of the sections, the CRCs of the documents, the directory and the block CRCs, and
// the order of the path offsets and the priors: a truncated or damaged file is an error
// wrapping ErrCorrupt, never a panic or a wrong answer. The postings are checked a 64 KiB
// block at a time, the first time a query reads one (a bit per block, set atomically),
// rather than all on open, which would read the whole index on every open (every
// command-line search): opening the segment of the 40 MB sample below takes 0.2 ms, most
// of it the directory's CRC (0.07 ms with trigrams alone). A damaged posting constrains
// nothing, so an answer stays a superset; Segment.Err and Index.Err report it, Verify
// checks a whole file.
//
// The cardinality heading each posting lets a query order keys by rarity without decoding
// them. Lists of up to smallMax documents are varints, smaller than roaring's 9 + 2n bytes
// and decoded without its allocations; measured on the 40 MB sample with trigrams alone,
// segments are 17.5% of the text with smallMax 8, 16.5% with 32 and 15.0% with 128,
// Candidates' times the same within noise. Roaring postings are read in place with FromBuffer
// (BenchmarkDecode: 104 ns a posting, against 110 ns for FromUnsafeBytes, 232 ns for a
// copying ReadFrom, and 74 ns for FrozenView, whose format would need every posting padded
// to 32 bytes; each about 1,300 ns once intersected with a common trigram's posting).
//
// # Queries
//
// Match looks each key of a query up by binary search of the directory (in the mapped
// file). An And of literals is one set of keys: a key the segment lacks answers nothing at
// once, the others' postings are intersected rarest first, stopping when the
// result is empty, then the And's Or parts are intersected. An Or is the union of its parts;
// a part that matches everything makes the Or match everything. Index.Candidates takes each
// segment's matches less its deleted documents, maps them to paths and priors, and merges
// the segments' lists by (prior, path), a path at most once.
//
// # Writing an index
//
// A Manifest lists an index's segments and the documents deleted in each (a roaring bitmap
// each); the caller stores it (in SQLite, atomically with its own state) and gives it to
// Open. A Writer starts from the committed manifest: Put of a path marks its older documents
// deleted wherever they are (a binary search in each committed segment, a map for the
// segments this writer wrote) and adds the text to an in-memory Builder, written as a new
// segment whenever it holds more than FlushBytes (64 MiB) of text, which bounds the
// writer's memory. Finish writes the rest, applies the merge policy and returns the new
// manifest. Nothing is committed by this package: segment files get new names
// (seg-<16 hex digits>.qg, from the clock and never below a name the directory or the
// manifest holds) and are written to a temporary file, fsync'ed, renamed and the directory
// fsync'ed before the manifest naming them is returned. A crash at any point leaves the
// committed manifest's files as they were; Clean, after the commit or on the next open,
// removes the files no committed manifest lists (a crashed run's segments, merged-away
// segments, temporary files).
//
// The merge policy: a full build writes segments of about FlushBytes of text, an
// incremental run one small segment. When more than 8 segments are smaller than 1/8 of the
// largest (by file size), Finish merges all those small ones into one, so incremental runs
// cost a query at most 8 extra small segments; and a segment more than half of whose
// documents are deleted is rewritten with its live ones, so deleted documents cost at most
// as much as live ones. A merge reads no text: it unions the segments' postings per key
// with the documents renumbered into the merged (prior, path) order, deleted ones dropped.
// BenchmarkMerge: 10 segments of the 40 MB sample (25 MiB) merge into one of 20.7 MiB in
// 190 ms (7.6 MiB into 6.6 MiB in 60 ms with trigrams alone). Writer.Compact merges
// everything into one.
//
// # Measurements
//
// On Go's own sources (GOROOT/src .go files in lexical order; tests and testdata with prior
// 1), one core of an AMD EPYC; in parentheses, with trigrams alone (the format's version 1),
// measured the same day, with every 4-gram indexed (before the rule of identifier bytes,
// which brought the 40 MB build back to 206 MB/s and the segment to 25.5% of the text):
//
//   - Build, BenchmarkBuild (Add and Write of 40 MB, 2,443 files, as one segment): 165 MB/s
//     (215), 1.3 times the time; the segment is 51.6% of the text (16.5%): 470k 4-gram keys
//     beside 89k trigrams, 6.1M (document, 4-gram) pairs beside 3.6M, 1.8 bytes a pair and 8
//     a key in the directory. TestBuilderMemory (64 MiB, 5,822 files): Add 244 MB/s (228),
//     Write 215 ms (155), 137 MB/s in all (153); the builder's heap 52 MiB after the last Add
//     (26), its peak at most 71 MiB (35); the segment 67% of the text (22%).
//   - Candidates, BenchmarkCandidates (the 40 MB in one segment; in five), candidates and
//     times: a rare word 33 (94) in 8 µs (8), 21 µs (18); "return" 1,656 (1,662) in 43 µs
//     (38), 116 µs (106); "func (" 776 (800) in 33 µs (26), 68 µs (61); an And of two words
//     8 (59) in 6 µs (8), 13 µs (14); an Or of two 145 (186) in 10 µs (10), 32 µs (27);
//     "NewReaderSize" 8 (52) in 9 µs (9), 21 µs (21). A literal asks for more postings
//     ("return" 7, not 4), which costs a common one up to 25%; each false candidate gone
//     spares the caller reading a file, far more. Most of the time is the paths of the
//     candidates; across segments, the map that keeps a path once is about 30% of it.
//   - Open of a segment: 0.2 ms (0.07); the first query after it checks the CRCs of the
//     blocks it reads (BenchmarkOpen).
package grams
