package main

import "math"

// encoded is a batch of examples through both encoders.
type encoded struct {
	vq, vc [][]float32 // normalised vectors
	nq, nc []float32   // lengths before normalising
}

// encodeBatch encodes the examples of batch on every core.
func encodeBatch(q, c *side, batch []example) encoded {
	b := len(batch)
	e := encoded{vq: make([][]float32, b), vc: make([][]float32, b), nq: make([]float32, b), nc: make([]float32, b)}
	parallel(b, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			e.vq[i], e.nq[i] = q.encode(batch[i].q)
			e.vc[i], e.nc[i] = c.encode(batch[i].c)
		}
	})
	return e
}

// similarities returns scale times the dot product of every query with every code, row by
// query.
func similarities(e encoded, scale float32) []float32 {
	b := len(e.vq)
	s := make([]float32, b*b)
	parallel(b, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := range b {
				s[i*b+j] = scale * dot(e.vq[i], e.vc[j])
			}
		}
	})
	return s
}

// softmaxLoss returns the symmetric in-batch softmax loss of the similarities s (b by b, the
// matching code of query i at column i): the mean of the cross-entropy of each query over
// the codes and of each code over the queries, halved; and its gradient by s.
func softmaxLoss(s []float32, b int) (float64, []float32) {
	g := make([]float32, b*b)
	rowLoss, colLoss := make([]float64, b), make([]float64, b)
	half := 1 / float64(2*b)
	parallel(b, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			lse := logSumExp(b, func(j int) float32 { return s[i*b+j] })
			rowLoss[i] = lse - float64(s[i*b+i])
			for j := range b {
				g[i*b+j] = float32(math.Exp(float64(s[i*b+j])-lse) * half)
			}
			g[i*b+i] -= float32(half)
		}
	})
	parallel(b, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			lse := logSumExp(b, func(i int) float32 { return s[i*b+j] })
			colLoss[j] = lse - float64(s[j*b+j])
			for i := range b {
				g[i*b+j] += float32(math.Exp(float64(s[i*b+j])-lse) * half)
			}
			g[j*b+j] -= float32(half)
		}
	})
	loss := 0.0
	for i := range b {
		loss += rowLoss[i] + colLoss[i]
	}
	return loss * half, g
}

// logSumExp returns log Σ exp(x(i)) over i < n.
func logSumExp(n int, x func(int) float32) float64 {
	m := math.Inf(-1)
	for i := range n {
		m = max(m, float64(x(i)))
	}
	sum := 0.0
	for i := range n {
		sum += math.Exp(float64(x(i)) - m)
	}
	return m + math.Log(sum)
}

// vectorGrads returns the gradients of the loss by each query's and each code's normalised
// vector, from its gradient g by the similarities.
func vectorGrads(e encoded, g []float32, scale float32) (gq, gc [][]float32) {
	b := len(e.vq)
	dim := len(e.vq[0])
	gq, gc = make([][]float32, b), make([][]float32, b)
	parallel(b, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			gq[i], gc[i] = make([]float32, dim), make([]float32, dim)
			for j := range b {
				gij, gji := scale*g[i*b+j], scale*g[j*b+i]
				for k := range dim {
					gq[i][k] += gij * e.vc[j][k]
					gc[i][k] += gji * e.vq[j][k]
				}
			}
		}
	})
	return gq, gc
}

// reciprocalRanks returns, for each query, the reciprocal rank of its own code among the b
// codes of its chunk (ties counted against it), from the similarities s.
func reciprocalRanks(s []float32, b int) []float64 {
	out := make([]float64, b)
	for i := range b {
		rank := 1
		for j := range b {
			if j != i && s[i*b+j] >= s[i*b+i] {
				rank++
			}
		}
		out[i] = 1 / float64(rank)
	}
	return out
}
