package codemodel

import (
	"crypto/sha256"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"Increments", "increment", true},
		{"incremented", "increment", true},
		{"stopping", "stop", true},
		{"directories", "directory", true},
		{"class", "class", true},
		{"the", "", false},
		{"x", "", false},
		{"2024", "", false},
		{strings.Repeat("a", 31), "", false},
	}
	for _, tt := range tests {
		if got, ok := Normalize(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("Normalize(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// testParams returns random float weights over a small vocabulary.
func testParams(seed uint64) Params {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := Params{Dim: 16, Vocab: []string{"bit", "count", "file", "open", "read", "set", "vector"}}
	n := len(p.Vocab) * p.Dim
	p.Query, p.Code = make([]float32, n), make([]float32, n)
	for i := range n {
		p.Query[i] = float32(rng.NormFloat64())
		p.Code[i] = float32(rng.NormFloat64())
	}
	for range p.Vocab {
		p.QueryWeight = append(p.QueryWeight, 0.5+rng.Float32())
		p.CodeWeight = append(p.CodeWeight, 0.5+rng.Float32())
	}
	return p
}

// floatEncode is the encoder over unquantised weights.
func floatEncode(p Params, rows, weights []float32, words []string) []float32 {
	sum := make([]float64, p.Dim)
	for _, w := range words {
		for r, v := range p.Vocab {
			if v == w {
				for k := range p.Dim {
					sum[k] += float64(weights[r]) * float64(rows[r*p.Dim+k])
				}
			}
		}
	}
	return normalized(sum)
}

func TestRoundTrip(t *testing.T) {
	p := testParams(1)
	data, err := Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != p.Dim || m.VocabSize() != len(p.Vocab) || len(m.ID()) != 16 {
		t.Fatalf("Decode: dim %d vocab %d id %q", m.Dim(), m.VocabSize(), m.ID())
	}
	q := m.EncodeQuery([]string{"count", "bits", "set"})
	wantQ := floatEncode(p, p.Query, p.QueryWeight, []string{"count", "bit", "set"})
	c := m.EncodeCode([]string{"read"}, []string{"open", "file"})
	wantC := floatEncode(p, p.Code, p.CodeWeight, []string{"read", "open", "file"})
	for i := range q {
		if math.Abs(float64(q[i]-wantQ[i])) > 0.02 || math.Abs(float64(c[i]-wantC[i])) > 0.02 {
			t.Fatalf("component %d: query %v want %v, code %v want %v", i, q[i], wantQ[i], c[i], wantC[i])
		}
	}
	if got := m.EncodeQuery([]string{"unknown", "the"}); got != nil {
		t.Errorf("EncodeQuery(unknown words) = %v, want nil", got)
	}
	again, _ := Marshal(p)
	if string(again) != string(data) {
		t.Error("Marshal is not deterministic")
	}
}

func TestQuantize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := make([]float32, 128), make([]float32, 128)
	for i := range a {
		a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	qa, sa := Quantize(a)
	qb, sb := Quantize(b)
	got := float64(DotInt8(qa, qb)) * float64(sa) * float64(sb)
	want := float64(Dot(a, b))
	if math.Abs(got-want) > 0.02*math.Sqrt(float64(Dot(a, a))*float64(Dot(b, b))) {
		t.Errorf("DotInt8 * scales = %v, want about %v", got, want)
	}
	if q, s := Quantize(make([]float32, 4)); s != 0 || DotInt8(q, q) != 0 {
		t.Errorf("Quantize(zero) = %v, %v", q, s)
	}
}

func TestDecodeRejects(t *testing.T) {
	data, err := Marshal(testParams(2))
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := []byte(string(data))
		b[i] ^= 0x40
		return b
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "shorter than"},
		{"truncated", data[:len(data)-1], "does not match its id"},
		{"magic", flip(0), "bad magic"},
		{"version", flip(4), "format version"},
		{"weight", flip(len(data) - 100), "does not match its id"},
	}
	for _, tt := range tests {
		_, err := Decode(tt.data)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%s) = %v, want ErrCorrupt saying %q", tt.name, err, tt.want)
		}
	}
}

func TestMarshalRejects(t *testing.T) {
	p := testParams(1)
	p.Vocab[1], p.Vocab[2] = p.Vocab[2], p.Vocab[1]
	if _, err := Marshal(p); err == nil {
		t.Error("Marshal(unsorted vocabulary) succeeded")
	}
}

func TestDecodeRejectsConsistentDamage(t *testing.T) {
	// A file whose id matches its content but whose vocabulary is out of order, or whose
	// table holds a negative weight, is still refused.
	p := testParams(1)
	data, err := Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	reseal := func(b []byte) []byte {
		id := sha256.Sum256(b[len(magic)+4+idLen:])
		copy(b[len(magic)+4:], id[:])
		return b
	}
	swapped := []byte(string(data))
	swapped[headerLen+1] = 'z' // the first word, "bit", becomes "zit"
	if _, err := Decode(reseal(swapped)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not in order") {
		t.Errorf("Decode(vocabulary out of order) = %v", err)
	}
	negative := []byte(string(data))
	tables := len(data) - 2*len(p.Vocab)*(8+p.Dim)
	negative[tables+3] |= 0x80 // the sign bit of the first query weight
	if _, err := Decode(reseal(negative)); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "query table") {
		t.Errorf("Decode(negative weight) = %v", err)
	}
}
