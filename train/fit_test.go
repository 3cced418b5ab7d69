package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/codemodel"
)

// synthWord returns the word of concept k on one side: a prefix and k in letters, ending in
// x so that codemodel.Normalize keeps it as it is.
func synthWord(prefix string, k int) string {
	return fmt.Sprintf("%s%c%cx", prefix, 'a'+k/26, 'a'+k%26)
}

// synthPairs plants a mapping: a pair's code side has three concepts' code words and its
// query side the same concepts' query words and two noise words.
func synthPairs(n, concepts int) []Pair {
	rng := rand.New(rand.NewPCG(7, 7))
	pairs := make([]Pair, n)
	for i := range pairs {
		var q, c []string
		for range 3 {
			k := rng.IntN(concepts)
			q = append(q, synthWord("q", k))
			c = append(c, synthWord("c", k))
		}
		q = append(q, synthWord("n", rng.IntN(20)), synthWord("n", rng.IntN(20)))
		pairs[i] = Pair{Group: fmt.Sprintf("g%d", i%200), First: strings.Join(q, " "), Words: strings.Join(c, " ")}
	}
	return pairs
}

func synthOptions(seed uint64) fitOptions {
	return fitOptions{
		data: dataOptions{query: "first", code: []string{"name"}, minCount: 1, maxVocab: 10000},
		dim:  32, epochs: 3, batch: 128, seed: seed, scale: defaultScale,
		lr: defaultLR, lrW: defaultLRWeight, valChunk: valChunk, dropout: 0.1,
	}
}

func TestFitSynthetic(t *testing.T) {
	d := buildDataset(synthPairs(3000, 300), synthOptions(1).data)
	if len(d.val) < 50 || len(d.train) < 2000 {
		t.Fatalf("split: %d train, %d validation", len(d.train), len(d.val))
	}
	var curve []epochStat
	model, err := fit(context.Background(), d, synthOptions(1), func(s epochStat) { curve = append(curve, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(curve) != 4 {
		t.Fatalf("%d points of the learning curve, want 4", len(curve))
	}
	if first, last := curve[0].valMRR, curve[3].valMRR; first > 0.15 || last < 0.6 {
		t.Errorf("validation MRR %.3f before training, %.3f after: want chance (under 0.15) then at least 0.6", first, last)
	}
	// The shipped encoders, quantised, rank the validation pairs as well as the trainer did.
	m, err := codemodel.Decode(model)
	if err != nil {
		t.Fatal(err)
	}
	var qs, cs [][]float32
	for _, p := range synthPairs(3000, 300) {
		if isVal(p.Group) {
			qs = append(qs, m.EncodeQuery(strings.Fields(p.First)))
			cs = append(cs, m.EncodeCode(strings.Fields(p.Words)))
		}
	}
	rr := 0.0
	for i := range qs {
		rank := 1
		for j := range cs {
			if j != i && codemodel.Dot(qs[i], cs[j]) >= codemodel.Dot(qs[i], cs[i]) {
				rank++
			}
		}
		rr += 1 / float64(rank)
	}
	if got := rr / float64(len(qs)); got < curve[3].valMRR-0.05 {
		t.Errorf("decoded model's validation MRR %.3f, trainer's %.3f", got, curve[3].valMRR)
	}
}

func TestFitDeterministic(t *testing.T) {
	d := buildDataset(synthPairs(600, 100), synthOptions(1).data)
	run := func(seed uint64) []byte {
		o := synthOptions(seed)
		o.epochs = 1
		b, err := fit(context.Background(), d, o, func(epochStat) {})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := run(5), run(5), run(6)
	if !bytes.Equal(a, b) {
		t.Error("two runs with seed 5 gave different model files")
	}
	prev := runtime.GOMAXPROCS(3)
	odd := run(5)
	runtime.GOMAXPROCS(prev)
	if !bytes.Equal(a, odd) {
		t.Error("seed 5 on 3 cores gave another model file than on the default cores")
	}
	if bytes.Equal(a, c) {
		t.Error("seeds 5 and 6 gave the same model file")
	}
}

func TestSoftmaxLossGradient(t *testing.T) {
	// The analytic gradient of the loss by the similarities matches a finite difference.
	rng := rand.New(rand.NewPCG(1, 2))
	const b = 4
	s := make([]float32, b*b)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	_, g := softmaxLoss(s, b)
	const h = 1e-2
	for i := range s {
		orig := s[i]
		s[i] = orig + h
		up, _ := softmaxLoss(s, b)
		s[i] = orig - h
		down, _ := softmaxLoss(s, b)
		s[i] = orig
		if num := (up - down) / (2 * h); abs(num-float64(g[i])) > 1e-3 {
			t.Errorf("d loss / d s[%d] = %v, finite difference %v", i, g[i], num)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

func TestSideBackward(t *testing.T) {
	// The gradient of r · encode(bag) by a row value and a log weight matches a finite
	// difference.
	rng := rand.New(rand.NewPCG(3, 4))
	s := newSide(5, 8, []float32{1, 2, 0.5, 1, 3}, rng)
	bag := []int32{0, 2, 2, 4}
	r := make([]float32, 8)
	for i := range r {
		r[i] = float32(rng.NormFloat64())
	}
	f := func() float64 { v, _ := s.encode(bag); return float64(dot(v, r)) }
	v, n := s.encode(bag)
	s.backward(bag, v, r, n)
	const h = 1e-3
	check := func(name string, x *float32, grad float32) {
		orig := *x
		*x = orig + h
		up := f()
		*x = orig - h
		down := f()
		*x = orig
		if num := (up - down) / (2 * h); abs(num-float64(grad)) > 1e-2 {
			t.Errorf("gradient by %s = %v, finite difference %v", name, grad, num)
		}
	}
	check("emb[2*8+3]", &s.emb[2*8+3], s.grad[2*8+3])
	check("emb[4*8]", &s.emb[4*8], s.grad[4*8])
	check("logw[2]", &s.logw[2], s.gradW[2])
	check("logw[0]", &s.logw[0], s.gradW[0])
}

func TestSides(t *testing.T) {
	p := Pair{First: "count bit set vector", Doc: "count bit set vector more word", Words: "count bit", Sig: "func count bit word", Body: "pop count"}
	tests := []struct {
		o     dataOptions
		wantQ string
		wantC string
	}{
		{dataOptions{query: "first", code: []string{"name", "sig", "body"}}, "count bit set vector", "count bit func count bit word pop count"},
		{dataOptions{query: "doc", code: []string{"name"}}, "count bit set vector more word", "count bit"},
		{dataOptions{query: "first", code: []string{"sig"}, stripName: true}, "set vector", "func count bit word"},
	}
	for _, tt := range tests {
		q, c := sides(p, tt.o)
		if strings.Join(q, " ") != tt.wantQ || strings.Join(c, " ") != tt.wantC {
			t.Errorf("sides(%+v) = %q, %q, want %q, %q", tt.o, q, c, tt.wantQ, tt.wantC)
		}
	}
}

// TestQueryMix: -query mix trains on four query sides of a pair (first sentence and whole
// comment, with and without the name's words) and validates on the whole comment.
func TestQueryMix(t *testing.T) {
	p := Pair{Group: "g", First: "count bit set", Doc: "count bit set in vector", Words: "count bit", Body: "pop"}
	d := buildDataset([]Pair{p, p}, dataOptions{query: "mix", code: []string{"name", "body"}, minCount: 1, maxVocab: 100})
	if len(d.train)+len(d.val) != 2 {
		t.Fatalf("%d examples, want 2", len(d.train)+len(d.val))
	}
	e := append(d.train, d.val...)[0]
	word := func(bag []int32) string {
		var ws []string
		for _, id := range bag {
			ws = append(ws, d.vocab[id])
		}
		return strings.Join(ws, " ")
	}
	var alts []string
	for _, a := range e.alt {
		alts = append(alts, word(a))
	}
	want := []string{"count bit set", "set", "count bit set in vector", "set in vector"}
	if word(e.q) != "count bit set in vector" || strings.Join(alts, "|") != strings.Join(want, "|") {
		t.Errorf("query %q, variants %q; want the whole comment, and %q", word(e.q), alts, want)
	}
}

// TestBatchesByPackage: with -batches package every batch but those at a package's edge
// holds one package's pairs, every pair is in one batch, and the order is the seed's.
func TestBatchesByPackage(t *testing.T) {
	var train []example
	for g := range 6 {
		for range 40 {
			train = append(train, example{group: fmt.Sprint("g", g)})
		}
	}
	o := fitOptions{batch: 20, byPackage: true}
	run := func(seed uint64) ([]int, []int) {
		rng := rand.New(rand.NewPCG(seed, seed))
		order := rng.Perm(len(train))
		return batchStarts(train, order, o, rng), order
	}
	starts, order := run(3)
	if len(starts) != 12 {
		t.Fatalf("%d batches, want 12", len(starts))
	}
	seen := map[int]bool{}
	for _, lo := range starts {
		groups := map[string]bool{}
		for _, i := range order[lo : lo+o.batch] {
			groups[train[i].group] = true
			seen[i] = true
		}
		if len(groups) != 1 {
			t.Errorf("batch at %d holds %d packages, want 1", lo, len(groups))
		}
	}
	if len(seen) != len(train) {
		t.Errorf("%d pairs in the batches, want %d", len(seen), len(train))
	}
	again, order2 := run(3)
	if fmt.Sprint(again, order2) != fmt.Sprint(starts, order) {
		t.Error("the same seed gave other batches")
	}
	if other, _ := run(4); fmt.Sprint(other) == fmt.Sprint(starts) {
		t.Error("another seed gave the same batch order")
	}
}

// -share keeps a share of the training packages, the smaller shares' packages among the
// larger's, and the same validation pairs whatever the share.
func TestDatasetShare(t *testing.T) {
	var pairs []Pair
	for g := range 400 {
		group := fmt.Sprintf("pkg%d", g)
		pairs = append(pairs, Pair{Lang: "go", Group: group, Name: "F", First: "read the file", Doc: "read the file", Words: "read file", Sig: "func read"})
	}
	o := dataOptions{query: "first", code: []string{"name", "sig"}, minCount: 1, maxVocab: 100}
	groups := func(share float64) (train, val map[string]bool) {
		o.share = share
		d := buildDataset(pairs, o)
		train, val = map[string]bool{}, map[string]bool{}
		for _, e := range d.train {
			train[e.group] = true
		}
		for _, e := range d.val {
			val[e.group] = true
		}
		return train, val
	}
	all, val := groups(1)
	half, val2 := groups(0.5)
	quarter, val4 := groups(0.25)
	if !maps.Equal(val, val2) || !maps.Equal(val, val4) || len(val) == 0 {
		t.Errorf("validation groups differ by share: %d, %d, %d", len(val), len(val2), len(val4))
	}
	if n := len(half); n < len(all)*4/10 || n > len(all)*6/10 {
		t.Errorf("share 0.5 kept %d of %d training packages", n, len(all))
	}
	for g := range quarter {
		if !half[g] {
			t.Errorf("%s is in the quarter but not in the half", g)
		}
	}
}
