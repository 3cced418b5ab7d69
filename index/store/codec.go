package store

// The store's compact encodings: file content compressed with zstd, and a file's identifiers
// as one blob (identBlob) with a name table, instead of a row each.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/klauspost/compress/zstd"

	"github.com/quarrysearch/quarry/extract"
)

// zstd coders, shared: EncodeAll and DecodeAll are safe for concurrent use.
var (
	zstdOnce sync.Once
	zstdEnc  *zstd.Encoder
	zstdDec  *zstd.Decoder
	zstdErr  error
)

func zstdCoders() (*zstd.Encoder, *zstd.Decoder, error) {
	zstdOnce.Do(func() {
		// Better than the default level: on corpus.sh full's 241 MB of files, 66.1 MB
		// in 1.4 s of CPU (the fastest level: 72.4 MB in 0.9 s), and a quarter faster to
		// decode (0.28 s against 0.36 s), which searches do.
		zstdEnc, zstdErr = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1),
			zstd.WithLowerEncoderMem(true))
		if zstdErr == nil {
			zstdDec, zstdErr = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(1<<30))
		}
	})
	return zstdEnc, zstdDec, zstdErr
}

// packContent returns content as the store holds it: a zstd frame, or empty for empty content.
func packContent(content []byte) ([]byte, error) {
	if len(content) == 0 {
		return []byte{}, nil
	}
	enc, _, err := zstdCoders()
	if err != nil {
		return nil, fmt.Errorf("index: zstd: %w", err)
	}
	return enc.EncodeAll(content, make([]byte, 0, len(content)/3+64)), nil
}

// unpackContent returns the content that packContent packed.
func unpackContent(packed []byte) ([]byte, error) {
	if len(packed) == 0 {
		return packed, nil
	}
	_, dec, err := zstdCoders()
	if err != nil {
		return nil, fmt.Errorf("index: zstd: %w", err)
	}
	out, err := dec.DecodeAll(packed, nil)
	if err != nil {
		return nil, fmt.Errorf("index: decompress stored content: %w", err)
	}
	return out, nil
}

// identBlobVersion is the first byte of an identifier blob.
const identBlobVersion = 2

// An identifier blob holds the identifiers of one file in their extraction order:
//
//	version byte (identBlobVersion)
//	uvarint n, then n names (uvarint length, bytes), in order of first use
//	uvarint m, then m containing symbol ids (uvarint length, bytes): "" (none) first, then
//	    the others in order of first use
//	uvarint q, then q qualifiers (extract.Identifier.Qualifier), likewise with "" first
//	uvarint k, then k identifiers:
//	    uvarint name index, byte kind, varint line delta, varint column,
//	    varint start byte delta, uvarint containing symbol index, uvarint qualifier index
//
// Deltas are from the previous identifier (the first from 0). An identifier's end follows
// from its start and name: it is one name on one line.

// encodeIdents returns the blob of ids (nil for none).
func encodeIdents(ids []extract.Identifier) []byte {
	if len(ids) == 0 {
		return nil
	}
	var names, containers, quals stringTable
	containers.ref(nil, "")
	quals.ref(nil, "")
	body := make([]byte, 0, 8*len(ids))
	line, start := 0, 0
	for i := range ids {
		x := &ids[i]
		body = names.ref(body, x.Name)
		body = append(body, byte(x.Kind))
		body = binary.AppendVarint(body, int64(x.StartLine-line))
		body = binary.AppendVarint(body, int64(x.StartColumn))
		body = binary.AppendVarint(body, int64(x.StartByte-start))
		body = containers.ref(body, x.ContainingSymbolID)
		body = quals.ref(body, x.Qualifier)
		line, start = x.StartLine, x.StartByte
	}
	b := make([]byte, 0, len(body)+16*len(names.list)+16*len(containers.list)+8*len(quals.list)+8)
	b = append(b, identBlobVersion)
	b = quals.appendList(containers.appendList(names.appendList(b)))
	b = binary.AppendUvarint(b, uint64(len(ids)))
	return append(b, body...)
}

var errBadBlob = errors.New("index: a stored blob is malformed")

// openBlob returns a reader of what follows blob's version byte, which must be version.
func openBlob(blob []byte, version byte) (*blobReader, error) {
	if blob[0] != version {
		return nil, fmt.Errorf("%w (version %d)", errBadBlob, blob[0])
	}
	return &blobReader{b: blob[1:]}, nil
}

// blobReader reads the varints, bytes and string tables of a blob.
type blobReader struct {
	b   []byte
	err error
}

func (r *blobReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = errBadBlob, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *blobReader) varint() int {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err, r.b = errBadBlob, nil
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *blobReader) bytes(n uint64) []byte {
	if uint64(len(r.b)) < n {
		r.err, r.b = errBadBlob, nil
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// strings reads a counted list of strings.
func (r *blobReader) strings() []string {
	n := r.uvarint()
	if n > uint64(len(r.b)) { // each string takes at least a byte
		r.err, r.b = errBadBlob, nil
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = string(r.bytes(r.uvarint()))
	}
	return out
}

// rawStrings reads a string table as slices of the blob (no copy).
func (r *blobReader) rawStrings() [][]byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) { // each string takes at least a byte
		r.err, r.b = errBadBlob, nil
		return nil
	}
	out := make([][]byte, n)
	for i := range out {
		out[i] = r.bytes(r.uvarint())
	}
	return out
}

// lazyStrings turns the entries of a raw string table into strings on first use.
type lazyStrings struct {
	raw  [][]byte
	made []string
	done []bool
}

func newLazyStrings(raw [][]byte) *lazyStrings {
	return &lazyStrings{raw: raw, made: make([]string, len(raw)), done: make([]bool, len(raw))}
}

func (l *lazyStrings) get(i uint64) string {
	if !l.done[i] {
		l.made[i], l.done[i] = string(l.raw[i]), true
	}
	return l.made[i]
}

// DecodeIdents calls fn for each identifier of blob, in order; keep, when not nil, says which
// names to decode (by their index in the name table): the others are skipped without
// building their identifier. keep is given a view of the blob, which it must not retain. fn returning false stops the walk.
func DecodeIdents(blob []byte, keep func(name string) bool, fn func(extract.Identifier) bool) error {
	if len(blob) == 0 {
		return nil
	}
	r, err := openBlob(blob, identBlobVersion)
	if err != nil {
		return err
	}
	// The tables are read as slices of the blob: a lookup of one name compares its entries
	// in place and makes strings of only the entries the kept identifiers use.
	names := newLazyStrings(r.rawStrings())
	containers := newLazyStrings(r.rawStrings())
	quals := newLazyStrings(r.rawStrings())
	var kept []bool
	if keep != nil {
		kept = make([]bool, len(names.raw))
		any := false
		for i, n := range names.raw {
			kept[i] = keep(unsafe.String(unsafe.SliceData(n), len(n)))
			any = any || kept[i]
		}
		if !any {
			return r.err
		}
	}
	k := r.uvarint()
	line, start := 0, 0
	for ; k > 0 && r.err == nil; k-- {
		ni := r.uvarint()
		kb := r.bytes(1)
		line += r.varint()
		col := r.varint()
		start += r.varint()
		ci := r.uvarint()
		qi := r.uvarint()
		if r.err != nil {
			break
		}
		if ni >= uint64(len(names.raw)) || ci >= uint64(len(containers.raw)) || qi >= uint64(len(quals.raw)) {
			return errBadBlob
		}
		if kept != nil && !kept[ni] {
			continue
		}
		x := extract.Identifier{Name: names.get(ni), Kind: extract.IdentKind(kb[0]), ContainingSymbolID: containers.get(ci), Qualifier: quals.get(qi)}
		x.StartLine, x.StartColumn, x.StartByte = line, col, start
		// An identifier is one name on one line: its end follows from its start.
		x.EndLine, x.EndColumn, x.EndByte = line, col+utf8.RuneCountInString(x.Name), start+len(x.Name)
		if !fn(x) {
			return nil
		}
	}
	return r.err
}

// identNameStats are the uses of one name in one file: how many, and the kinds among them
// (bit k set for extract.IdentKind k).
type identNameStats struct {
	n     int
	kinds uint32
}

// identStats returns the uses of each name among ids.
func identStats(ids []extract.Identifier) map[string]identNameStats {
	out := make(map[string]identNameStats, len(ids)/4+1)
	for i := range ids {
		countUse(out, &ids[i])
	}
	return out
}

// countUse adds x to the uses of its name in stats.
func countUse(stats map[string]identNameStats, x *extract.Identifier) {
	st := stats[x.Name]
	st.n++
	st.kinds |= 1 << x.Kind
	stats[x.Name] = st
}

// Relationship and type blobs hold one file's relationships or types in extraction order,
// with their strings in one table:
//
//	version byte (factBlobVersion)
//	uvarint n, then n strings (uvarint length, bytes), in order of first use
//	uvarint k, then k records:
//	    a relationship: uvarint from id, from name and to (string indexes), byte kind,
//	        varint line delta (from the previous record's line)
//	    a type: uvarint symbol id, role and type (string indexes)
const factBlobVersion = 1

// stringTable numbers the strings of a blob in order of first use.
type stringTable struct {
	index map[string]int
	list  []string
}

func (t *stringTable) ref(b []byte, s string) []byte {
	i, ok := t.index[s]
	if !ok {
		if t.index == nil {
			t.index = map[string]int{}
		}
		i = len(t.list)
		t.index[s] = i
		t.list = append(t.list, s)
	}
	return binary.AppendUvarint(b, uint64(i))
}

// appendList appends the table's strings to b: their count, then each (length, bytes).
func (t *stringTable) appendList(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(t.list)))
	for _, s := range t.list {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// blob returns the version byte, the table, the record count n and body.
func (t *stringTable) blob(version byte, n int, body []byte) []byte {
	out := make([]byte, 0, len(body)+16*len(t.list)+8)
	out = t.appendList(append(out, version))
	out = binary.AppendUvarint(out, uint64(n))
	return append(out, body...)
}

// encodeRels returns the blob of rels (nil for none).
func encodeRels(rels []extract.Relationship) []byte {
	if len(rels) == 0 {
		return nil
	}
	var t stringTable
	body := make([]byte, 0, 8*len(rels))
	line := 0
	for i := range rels {
		r := &rels[i]
		body = t.ref(body, r.FromID)
		body = t.ref(body, r.FromName)
		body = t.ref(body, r.To)
		body = append(body, byte(r.Kind))
		body = binary.AppendVarint(body, int64(r.Line-line))
		line = r.Line
	}
	return t.blob(factBlobVersion, len(rels), body)
}

// encodeTypes returns the blob of types (nil for none).
func encodeTypes(types []extract.TypeInfo) []byte {
	if len(types) == 0 {
		return nil
	}
	var t stringTable
	body := make([]byte, 0, 4*len(types))
	for i := range types {
		body = t.ref(body, types[i].SymbolID)
		body = t.ref(body, types[i].Role)
		body = t.ref(body, types[i].Type)
	}
	return t.blob(factBlobVersion, len(types), body)
}

// factReader reads a relationship or type blob: its string table, then records.
type factReader struct {
	blobReader
	strs []string
	n    uint64
}

func newFactReader(blob []byte) (*factReader, error) {
	if len(blob) == 0 {
		return &factReader{}, nil
	}
	br, err := openBlob(blob, factBlobVersion)
	if err != nil {
		return nil, err
	}
	r := &factReader{blobReader: *br}
	r.strs = r.strings()
	r.n = r.uvarint()
	return r, r.err
}

func (r *factReader) str() string {
	i := r.uvarint()
	if r.err != nil {
		return ""
	}
	if i >= uint64(len(r.strs)) {
		r.err, r.b = errBadBlob, nil
		return ""
	}
	return r.strs[i]
}

// DecodeRels returns the relationships of a blob.
func DecodeRels(blob []byte) ([]extract.Relationship, error) {
	r, err := newFactReader(blob)
	if err != nil {
		return nil, err
	}
	out := make([]extract.Relationship, 0, min(r.n, uint64(len(blob))))
	line := 0
	for k := r.n; k > 0 && r.err == nil; k-- {
		x := extract.Relationship{FromID: r.str(), FromName: r.str(), To: r.str()}
		if kb := r.bytes(1); kb != nil {
			x.Kind = extract.RelKind(kb[0])
		}
		line += r.varint()
		x.Line = line
		out = append(out, x)
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

// DecodeTypes returns the types of a blob.
func DecodeTypes(blob []byte) ([]extract.TypeInfo, error) {
	r, err := newFactReader(blob)
	if err != nil {
		return nil, err
	}
	out := make([]extract.TypeInfo, 0, min(r.n, uint64(len(blob))))
	for k := r.n; k > 0 && r.err == nil; k-- {
		out = append(out, extract.TypeInfo{SymbolID: r.str(), Role: r.str(), Type: r.str()})
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}
