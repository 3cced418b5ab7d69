package embed

import (
	"math"
	"math/rand/v2"
	"sort"
	"sync"
)

// Options are how a model is learned.
type Options struct {
	Dim      int // the vectors' dimensions
	Window   int // words this far apart (either side) keep company
	MinCount int // a word seen fewer times has no vector
	MaxVocab int // the most frequent words kept
	Seed     uint64
	// Shift is subtracted from every PMI before the negative ones are dropped (log k of
	// k negative samples, in word2vec's terms).
	Shift float64
	// EigPower weights the singular vectors by the singular values to this power.
	EigPower float64
	// AnchorWeight is the company an anchor word keeps with each word of its document.
	AnchorWeight float32
}

// DefaultOptions are the options Quarry learns with.
var DefaultOptions = Options{Dim: 128, Window: 5, MinCount: 3, MaxVocab: 40000, Seed: 1, EigPower: 0.5}

// Model is what was learned: a vector per word (unit length) and each word's share of all
// the words seen (for weighting).
type Model struct {
	Dim   int
	Words []string
	Vecs  []float32 // len(Words) x Dim, row-major
	Prob  []float32 // a word's count over all counts
	index map[string]int32

	medianOnce sync.Once
	median     float32
}

// Train learns a model from documents (each a symbol's words, in order, and its anchors:
// the words of its name, which keep company with every word of the document), which each
// calls yield with, twice: once to count words, once to count the company they keep.
func Train(each func(yield func(words, anchors []string)), o Options) *Model {
	counts := map[string]int{}
	each(func(words, _ []string) {
		for _, w := range words {
			counts[w]++
		}
	})
	vocab := make([]string, 0, len(counts))
	for w, c := range counts {
		if c >= o.MinCount {
			vocab = append(vocab, w)
		}
	}
	sort.Slice(vocab, func(a, b int) bool {
		if counts[vocab[a]] != counts[vocab[b]] {
			return counts[vocab[a]] > counts[vocab[b]]
		}
		return vocab[a] < vocab[b]
	})
	if len(vocab) > o.MaxVocab {
		vocab = vocab[:o.MaxVocab]
	}
	m := &Model{Dim: o.Dim, Words: vocab, index: make(map[string]int32, len(vocab))}
	for i, w := range vocab {
		m.index[w] = int32(i)
	}
	n := len(vocab)
	total := 0.0
	m.Prob = make([]float32, n)
	for _, w := range vocab {
		total += float64(counts[w])
	}
	for i, w := range vocab {
		m.Prob[i] = float32(float64(counts[w]) / total)
	}
	// Co-occurrence within the window, weighted by closeness (1/distance).
	cooc := map[uint64]float32{}
	ids := make([]int32, 0, 256)
	each(func(words, anchors []string) {
		ids = ids[:0]
		for _, w := range words {
			if i, ok := m.index[w]; ok {
				ids = append(ids, i)
			}
		}
		if o.AnchorWeight > 0 {
			seen := map[int32]bool{}
			for _, a := range anchors {
				ai, ok := m.index[a]
				if !ok || seen[ai] {
					continue
				}
				seen[ai] = true
				for _, j := range ids {
					if j != ai {
						cooc[uint64(ai)<<32|uint64(j)] += o.AnchorWeight
						cooc[uint64(j)<<32|uint64(ai)] += o.AnchorWeight
					}
				}
			}
		}
		for a, i := range ids {
			for d := 1; d <= o.Window && a+d < len(ids); d++ {
				j := ids[a+d]
				if i == j {
					continue
				}
				wt := 1 / float32(d)
				cooc[uint64(i)<<32|uint64(j)] += wt
				cooc[uint64(j)<<32|uint64(i)] += wt
			}
		}
	})
	// PPMI with the context distribution smoothed (counts^0.75), as a sparse matrix by rows.
	rowSum := make([]float64, n)
	colSum := make([]float64, n)
	sum := 0.0
	for k, c := range cooc {
		i, j := int(k>>32), int(uint32(k))
		rowSum[i] += float64(c)
		colSum[j] += float64(c)
		sum += float64(c)
	}
	ctxSum := 0.0
	for j := range colSum {
		colSum[j] = math.Pow(colSum[j], 0.75)
		ctxSum += colSum[j]
	}
	mat := &sparse{n: n}
	keys := make([]uint64, 0, len(cooc))
	for k := range cooc {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	mat.rowStart = make([]int, n+1)
	for _, k := range keys {
		i, j := int(k>>32), int(uint32(k))
		pmi := math.Log(float64(cooc[k])/sum) - math.Log(rowSum[i]/sum) - math.Log(colSum[j]/ctxSum)
		pmi -= o.Shift
		if pmi <= 0 {
			continue
		}
		mat.col = append(mat.col, int32(j))
		mat.val = append(mat.val, float32(pmi))
		mat.rowStart[i+1]++
	}
	for i := 0; i < n; i++ {
		mat.rowStart[i+1] += mat.rowStart[i]
	}
	m.Vecs = make([]float32, n*o.Dim)
	if n == 0 {
		return m
	}
	// Fewer words than dimensions: the vectors have as many components as there are words,
	// the rest zero.
	u, s := randomizedSVD(mat, o.Dim, 10, 3, o.Seed)
	for i := 0; i < n; i++ {
		row := m.Vecs[i*o.Dim : (i+1)*o.Dim]
		for k := range s {
			row[k] = float32(u[i*len(s)+k] * math.Pow(s[k], o.EigPower))
		}
		normalize(row)
	}
	return m
}

// sparse is a square matrix in compressed rows.
type sparse struct {
	n        int
	rowStart []int
	col      []int32
	val      []float32
}

// mul returns m·x for x of n rows and k columns (row-major).
func (m *sparse) mul(x []float64, k int) []float64 {
	y := make([]float64, m.n*k)
	for i := 0; i < m.n; i++ {
		yi := y[i*k : (i+1)*k]
		for p := m.rowStart[i]; p < m.rowStart[i+1]; p++ {
			v, xj := float64(m.val[p]), x[int(m.col[p])*k:int(m.col[p])*k+k]
			for c := range yi {
				yi[c] += v * xj[c]
			}
		}
	}
	return y
}

// mulT returns mᵀ·x.
func (m *sparse) mulT(x []float64, k int) []float64 {
	y := make([]float64, m.n*k)
	for i := 0; i < m.n; i++ {
		xi := x[i*k : (i+1)*k]
		for p := m.rowStart[i]; p < m.rowStart[i+1]; p++ {
			v, yj := float64(m.val[p]), y[int(m.col[p])*k:int(m.col[p])*k+k]
			for c := range yj {
				yj[c] += v * xi[c]
			}
		}
	}
	return y
}

// randomizedSVD returns the top dim left singular vectors of m (n x dim+over, row-major,
// the first dim columns the top ones) and the singular values, by a randomized range finder
// with power iterations (Halko, Martinsson and Tropp).
func randomizedSVD(m *sparse, dim, over, iters int, seed uint64) ([]float64, []float64) {
	k := min(dim+over, m.n)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	omega := make([]float64, m.n*k)
	for i := range omega {
		omega[i] = r.NormFloat64()
	}
	y := m.mul(omega, k)
	orthonormalize(y, m.n, k)
	for it := 0; it < iters; it++ {
		z := m.mulT(y, k)
		orthonormalize(z, m.n, k)
		y = m.mul(z, k)
		orthonormalize(y, m.n, k)
	}
	// B = Qᵀ·M (k x n); B·Bᵀ (k x k) = Qᵀ·M·Mᵀ·Q: its eigenvectors rotate Q into U.
	bt := m.mulT(y, k) // n x k: Mᵀ·Q = Bᵀ
	bb := make([]float64, k*k)
	for i := 0; i < m.n; i++ {
		row := bt[i*k : (i+1)*k]
		for a := 0; a < k; a++ {
			if row[a] == 0 {
				continue
			}
			for b := a; b < k; b++ {
				bb[a*k+b] += row[a] * row[b]
			}
		}
	}
	for a := 0; a < k; a++ {
		for b := 0; b < a; b++ {
			bb[a*k+b] = bb[b*k+a]
		}
	}
	vals, vecs := jacobiEigen(bb, k)
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	d := min(dim, k)
	u := make([]float64, m.n*d)
	s := make([]float64, d)
	for c := 0; c < d; c++ {
		s[c] = math.Sqrt(math.Max(vals[order[c]], 0))
	}
	for i := 0; i < m.n; i++ {
		qi := y[i*k : (i+1)*k]
		for c := 0; c < d; c++ {
			e := order[c]
			sum := 0.0
			for a := 0; a < k; a++ {
				sum += qi[a] * vecs[a*k+e]
			}
			u[i*d+c] = sum
		}
	}
	return u, s
}

// orthonormalize makes the k columns of x (n x k, row-major) orthonormal, by Cholesky QR
// twice (CholeskyQR2): the Gram matrix xᵀx is factored as L·Lᵀ and x becomes x·L⁻ᵀ, each
// step reading x by rows. A column that depends on the others is left as it comes out (a
// zero pivot is skipped), which the power iterations do not meet in practice.
func orthonormalize(x []float64, n, k int) {
	g := make([]float64, k*k)
	for pass := 0; pass < 2; pass++ {
		clear(g)
		for i := 0; i < n; i++ {
			row := x[i*k : (i+1)*k]
			for a, va := range row {
				if va == 0 {
					continue
				}
				ga := g[a*k : (a+1)*k]
				for b := a; b < k; b++ {
					ga[b] += va * row[b]
				}
			}
		}
		// Cholesky of g (upper triangle filled): L lower, in place in g's lower triangle.
		for a := 0; a < k; a++ {
			for b := 0; b < a; b++ {
				g[a*k+b] = g[b*k+a]
			}
		}
		for j := 0; j < k; j++ {
			d := g[j*k+j]
			for p := 0; p < j; p++ {
				d -= g[j*k+p] * g[j*k+p]
			}
			if d <= 1e-300 {
				g[j*k+j] = 0
				for i := j + 1; i < k; i++ {
					g[i*k+j] = 0
				}
				continue
			}
			d = math.Sqrt(d)
			g[j*k+j] = d
			for i := j + 1; i < k; i++ {
				v := g[i*k+j]
				for p := 0; p < j; p++ {
					v -= g[i*k+p] * g[j*k+p]
				}
				g[i*k+j] = v / d
			}
		}
		// Each row r of x becomes the y with y·Lᵀ = r: y[j] = (r[j] - Σ_{p<j} y[p]·L[j][p]) / L[j][j].
		for i := 0; i < n; i++ {
			row := x[i*k : (i+1)*k]
			for j := 0; j < k; j++ {
				ljj := g[j*k+j]
				if ljj == 0 {
					row[j] = 0
					continue
				}
				v := row[j]
				lj := g[j*k : j*k+j]
				for p, l := range lj {
					v -= row[p] * l
				}
				row[j] = v / ljj
			}
		}
	}
}

// jacobiEigen returns the eigenvalues and eigenvectors (columns of a k x k row-major
// matrix) of the symmetric matrix a, by cyclic Jacobi rotations.
func jacobiEigen(a []float64, k int) ([]float64, []float64) {
	a = append([]float64(nil), a...)
	v := make([]float64, k*k)
	for i := 0; i < k; i++ {
		v[i*k+i] = 1
	}
	for sweep := 0; sweep < 60; sweep++ {
		off := 0.0
		for p := 0; p < k; p++ {
			for q := p + 1; q < k; q++ {
				off += a[p*k+q] * a[p*k+q]
			}
		}
		if off < 1e-20 {
			break
		}
		for p := 0; p < k; p++ {
			for q := p + 1; q < k; q++ {
				apq := a[p*k+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*k+q] - a[p*k+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for r := 0; r < k; r++ {
					arp, arq := a[r*k+p], a[r*k+q]
					a[r*k+p], a[r*k+q] = c*arp-s*arq, s*arp+c*arq
				}
				for r := 0; r < k; r++ {
					apr, aqr := a[p*k+r], a[q*k+r]
					a[p*k+r], a[q*k+r] = c*apr-s*aqr, s*apr+c*aqr
				}
				for r := 0; r < k; r++ {
					vrp, vrq := v[r*k+p], v[r*k+q]
					v[r*k+p], v[r*k+q] = c*vrp-s*vrq, s*vrp+c*vrq
				}
			}
		}
	}
	vals := make([]float64, k)
	for i := 0; i < k; i++ {
		vals[i] = a[i*k+i]
	}
	return vals, v
}

// Normalize makes v unit length (a zero vector stays zero).
func Normalize(v []float32) { normalize(v) }

func normalize(v []float32) {
	s := 0.0
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	f := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= f
	}
}

// SIFWeight is the smoothing of a word's weight in a mean: a/(a+p(word)), after Arora,
// Liang and Ma's smooth inverse frequency.
const SIFWeight = 1e-3

// Embed returns the unit vector of words (nil when none has a vector): the mean of their
// vectors, each weighted by its smooth inverse frequency times weight (1 when weight is nil).
func (m *Model) Embed(words []string, weight func(i int) float32) []float32 {
	out := make([]float32, m.Dim)
	any := false
	for n, w := range words {
		i, ok := m.index[w]
		if !ok {
			continue
		}
		any = true
		f := float32(SIFWeight / (SIFWeight + float64(m.Prob[i])))
		if weight != nil {
			f *= weight(n)
		}
		row := m.Vecs[int(i)*m.Dim : (int(i)+1)*m.Dim]
		for k := range out {
			out[k] += f * row[k]
		}
	}
	if !any {
		return nil
	}
	normalize(out)
	return out
}

// Nearest returns the n words nearest to w (for inspection and query expansion).
func (m *Model) Nearest(w string, n int) []string {
	var out []string
	for _, x := range m.NearestScored(w, n) {
		out = append(out, x.Word)
	}
	return out
}

// ScoredWord is a word and its cosine to another.
type ScoredWord struct {
	Word  string
	Score float32
}

// NearestScored returns the n words nearest to w, with their cosines, nearest first.
func (m *Model) NearestScored(w string, n int) []ScoredWord {
	i, ok := m.index[w]
	if !ok {
		return nil
	}
	q := m.Vecs[int(i)*m.Dim : (int(i)+1)*m.Dim]
	var all []ScoredWord
	for j := range m.Words {
		if j == int(i) {
			continue
		}
		all = append(all, ScoredWord{m.Words[j], Dot(q, m.Vecs[j*m.Dim:(j+1)*m.Dim])})
	}
	sort.Slice(all, func(a, b int) bool { return all[a].Score > all[b].Score })
	return all[:min(n, len(all))]
}

// Dot returns the dot product of a and b.
func Dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
