package main

// The model being trained: a neural bag of words. Each side (query, code) has an embedding
// row and a log pooling weight per word; a bag's vector is the sum of its words' rows, each
// times exp(its log weight), L2-normalised. The log weights start at the log of the words'
// idf (the idf-weighted mean) and are learned with the rows unless frozen.

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// adagradEps keeps Adagrad's first step finite.
const adagradEps = 1e-8

// side is one encoder with its Adagrad state and the scratch of a batch's gradient.
type side struct {
	dim       int
	emb, logw []float32 // V*dim, V
	accE      []float32 // Adagrad's sums of squared gradients
	accW      []float32
	grad      []float32 // a batch's gradient of emb, zero outside touched rows
	gradW     []float32
	touched   []int32 // rows with a gradient, in order of first touch
	isTouched []bool
}

// newSide returns an encoder over n words with rows drawn from rng and weights from idf.
func newSide(n, dim int, idf []float32, rng *rand.Rand) *side {
	s := &side{
		dim: dim, emb: make([]float32, n*dim), logw: make([]float32, n),
		accE: make([]float32, n*dim), accW: make([]float32, n),
		grad: make([]float32, n*dim), gradW: make([]float32, n), isTouched: make([]bool, n),
	}
	scale := 1 / math.Sqrt(float64(dim))
	for i := range s.emb {
		s.emb[i] = float32(rng.NormFloat64() * scale)
	}
	for t, f := range idf {
		s.logw[t] = float32(math.Log(float64(f)))
	}
	return s
}

// encode returns the normalised vector of a bag and the length of its sum before normalising.
func (s *side) encode(bag []int32) ([]float32, float32) {
	v := make([]float32, s.dim)
	for _, t := range bag {
		w := float32(math.Exp(float64(s.logw[t])))
		row := s.emb[int(t)*s.dim : int(t+1)*s.dim]
		for k, x := range row {
			v[k] += w * x
		}
	}
	n := float32(math.Sqrt(float64(dot(v, v))))
	if n > 0 {
		for k := range v {
			v[k] /= n
		}
	}
	return v, n
}

// backward turns g, the gradient of a bag's normalised vector v (of length-before-normalising
// n), into the gradient of its rows and log weights, added to the batch's gradient.
func (s *side) backward(bag []int32, v, g []float32, n float32) {
	if n == 0 {
		return
	}
	vg := dot(v, g)
	du := make([]float32, s.dim)
	for k := range du {
		du[k] = (g[k] - v[k]*vg) / n
	}
	for _, t := range bag {
		w := float32(math.Exp(float64(s.logw[t])))
		row := s.emb[int(t)*s.dim : int(t+1)*s.dim]
		gr := s.grad[int(t)*s.dim : int(t+1)*s.dim]
		var rd float32
		for k, d := range du {
			gr[k] += w * d
			rd += row[k] * d
		}
		s.gradW[t] += w * rd
		if !s.isTouched[t] {
			s.isTouched[t] = true
			s.touched = append(s.touched, t)
		}
	}
}

// update applies the batch's gradient by Adagrad (learning rates lr for rows, lrW for log
// weights, 0 to freeze them) and clears it.
func (s *side) update(lr, lrW float32) {
	for _, t := range s.touched {
		lo, hi := int(t)*s.dim, int(t+1)*s.dim
		for i := lo; i < hi; i++ {
			g := s.grad[i]
			s.accE[i] += g * g
			s.emb[i] -= lr * g / (float32(math.Sqrt(float64(s.accE[i]))) + adagradEps)
			s.grad[i] = 0
		}
		if lrW > 0 {
			g := s.gradW[t]
			s.accW[t] += g * g
			s.logw[t] -= lrW * g / (float32(math.Sqrt(float64(s.accW[t]))) + adagradEps)
		}
		s.gradW[t] = 0
		s.isTouched[t] = false
	}
	s.touched = s.touched[:0]
}

// weights returns the pooling weights, exp of the log weights.
func (s *side) weights() []float32 {
	out := make([]float32, len(s.logw))
	for t, l := range s.logw {
		out[t] = float32(math.Exp(float64(l)))
	}
	return out
}

func dot(a, b []float32) float32 {
	var s float32
	b = b[:len(a)]
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// parallel calls f over [0, n) split into one contiguous range per core. Each index is
// handled by exactly one call, so work that writes only its own indexes gives the same
// result however the calls are scheduled.
func parallel(n int, f func(lo, hi int)) {
	k := min(runtime.GOMAXPROCS(0), n)
	if k <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for p := range k {
		lo, hi := p*n/k, (p+1)*n/k
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}
