package embed

import (
	"math"
	"slices"
)

// Quantize returns the unit vector v as bytes: each component times 127, rounded.
func Quantize(v []float32) []int8 {
	out := make([]int8, len(v))
	for i, x := range v {
		out[i] = int8(math.Round(float64(max(-1, min(1, x)) * 127)))
	}
	return out
}

// DotInt8 returns the dot product of two quantized vectors (divide by 127² for the cosine).
func DotInt8(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// Quantized returns the model's words, their shares and their vectors as bytes.
func (m *Model) Quantized() (words []string, prob []float32, vecs []int8) {
	vecs = make([]int8, len(m.Vecs))
	for i := range m.Words {
		copy(vecs[i*m.Dim:], Quantize(m.Vecs[i*m.Dim:(i+1)*m.Dim]))
	}
	return m.Words, m.Prob, vecs
}

// Load rebuilds a model from what Quantized returned.
func Load(dim int, words []string, prob []float32, vecs []int8) *Model {
	m := &Model{Dim: dim, Words: words, Prob: prob, Vecs: make([]float32, len(vecs)), index: make(map[string]int32, len(words))}
	for i, w := range words {
		m.index[w] = int32(i)
	}
	for i, x := range vecs {
		m.Vecs[i] = float32(x) / 127
	}
	for i := range words {
		normalize(m.Vecs[i*dim : (i+1)*dim])
	}
	return m
}

// Has reports whether the model has a vector for w.
func (m *Model) Has(w string) bool {
	_, ok := m.index[w]
	return ok
}

// Freq returns w's share of the words the model was trained on (0 for a word it does not
// know).
func (m *Model) Freq(w string) float32 {
	i, ok := m.index[w]
	if !ok {
		return 0
	}
	return m.Prob[i]
}

// MedianFreq returns the median of the model's words' frequencies (Freq), computed once.
func (m *Model) MedianFreq() float32 {
	m.medianOnce.Do(func() {
		if len(m.Prob) == 0 {
			return
		}
		p := slices.Clone(m.Prob)
		slices.Sort(p)
		m.median = p[len(p)/2]
	})
	return m.median
}
