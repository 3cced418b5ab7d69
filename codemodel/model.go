package codemodel

import (
	"encoding/hex"
	"math"
)

// Model is a decoded model: the vocabulary and, for each side (query and code), an int8 row
// per word with its scale and the word's pooling weight. A Model is read-only and safe for
// concurrent use.
type Model struct {
	id    [idLen]byte
	dim   int
	words map[string]int32 // word -> row
	vocab []string         // row -> word
	query table
	code  table
}

// table is one side's encoder: rows of int8 values, each with its scale, and a pooling
// weight per word.
type table struct {
	weight []float32 // per word: how much it counts in a bag
	scale  []float32 // per word: the row's values are q * scale
	rows   []int8    // len(vocab) * dim
}

// ID returns the model's id: 16 hex digits of the hash of its weights and vocabulary. A
// vector made by one model is comparable only with vectors made by the same id.
func (m *Model) ID() string { return hex.EncodeToString(m.id[:8]) }

// Dim returns the length of the vectors the model makes.
func (m *Model) Dim() int { return m.dim }

// VocabSize returns how many words the model knows.
func (m *Model) VocabSize() int { return len(m.vocab) }

// EncodeQuery returns the query vector of a question's words (tokenizer atoms; see the
// package comment), L2-normalised, or nil when the model knows none of them.
func (m *Model) EncodeQuery(words []string) []float32 {
	return m.encode(&m.query, words)
}

// EncodeCode returns the code vector of a definition's fields (each a list of tokenizer
// atoms: the name's, the signature's, the body's identifiers'), pooled as one bag,
// L2-normalised, or nil when the model knows none of the words.
func (m *Model) EncodeCode(fields ...[]string) []float32 {
	var all []string
	for _, f := range fields {
		all = append(all, f...)
	}
	return m.encode(&m.code, all)
}

// encode pools the rows of the known words of words by their weights and normalises.
func (m *Model) encode(t *table, words []string) []float32 {
	sum := make([]float64, m.dim)
	known := false
	for _, a := range words {
		w, ok := Normalize(a)
		if !ok {
			continue
		}
		r, ok := m.words[w]
		if !ok {
			continue
		}
		known = true
		f := float64(t.weight[r]) * float64(t.scale[r])
		row := t.rows[int(r)*m.dim : int(r+1)*m.dim]
		for k, q := range row {
			sum[k] += f * float64(q)
		}
	}
	if !known {
		return nil
	}
	return normalized(sum)
}

// normalized returns v as float32 with length 1 (v itself when it is zero).
func normalized(v []float64) []float32 {
	n := 0.0
	for _, x := range v {
		n += x * x
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	inv := 1 / math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

// Dot returns the dot product of two vectors of the same length.
func Dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Quantize returns v as int8 values and the scale that turns them back (v[i] ≈ q[i] *
// scale): the way to store code vectors at a quarter of their size. A zero vector has
// scale 0.
func Quantize(v []float32) ([]int8, float32) {
	q := make([]int8, len(v))
	scale := quantizeInto(q, v)
	return q, scale
}

// quantizeInto writes v's int8 values into q and returns their scale.
func quantizeInto(q []int8, v []float32) float32 {
	var maxAbs float32
	for _, x := range v {
		maxAbs = max(maxAbs, float32(math.Abs(float64(x))))
	}
	if maxAbs == 0 {
		clear(q)
		return 0
	}
	scale := maxAbs / 127
	for i, x := range v {
		q[i] = int8(math.Round(float64(x / scale)))
	}
	return scale
}

// DotInt8 returns the dot product of two int8 vectors of the same length; multiplied by
// both scales it approximates the dot product of the vectors they were quantised from.
func DotInt8(a, b []int8) int32 {
	var s int32
	b = b[:len(a)]
	for i, x := range a {
		s += int32(x) * int32(b[i])
	}
	return s
}
