package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/codemodel"
)

// Training defaults.
const (
	defaultDim      = 128
	defaultEpochs   = 3
	defaultBatch    = 512
	defaultScale    = 20
	defaultLR       = 0.05
	defaultLRWeight = 0.05
	defaultMinCount = 3
	defaultMaxVocab = 60000
	defaultDropout  = 0
	// valChunk is how many validation pairs rank each other's codes (CodeSearchNet's 1,000).
	valChunk = 1000
	// valSeed fixes the validation order whatever the training seed, so runs compare.
	valSeed = 1
)

// fitOptions are the settings of a training run.
type fitOptions struct {
	data     dataOptions
	dim      int
	epochs   int
	batch    int
	seed     uint64
	scale    float32
	lr, lrW  float32 // lrW 0 freezes the pooling weights at idf
	dropout  float64 // share of a training bag's words left out at each step
	valChunk int
	// byPackage makes each batch of pairs of few packages (-batches package): negatives of
	// the same vocabulary, harder than random ones.
	byPackage bool
}

// epochStat is one point of the learning curve.
type epochStat struct {
	epoch     int
	trainLoss float64 // mean over the epoch's batches (0 before training)
	valLoss   float64
	valMRR    float64
	byLang    map[string]float64 // validation MRR of each language's queries
	took      time.Duration
}

func runFit(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	in := fs.String("pairs", "", "the pairs files (train pairs), comma-separated")
	dst := fs.String("out", "", "the model file to write")
	o := fitOptions{scale: defaultScale, valChunk: valChunk}
	fs.Uint64Var(&o.seed, "seed", 1, "random seed: initial weights and data order")
	fs.IntVar(&o.dim, "dim", defaultDim, "vector dimensions")
	fs.IntVar(&o.epochs, "epochs", defaultEpochs, "passes over the training pairs")
	fs.IntVar(&o.batch, "batch", defaultBatch, "pairs per batch (each one's negatives are the others)")
	lr := fs.Float64("lr", defaultLR, "Adagrad learning rate of the embeddings")
	fs.Float64Var(&o.dropout, "dropout", defaultDropout, "share of a training bag's words left out at each step")
	pool := fs.String("pool", "learned", "pooling weight per word: idf (fixed) or learned (starting at idf)")
	fs.BoolVar(&o.data.stripName, "strip-name", false, "leave the name's words out of the query side (an honest validation: doc comments often start with the name)")
	fs.StringVar(&o.data.query, "query", "first", "query side: first (the doc comment's first sentence), doc (all of it) or mix (training draws from both, with and without the name's words; validation is doc's)")
	batches := fs.String("batches", "random", "what a batch holds: random pairs, or pairs of few packages (package: harder negatives)")
	code := fs.String("code", "name,sig,body", "code side: fields of name, sig, body")
	fs.IntVar(&o.data.minCount, "min-count", defaultMinCount, "fewest occurrences of a word in the vocabulary")
	fs.IntVar(&o.data.maxVocab, "vocab", defaultMaxVocab, "most words in the vocabulary")
	sources := fs.String("sources", "doc,test,mention", "which pairs to train on: of doc (doc comments), test (tests' names), mention (comment sentences naming a definition)")
	fs.Float64Var(&o.data.share, "share", 1, "share of the training packages trained on, for a learning curve (0.25, 0.5, 1); validation keeps its packages")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" || *dst == "" {
		return usageError("fit: -pairs and -out are required\n" + usage)
	}
	if o.data.share <= 0 || o.data.share > 1 {
		return usageError(fmt.Sprintf("fit: -share %g: want a share above 0 and at most 1", o.data.share))
	}
	o.lr = float32(*lr)
	switch *batches {
	case "random":
	case "package":
		o.byPackage = true
	default:
		return usageError(fmt.Sprintf("fit: -batches %q: want random or package", *batches))
	}
	switch o.data.query {
	case "first", "doc", "mix":
	default:
		return usageError(fmt.Sprintf("fit: -query %q: want first, doc or mix", o.data.query))
	}
	switch *pool {
	case "idf":
	case "learned":
		o.lrW = defaultLRWeight
	default:
		return usageError(fmt.Sprintf("fit: -pool %q: want idf or learned", *pool))
	}
	o.data.code = strings.Split(*code, ",")
	keep, err := parseSources(*sources)
	if err != nil {
		return usageError("fit: " + err.Error() + "\n" + usage)
	}
	var pairs []Pair
	for _, name := range strings.Split(*in, ",") {
		ps, err := readPairs(name)
		if err != nil {
			return err
		}
		for _, p := range ps {
			if keep[p.Source] {
				pairs = append(pairs, p)
			}
		}
	}
	start := time.Now()
	d := buildDataset(pairs, o.data)
	fmt.Fprintf(out, "%d pairs: %d train, %d validation; vocabulary %d words\n", len(pairs), len(d.train), len(d.val), len(d.vocab))
	model, err := fit(ctx, d, o, func(s epochStat) {
		fmt.Fprintf(out, "epoch %d  train loss %.4f  val loss %.4f  val MRR@%d %.4f  %s\n",
			s.epoch, s.trainLoss, s.valLoss, o.valChunk, s.valMRR, s.took.Round(time.Millisecond))
		if s.epoch == o.epochs {
			langs := slices.Sorted(maps.Keys(s.byLang))
			for _, l := range langs {
				fmt.Fprintf(out, "  val MRR %-12s %.4f\n", l, s.byLang[l])
			}
		}
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(*dst, model, 0o644); err != nil {
		return err
	}
	m, err := codemodel.Decode(model)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "model %s: %d bytes (%.1f MB), %d dims, %d words; %s in all\n",
		m.ID(), len(model), float64(len(model))/1e6, m.Dim(), m.VocabSize(), time.Since(start).Round(time.Millisecond))
	return nil
}

// fit trains a model on d and returns its file, calling report after each epoch (and once
// before the first, epoch 0).
func fit(ctx context.Context, d *dataset, o fitOptions, report func(epochStat)) ([]byte, error) {
	if len(d.vocab) == 0 || len(d.train) < 2 {
		return nil, fmt.Errorf("fit: nothing to train on (%d words, %d training pairs)", len(d.vocab), len(d.train))
	}
	rng := rand.New(rand.NewPCG(o.seed, o.seed^0x9e3779b97f4a7c15))
	q := newSide(len(d.vocab), o.dim, d.idfQ, rng)
	c := newSide(len(d.vocab), o.dim, d.idfC, rng)
	val := shuffled(d.val, rand.New(rand.NewPCG(valSeed, valSeed)))
	vl, vm, byLang := validate(q, c, val, o)
	report(epochStat{valLoss: vl, valMRR: vm, byLang: byLang})
	order := make([]int, len(d.train))
	for i := range order {
		order[i] = i
	}
	batch := make([]example, 0, o.batch)
	for ep := 1; ep <= o.epochs; ep++ {
		start := time.Now()
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		starts := batchStarts(d.train, order, o, rng)
		loss, steps := 0.0, 0
		for _, lo := range starts {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			batch = batch[:0]
			for _, i := range order[lo:min(lo+o.batch, len(order))] {
				e := d.train[i]
				qb := e.q
				if len(e.alt) > 0 {
					qb = e.alt[rng.IntN(len(e.alt))]
				}
				batch = append(batch, example{q: dropWords(qb, o.dropout, rng), c: dropWords(e.c, o.dropout, rng)})
			}
			if len(batch) < 2 {
				continue
			}
			loss += step(q, c, batch, o)
			steps++
		}
		vl, vm, byLang := validate(q, c, val, o)
		report(epochStat{epoch: ep, trainLoss: loss / float64(max(steps, 1)), valLoss: vl, valMRR: vm, byLang: byLang, took: time.Since(start)})
	}
	return codemodel.Marshal(codemodel.Params{
		Dim: o.dim, Vocab: d.vocab,
		Query: q.emb, Code: c.emb,
		QueryWeight: q.weights(), CodeWeight: c.weights(),
	})
}

// batchStarts returns where each batch of the shuffled order starts, in the order they are
// trained. With o.byPackage the order is first grouped by package (the packages in a random
// order, each one's pairs in the shuffled order), so that a batch holds pairs of one or a
// few packages, and the batches are trained in a random order.
func batchStarts(train []example, order []int, o fitOptions, rng *rand.Rand) []int {
	if o.byPackage {
		key := map[string]uint64{}
		for _, i := range order {
			if _, ok := key[train[i].group]; !ok {
				key[train[i].group] = 0
			}
		}
		groups := slices.Sorted(maps.Keys(key))
		for _, g := range groups {
			key[g] = rng.Uint64()
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key[train[a].group], key[train[b].group]) })
	}
	var starts []int
	for lo := 0; lo+1 < len(order); lo += o.batch {
		starts = append(starts, lo)
	}
	if o.byPackage {
		rng.Shuffle(len(starts), func(i, j int) { starts[i], starts[j] = starts[j], starts[i] })
	}
	return starts
}

// step trains on one batch and returns its loss. The gradient is gathered in the batch's
// order on one core, so the result does not depend on scheduling.
func step(q, c *side, batch []example, o fitOptions) float64 {
	e := encodeBatch(q, c, batch)
	s := similarities(e, o.scale)
	loss, g := softmaxLoss(s, len(batch))
	gq, gc := vectorGrads(e, g, o.scale)
	for i, ex := range batch {
		q.backward(ex.q, e.vq[i], gq[i], e.nq[i])
		c.backward(ex.c, e.vc[i], gc[i], e.nc[i])
	}
	q.update(o.lr, o.lrW)
	c.update(o.lr, o.lrW)
	return loss
}

// validate returns the mean loss and MRR of the validation pairs in chunks of about
// o.valChunk (at least that many when there are enough: the pairs are split evenly), each
// query ranking its own code among its chunk's, and the MRR of each language's queries.
func validate(q, c *side, val []example, o fitOptions) (float64, float64, map[string]float64) {
	if len(val) < 2 {
		return 0, 0, nil
	}
	k := max(1, len(val)/o.valChunk)
	loss, rr := 0.0, 0.0
	sums, counts := map[string]float64{}, map[string]int{}
	for i := range k {
		lo := i * len(val) / k
		chunk := val[lo : (i+1)*len(val)/k]
		s := similarities(encodeBatch(q, c, chunk), o.scale)
		l, _ := softmaxLoss(s, len(chunk))
		loss += l * float64(len(chunk))
		for j, r := range reciprocalRanks(s, len(chunk)) {
			rr += r
			sums[chunk[j].lang] += r
			counts[chunk[j].lang]++
		}
	}
	for l, n := range counts {
		sums[l] /= float64(n)
	}
	return loss / float64(len(val)), rr / float64(len(val)), sums
}

// dropWords returns bag without a random share of its words (word dropout), keeping at
// least one; the draws come from rng in order, so a seed fixes them.
func dropWords(bag []int32, share float64, rng *rand.Rand) []int32 {
	if share <= 0 || len(bag) < 2 {
		return bag
	}
	out := make([]int32, 0, len(bag))
	for _, t := range bag {
		if rng.Float64() >= share {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		out = append(out, bag[rng.IntN(len(bag))])
	}
	return out
}

// shuffled returns a shuffled copy of examples.
func shuffled(examples []example, rng *rand.Rand) []example {
	out := append([]example(nil), examples...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
