// Package grams is a file-level trigram index of file text. Given literals combined with
// And and Or, it returns the files that may satisfy them: a superset of those that do, which
// the caller verifies against the real text. It replaces bleve's full-text index of file
// content, so build speed, query speed, memory and size are all measured (below).
//
// # Trigrams
//
// A trigram is 3 consecutive bytes of a file's text, ASCII A-Z lower-cased and every other
// byte (UTF-8 bytes >= 0x80 too) as it is; its key is b0<<16 | b1<<8 | b2. A document is
// indexed as the set of its distinct trigram keys: no positions, no counts. A query literal
// is folded the same way, and its trigrams holding a byte >= 0x80 are dropped, because
// Unicode case folding of the text (which a caller's verification may apply) can change
// such bytes. A literal left with no trigram (shorter than 3 bytes, say) constrains nothing.
// So a file that holds a literal under ASCII case folding holds every trigram the literal
// keeps, and is a candidate: Candidates never misses a file.
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
//	  version     uint32   1
//	  headerLen   uint32   128
//	  docs        uint32   documents in the segment
//	  grams       uint32   distinct trigrams: directory entries
//	  smallMax    uint32   32: a posting of at most this many documents is a varint list
//	  blockSize   uint32   65536: the span of postings each block CRC covers
//	  sections    9 uint64 offset and length of the docs, postings, directory and block-CRC
//	                       sections (in this order, adjacent), then the file's size
//	  CRCs        3 uint32 CRC-32C of the docs section, of the directory, of the block CRCs
//	  reserved    8 bytes  zero
//	  headerCRC   uint32   CRC-32C of the header's first 124 bytes
//	docs        priors [docs]uint8, zeros to a multiple of 4 bytes, path offsets
//	            [docs+1]uint32 into the path bytes, the paths' bytes; in (prior, path) order
//	postings    one a trigram, in key order: uvarint n (documents, >= 1), then n uvarints
//	            (the first document, then each gap - 1) when n <= smallMax, else the
//	            documents as a roaring bitmap in the portable format (RoaringFormatSpec)
//	directory   keys [grams]uint32 increasing, then offsets [grams+1]uint32 into the
//	            postings: entry i's posting is postings[offsets[i]:offsets[i+1]]
//	blockCRCs   CRC-32C of each 64 KiB of the postings (the last block may be shorter)
//
// OpenSegment checks the magic, the version, the header's CRC, the file's size against the
// header's (a truncated file), the places and lengths of the sections, the CRCs of the
// documents, the directory and the block CRCs, and the order of the path offsets and the
// priors: a truncated or damaged file is an error wrapping ErrCorrupt, never a panic or a
// wrong answer. The postings are checked a 64 KiB block at a time, the first time a query
// reads one (a bit per block, set atomically), rather than all on open, which would read
// the whole index on every open (every command-line search): opening the segment of the
// 40 MB sample below takes 0.1 ms. A damaged posting constrains nothing, so an answer stays
// a superset; Segment.Err and Index.Err report it, Verify checks a whole file.
//
// The cardinality heading each posting lets a query order trigrams by rarity without
// decoding them. Lists of up to smallMax documents are varints, smaller than roaring's
// 9 + 2n bytes and decoded without its allocations; measured on the 40 MB sample, segments
// are 17.5% of the text with smallMax 8, 16.5% with 32 and 15.0% with 128, Candidates'
// times the same within noise. Roaring postings are read in place with FromBuffer
// (BenchmarkDecode: 104 ns a posting, against 110 ns for FromUnsafeBytes, 232 ns for a
// copying ReadFrom, and 74 ns for FrozenView, whose format would need every posting padded
// to 32 bytes; each about 1,300 ns once intersected with a common trigram's posting).
//
// # Queries
//
// Match looks each trigram of a query up by binary search of the directory (in the mapped
// file). An And of literals is one set of trigrams: a trigram the segment lacks answers
// nothing at once, the others' postings are intersected rarest first, stopping when the
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
// as much as live ones. A merge reads no text: it unions the segments' postings per trigram
// with the documents renumbered into the merged (prior, path) order, deleted ones dropped.
// BenchmarkMerge: 10 segments of the 40 MB sample (7.6 MiB) merge into one of 6.6 MiB in
// 60 ms. Writer.Compact merges everything into one.
//
// # Measurements
//
// On Go's own sources (GOROOT/src .go files in lexical order; tests and testdata with prior
// 1), one core of an AMD EPYC:
//
//   - Build, BenchmarkBuild (Add and Write of 40 MB, 2,443 files, as one segment): 219 MB/s;
//     the segment is 16.5% of the text. TestBuilderMemory (64 MiB, 5,822 files): Add 258
//     MB/s, Write 120 ms, 175 MB/s in all; the builder's heap 26 MiB after the last Add, its
//     peak at most 35 MiB; the segment 22% of the text.
//   - Candidates, BenchmarkCandidates (the 40 MB in one segment; in five): a rare word
//     (94 files) 9 µs (18 µs); "return" (1,662 files) 46 µs (121 µs); "func (" (800 files)
//     32 µs (78 µs); an And of two words 9 µs (14 µs); an Or of two 10 µs (26 µs). Most of
//     the time is the paths of the candidates; across segments, the map that keeps a path
//     once is about 30% of it.
//   - Open of a segment: 0.1 ms; the first query after it checks the CRCs of the blocks it
//     reads (BenchmarkOpen).
package grams
