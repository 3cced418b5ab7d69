package codemodel

// The model file, all integers little-endian:
//
//	magic    4 bytes  "QCM\x00"
//	version  uint32   FormatVersion (the layout and Normalize's word rules)
//	id       32 bytes SHA-256 of everything after it (dims, vocabulary, both tables)
//	dim      uint32   vector length, 1..maxDim
//	vocab    uint32   number of words, 1..maxVocab
//	words    vocab times: uvarint length, the word's bytes (sorted, distinct, non-empty)
//	query    the query table
//	code     the code table
//
// A table is vocab float32 pooling weights (finite, >= 0), vocab float32 row scales
// (finite, >= 0), then vocab rows of dim int8 values. The id is checked on Decode, so a
// damaged file is refused rather than giving wrong vectors.
//
// A file is 48 bytes, the words, and 2 * vocab * (8 + dim) bytes: at 128 dimensions about
// 281 bytes a word, 16.9 MB for 60,000 words; 24 MB holds about 85,000.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// FormatVersion is the version of the file layout and of the word rules (Normalize).
const FormatVersion = 1

const (
	magic    = "QCM\x00"
	idLen    = sha256.Size
	maxDim   = 4096
	maxVocab = 1 << 22
	// headerLen is the bytes before the vocabulary.
	headerLen = len(magic) + 4 + idLen + 4 + 4
)

// ErrCorrupt is wrapped by Decode's errors for a file that is not a model of this version:
// truncated, damaged or of another format.
var ErrCorrupt = errors.New("codemodel: corrupt model file")

// Params are the float weights of a model as training leaves them, the input of Marshal.
type Params struct {
	Dim   int
	Vocab []string // sorted, distinct
	// Query and Code are len(Vocab)*Dim values each, row by row in Vocab's order;
	// QueryWeight and CodeWeight a pooling weight per word.
	Query, Code             []float32
	QueryWeight, CodeWeight []float32
}

// Marshal returns the model file of p, its tables quantised to int8 with a scale per row.
func Marshal(p Params) ([]byte, error) {
	v := len(p.Vocab)
	switch {
	case p.Dim < 1 || p.Dim > maxDim:
		return nil, fmt.Errorf("codemodel: marshal: dim %d out of range", p.Dim)
	case v < 1 || v > maxVocab:
		return nil, fmt.Errorf("codemodel: marshal: vocabulary of %d words out of range", v)
	case len(p.Query) != v*p.Dim || len(p.Code) != v*p.Dim || len(p.QueryWeight) != v || len(p.CodeWeight) != v:
		return nil, errors.New("codemodel: marshal: tables do not match the vocabulary")
	}
	for i, w := range p.Vocab {
		if w == "" || i > 0 && p.Vocab[i-1] >= w {
			return nil, fmt.Errorf("codemodel: marshal: vocabulary not sorted and distinct at %d (%q)", i, w)
		}
	}
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(binary.LittleEndian.AppendUint32(nil, FormatVersion))
	b.Write(make([]byte, idLen))
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(p.Dim)))
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(v)))
	for _, w := range p.Vocab {
		b.Write(binary.AppendUvarint(nil, uint64(len(w))))
		b.WriteString(w)
	}
	out := b.Bytes()
	out = appendTable(out, p.Dim, p.Query, p.QueryWeight)
	out = appendTable(out, p.Dim, p.Code, p.CodeWeight)
	id := sha256.Sum256(out[len(magic)+4+idLen:])
	copy(out[len(magic)+4:], id[:])
	return out, nil
}

// appendTable appends one side's weights, scales and quantised rows.
func appendTable(out []byte, dim int, rows, weights []float32) []byte {
	v := len(weights)
	q := make([]int8, len(rows))
	scales := make([]float32, v)
	for r := range v {
		scales[r] = quantizeInto(q[r*dim:(r+1)*dim], rows[r*dim:(r+1)*dim])
	}
	for _, w := range weights {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(w))
	}
	for _, s := range scales {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(s))
	}
	for _, x := range q {
		out = append(out, byte(x))
	}
	return out
}

// Decode reads a model file. Its errors wrap ErrCorrupt and say where the file went wrong.
func Decode(data []byte) (*Model, error) {
	if len(data) < headerLen {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrCorrupt, len(data), headerLen)
	}
	if string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: bad magic %q", ErrCorrupt, data[:len(magic)])
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != FormatVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrCorrupt, v, FormatVersion)
	}
	m := &Model{}
	copy(m.id[:], data[len(magic)+4:])
	if sum := sha256.Sum256(data[len(magic)+4+idLen:]); sum != m.id {
		return nil, fmt.Errorf("%w: content does not match its id (truncated or damaged)", ErrCorrupt)
	}
	dim := binary.LittleEndian.Uint32(data[headerLen-8:])
	nv := binary.LittleEndian.Uint32(data[headerLen-4:])
	if dim < 1 || dim > maxDim || nv < 1 || nv > maxVocab {
		return nil, fmt.Errorf("%w: dim %d or vocabulary size %d out of range", ErrCorrupt, dim, nv)
	}
	m.dim = int(dim)
	rest, err := m.decodeVocab(data[headerLen:], int(nv))
	if err != nil {
		return nil, err
	}
	tableLen := int(nv) * (8 + m.dim)
	if len(rest) != 2*tableLen {
		return nil, fmt.Errorf("%w: tables are %d bytes, want %d", ErrCorrupt, len(rest), 2*tableLen)
	}
	if m.query, err = decodeTable(rest[:tableLen], int(nv), m.dim, "query"); err != nil {
		return nil, err
	}
	if m.code, err = decodeTable(rest[tableLen:], int(nv), m.dim, "code"); err != nil {
		return nil, err
	}
	return m, nil
}

// decodeVocab reads n words and returns what follows them.
func (m *Model) decodeVocab(b []byte, n int) ([]byte, error) {
	m.vocab = make([]string, 0, n)
	m.words = make(map[string]int32, n)
	for i := range n {
		l, k := binary.Uvarint(b)
		if k <= 0 || l == 0 || l > uint64(len(b)-k) {
			return nil, fmt.Errorf("%w: vocabulary word %d: bad length", ErrCorrupt, i)
		}
		w := string(b[k : k+int(l)])
		if i > 0 && m.vocab[i-1] >= w {
			return nil, fmt.Errorf("%w: vocabulary word %d (%q) not in order", ErrCorrupt, i, w)
		}
		m.vocab = append(m.vocab, w)
		m.words[w] = int32(i)
		b = b[k+int(l):]
	}
	return b, nil
}

// decodeTable reads one side's table of n words.
func decodeTable(b []byte, n, dim int, side string) (table, error) {
	t := table{weight: make([]float32, n), scale: make([]float32, n), rows: make([]int8, n*dim)}
	for i := range n {
		t.weight[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		t.scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*(n+i):]))
		if !finiteNonNeg(t.weight[i]) || !finiteNonNeg(t.scale[i]) {
			return table{}, fmt.Errorf("%w: %s table: word %d has weight %v, scale %v", ErrCorrupt, side, i, t.weight[i], t.scale[i])
		}
	}
	for i, x := range b[8*n:] {
		t.rows[i] = int8(x)
	}
	return t, nil
}

// finiteNonNeg reports whether f is a finite number >= 0.
func finiteNonNeg(f float32) bool {
	return f >= 0 && !math.IsInf(float64(f), 0) && !math.IsNaN(float64(f))
}

// Words returns the model's vocabulary in order (for tests and reports).
func (m *Model) Words() []string { return slices.Clone(m.vocab) }
