package vectors

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/embed"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/scoring"
)

var pcMean []float32

var codeKinds = map[string]bool{"function": true, "method": true, "constructor": true, "class": true, "struct": true, "interface": true, "trait": true, "enum": true, "type": true, "union": true, "module": false}

// TestVectorExperiment measures learned symbol vectors on the description queries of the
// quality suite: QUARRY_VEC_STORE is a store (symbols.db), QUARRY_VEC_QUERIES the queries
// with their lex results (path, name, line: quarry search --target definitions --limit 50
// --json of each), QUARRY_VEC_HALF the half measured (dev). It prints MRR@10 of the lex
// results, of the vectors alone, and of the two fused (lex first). VEC_* variables try other
// settings: VEC_DIM, VEC_WINDOW, VEC_ANCHOR, VEC_TRAIN_BODY=0, VEC_KINDS=all (every symbol,
// not only functions and types), VEC_FIELDS=0 (one weighted mean of all words, not a mean of
// the fields' vectors), VEC_WNAME/WSIG/WDOC/WBODY (the fields' weights), VEC_PC=1 (remove the
// common direction), VEC_FIRST=1 (the vectors' list first in fusion), VEC_SHIFT (shifted PPMI), VEC_EIG (the
// singular values' power), VEC_PRIOR=0 (no path prior on the vectors' list).
func TestVectorExperiment(t *testing.T) {
	storePath, qpath := os.Getenv("QUARRY_VEC_STORE"), os.Getenv("QUARRY_VEC_QUERIES")
	if storePath == "" || qpath == "" {
		t.Skip("QUARRY_VEC_STORE and QUARRY_VEC_QUERIES are not set")
	}
	half := os.Getenv("QUARRY_VEC_HALF")
	if half == "" {
		half = "dev"
	}
	ctx := context.Background()
	s, err := store.Open(storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	type sym struct {
		path, name, kind      string
		line, endLine         int
		name3, sig, doc, body []string
	}
	var syms []sym
	start := time.Now()
	rows, err := s.DB().QueryContext(ctx, `SELECT f.path, s.name, s.kind, s.signature, s.doc_comment, s.start_byte, s.end_byte, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file ORDER BY f.path`)
	if err != nil {
		t.Fatal(err)
	}
	type rawSym struct {
		path, name, kind, sig, doc string
		sb, eb, sl, el             int
	}
	var raws []rawSym
	for rows.Next() {
		var r rawSym
		if err := rows.Scan(&r.path, &r.name, &r.kind, &r.sig, &r.doc, &r.sb, &r.eb, &r.sl, &r.el); err != nil {
			t.Fatal(err)
		}
		raws = append(raws, r)
	}
	rows.Close()
	var content []byte
	cur := ""
	for _, r := range raws {
		if r.path != cur {
			cur = r.path
			if content, err = s.Content(ctx, r.path); err != nil {
				t.Fatal(err)
			}
		}
		x := sym{path: r.path, name: r.name, kind: r.kind, line: r.sl, endLine: r.el}
		x.name3 = embed.Words(r.name)
		x.sig = embed.Words(r.sig)
		x.doc = embed.Words(r.doc)
		if (r.kind == "function" || r.kind == "method" || r.kind == "constructor") && r.eb <= len(content) && r.sb < r.eb {
			b := embed.Words(string(content[r.sb:r.eb]))
			if len(b) > 300 {
				b = b[:300]
			}
			x.body = b
		}
		syms = append(syms, x)
	}
	t.Logf("%d symbols read in %v", len(syms), time.Since(start))
	start = time.Now()
	o := embed.DefaultOptions
	envf := func(k string, d float64) float64 {
		if v := os.Getenv(k); v != "" {
			var f float64
			fmt.Sscan(v, &f)
			return f
		}
		return d
	}
	o.Dim = int(envf("VEC_DIM", float64(o.Dim)))
	o.Window = int(envf("VEC_WINDOW", float64(o.Window)))
	o.AnchorWeight = float32(envf("VEC_ANCHOR", 0))
	o.Shift = envf("VEC_SHIFT", 0)
	o.EigPower = envf("VEC_EIG", o.EigPower)
	m := embed.Train(func(yield func(words, anchors []string)) {
		for _, x := range syms {
			var all []string
			all = append(all, x.name3...)
			all = append(all, x.sig...)
			all = append(all, x.doc...)
			if os.Getenv("VEC_TRAIN_BODY") != "0" {
				all = append(all, x.body...)
			}
			yield(all, x.name3)
		}
	}, o)
	t.Logf("trained %d words x %d in %v", len(m.Words), m.Dim, time.Since(start))
	for _, w := range []string{"retry", "compress", "cookie", "counter", "thread", "parse", "random"} {
		t.Logf("near %s: %v", w, m.Nearest(w, 8))
	}
	start = time.Now()
	vecs := make([][]float32, len(syms))
	for i, x := range syms {
		var words []string
		var wts []float32
		add := func(ws []string, w float32) {
			for _, v := range ws {
				words = append(words, v)
				wts = append(wts, w)
			}
		}
		add(x.name3, float32(envf("VEC_WNAME", 3)))
		add(x.sig, float32(envf("VEC_WSIG", 1)))
		add(x.doc, float32(envf("VEC_WDOC", 2)))
		add(x.body, float32(envf("VEC_WBODY", 0.5)))
		if os.Getenv("VEC_KINDS") != "all" && !codeKinds[x.kind] {
			continue
		}
		if os.Getenv("VEC_FIELDS") != "0" { // each field's vector normalized, then weighted
			v := make([]float32, m.Dim)
			anyv := false
			for _, f := range []struct {
				ws []string
				w  float64
			}{{x.name3, envf("VEC_WNAME", 1)}, {x.sig, envf("VEC_WSIG", 0.5)}, {x.doc, envf("VEC_WDOC", 1)}, {x.body, envf("VEC_WBODY", 1)}} {
				fv := m.Embed(f.ws, nil)
				if fv == nil {
					continue
				}
				anyv = true
				for k := range v {
					v[k] += float32(f.w) * fv[k]
				}
			}
			if anyv {
				var nn float32
				for _, x := range v {
					nn += x * x
				}
				for k := range v {
					v[k] /= float32(math.Sqrt(float64(nn)))
				}
				vecs[i] = v
			}
			continue
		}
		vecs[i] = m.Embed(words, func(n int) float32 { return wts[n] })
	}
	t.Logf("embedded in %v", time.Since(start))
	if os.Getenv("VEC_PC") != "" { // remove the common component: the mean direction
		mean := make([]float32, m.Dim)
		for _, v := range vecs {
			for k := range v {
				mean[k] += v[k]
			}
		}
		var nn float32
		for _, x := range mean {
			nn += x * x
		}
		for k := range mean {
			mean[k] /= float32(math.Sqrt(float64(nn)))
		}
		for _, v := range vecs {
			if v == nil {
				continue
			}
			d := embed.Dot(v, mean)
			for k := range v {
				v[k] -= d * mean[k]
			}
		}
		pcMean = mean
	}
	var qs []struct {
		ID, Query, Half string
		Target          struct {
			Path, Name string
			Line       int
		}
		Lex []struct {
			Path, Name string
			Line       int
			EndLine    int `json:"end_line"`
		}
	}
	b, err := os.ReadFile(qpath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatal(err)
	}
	match := func(path, name string, line int, tp, tn string, tl int) bool {
		return path == tp && name == tn && line-tl >= -3 && line-tl <= 3
	}
	var mrrLex, mrrVec, mrrFused float64
	n := 0
	for _, q := range qs {
		if q.Half != half {
			continue
		}
		n++
		qv := m.Embed(embed.Words(q.Query), nil)
		if pcMean != nil && qv != nil {
			d := embed.Dot(qv, pcMean)
			for k := range qv {
				qv[k] -= d * pcMean[k]
			}
		}
		type scored struct {
			i int
			s float32
		}
		var sc []scored
		if qv != nil {
			for i, v := range vecs {
				if v != nil {
					d := embed.Dot(qv, v)
					if os.Getenv("VEC_PRIOR") != "0" { // the path's prior, as lex ranks with it
						d *= float32(scoring.PathWeight(scoring.Classify(syms[i].path), false))
					}
					sc = append(sc, scored{i, d})
				}
			}
		}
		sort.Slice(sc, func(a, b int) bool {
			if sc[a].s != sc[b].s {
				return sc[a].s > sc[b].s
			}
			return sc[a].i < sc[b].i
		})
		rr := func(r int) float64 {
			if r > 0 && r <= 10 {
				return 1 / float64(r)
			}
			return 0
		}
		lexRank, vecRank := 0, 0
		var lexKeys, vecKeys []string
		for i, h := range q.Lex {
			if lexRank == 0 && match(h.Path, h.Name, h.Line, q.Target.Path, q.Target.Name, q.Target.Line) {
				lexRank = i + 1
			}
			lexKeys = append(lexKeys, fmt.Sprintf("%s\x00%s\x00%d", h.Path, h.Name, h.Line))
		}
		for i, x := range sc[:min(50, len(sc))] {
			y := syms[x.i]
			if vecRank == 0 && match(y.path, y.name, y.line, q.Target.Path, q.Target.Name, q.Target.Line) {
				vecRank = i + 1
			}
			vecKeys = append(vecKeys, fmt.Sprintf("%s\x00%s\x00%d", y.path, y.name, y.line))
		}
		lists := [][]string{lexKeys, vecKeys}
		if os.Getenv("VEC_FIRST") != "" {
			lists = [][]string{vecKeys, lexKeys}
		}
		fused := scoring.FuseRRF(lists)
		fusedRank := 0
		for i, f := range fused {
			p := strings.Split(f.Key, "\x00")
			var line int
			fmt.Sscan(p[2], &line)
			if match(p[0], p[1], line, q.Target.Path, q.Target.Name, q.Target.Line) {
				fusedRank = i + 1
				break
			}
		}
		mrrLex += rr(lexRank)
		mrrVec += rr(vecRank)
		mrrFused += rr(fusedRank)
		if testing.Verbose() && os.Getenv("QUARRY_VEC_SHOW") != "" {
			top := []string{}
			for _, x := range sc[:min(3, len(sc))] {
				top = append(top, syms[x.i].name)
			}
			t.Logf("%-60q lex %2d vec %2d fused %2d  %s  vec top: %v", q.Query, lexRank, vecRank, fusedRank, q.Target.Name, top)
		}
	}
	t.Logf("%s half, %d description queries: MRR@10 lex %.3f, vec %.3f, fused %.3f", half, n, mrrLex/float64(n), mrrVec/float64(n), mrrFused/float64(n))
}

// TestVectorShortlistRecall measures how many of the exact nearest vectors the signs'
// shortlist keeps, on the store at QUARRY_VEC_STORE (indexed with its vectors) for the
// queries at QUARRY_VEC_QUERIES.
func TestVectorShortlistRecall(t *testing.T) {
	storePath, qpath := os.Getenv("QUARRY_VEC_STORE"), os.Getenv("QUARRY_VEC_QUERIES")
	if storePath == "" || qpath == "" {
		t.Skip("QUARRY_VEC_STORE and QUARRY_VEC_QUERIES are not set")
	}
	s, err := store.Open(storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var qs []struct{ Query string }
	b, _ := os.ReadFile(qpath)
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var r10, r50 float64
	n := 0
	for _, q := range qs {
		vecAlwaysExact = true
		exact, err := Of(s).Search(ctx, q.Query, 50, nil)
		vecAlwaysExact = false
		if err != nil {
			t.Fatal(err)
		}
		short, err := Of(s).Search(ctx, q.Query, 50, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(exact) < 50 {
			continue
		}
		in := map[string]bool{}
		for _, h := range short {
			in[h.ID] = true
		}
		c10, c50 := 0, 0
		for i, h := range exact {
			if in[h.ID] {
				c50++
				if i < 10 {
					c10++
				}
			}
		}
		r10 += float64(c10) / 10
		r50 += float64(c50) / 50
		n++
	}
	t.Logf("%d queries: the shortlist keeps %.3f of the exact top 10, %.3f of the top 50", n, r10/float64(n), r50/float64(n))
}
