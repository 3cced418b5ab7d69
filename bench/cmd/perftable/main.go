// Command perftable reads the JSON lines bench/perf.sh collects and prints its markdown
// table: Quarry against zoekt+ctags, medians over the runs and the ratio quarry/zoekt.
//
//	perftable [-skip-build] [-o FILE] RUNS.jsonl
//
// Each line of RUNS.jsonl has "tags" with a "step" (and mostly an "engine"):
//
//   - full, nochange, edit, cli: a line of bench/cmd/measure (tags engine, pair or run,
//     and query for cli). A non-zero exit_code marks the step as failed.
//   - size: {"bytes": N}: an engine's index on disk after a full build (tag pair).
//   - corpus: {"bytes": N, "files": N}: the corpus, without Quarry's .quarry.
//   - warm: a line of searchbench -json (engine, query, p50_ms, p95_ms, ...).
//   - fail: {"what": "..."}: a step perf.sh saw fail outside measure.
//
// A cell with no number prints "failed" and makes perftable exit 1, except those that do
// not apply: zoekt's re-index rows ("n/a"), and with -skip-build the rows of the full
// builds ("skipped"). It uses the standard library only.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// record is the union of the fields perftable reads from any line.
type record struct {
	Tags map[string]string `json:"tags"`

	// measure
	WallS            float64 `json:"wall_s"`
	CPUS             float64 `json:"cpu_s"`
	PeakRSSTreeBytes int64   `json:"peak_rss_tree_bytes"`
	MaxRSSBytes      int64   `json:"maxrss_bytes"`
	WrittenBytes     int64   `json:"written_bytes"`
	ExitCode         *int    `json:"exit_code"`
	Signal           string  `json:"signal"`

	// size, corpus
	Bytes       int64  `json:"bytes"`
	Files       int64  `json:"files"`
	Symbols     *int64 `json:"symbols"`      // size: the symbols the build extracted
	ParseErrors *int64 `json:"parse_errors"` // size: files whose parse failed or timed out

	// warm, regex (searchbench -json)
	Query    string   `json:"query"`
	Engine   string   `json:"engine"`
	P50MS    *float64 `json:"p50_ms"`
	P95MS    *float64 `json:"p95_ms"`
	Runs     int      `json:"runs"`
	Errors   int      `json:"errors"`
	Error    string   `json:"error"`
	AllLines *int     `json:"all_lines"` // regex: every matching line, through every page

	// fail
	What string `json:"what"`
}

func (r *record) step() string { return r.Tags["step"] }

func (r *record) engine() string {
	if e := r.Tags["engine"]; e != "" {
		return e
	}
	return r.Engine
}

func (r *record) ok() bool { return r.ExitCode != nil && *r.ExitCode == 0 && r.Signal == "" }

func main() {
	skipBuild := flag.Bool("skip-build", false, "the full builds and re-indexes were skipped on purpose: print \"skipped\" in their rows")
	out := flag.String("o", "", "also write the table to this file")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: perftable [-skip-build] [-o FILE] RUNS.jsonl\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "perftable: %v\n", err)
		os.Exit(2)
	}
	recs, err := readRecords(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "perftable: %s: %v\n", flag.Arg(0), err)
		os.Exit(2)
	}
	text, failed := table(recs, *skipBuild)
	fmt.Print(text)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "perftable: %v\n", err)
			os.Exit(2)
		}
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "perftable: %d cells failed (no number): see the notes under the table\n", failed)
		os.Exit(1)
	}
}

func readRecords(r io.Reader) ([]record, error) {
	var recs []record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var rec record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if rec.step() == "" {
			return nil, fmt.Errorf("line %d: no tags.step", n)
		}
		recs = append(recs, rec)
	}
	return recs, sc.Err()
}

// cell is one number of the table, or why there is none.
type cell struct {
	v    float64
	ok   bool
	why  string // "failed", "n/a", "skipped" when !ok
	text string // the formatted number (and any note), when ok
}

func failedCell() cell        { return cell{why: "failed"} }
func noCell(why string) cell  { return cell{why: why} }
func (c cell) String() string { return cond(c.ok, c.text, c.why) }

func cond[T any](b bool, x, y T) T {
	if b {
		return x
	}
	return y
}

type row struct {
	name          string
	quarry, zoekt cell
	ratio         cell // quarry/zoekt
}

// builder accumulates rows and notes.
type builder struct {
	recs      []record
	skipBuild bool
	rows      []row
	notes     []string
	failed    int
}

func (b *builder) note(format string, args ...any) {
	if n := fmt.Sprintf(format, args...); !slices.Contains(b.notes, n) {
		b.notes = append(b.notes, n)
	}
}

// measured returns the measure records of step and engine (and extra tag filters), and
// whether all of them succeeded; failures are noted.
func (b *builder) measured(step, engine string, where map[string]string) ([]record, bool) {
	var out []record
	ok := true
	for _, r := range b.recs {
		if r.step() != step || r.engine() != engine {
			continue
		}
		match := true
		for k, v := range where {
			if r.Tags[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		if !r.ok() {
			ok = false
			why := "exit " + strconv.Itoa(deref(r.ExitCode, -1))
			if r.Signal != "" {
				why = "signal " + r.Signal
			}
			b.note("%s %s (%s) failed: %s", engine, step, tagString(r.Tags), why)
			continue
		}
		out = append(out, r)
	}
	return out, ok && len(out) > 0
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func tagString(tags map[string]string) string {
	keys := make([]string, 0, len(tags))
	for k := range tags {
		if k != "step" && k != "engine" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+tags[k])
	}
	return strings.Join(parts, " ")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// measuredCell is the median of field over the records of step and engine.
func (b *builder) measuredCell(step, engine string, where map[string]string, field func(record) float64, format func(float64) string) (cell, []float64) {
	recs, ok := b.measured(step, engine, where)
	if !ok {
		if len(recs) == 0 && !b.anyStep(step, engine, where) {
			b.note("%s %s: no run recorded", engine, step)
		}
		return failedCell(), nil
	}
	var xs []float64
	for _, r := range recs {
		xs = append(xs, field(r))
	}
	m := median(xs)
	return cell{v: m, ok: true, text: format(m)}, xs
}

func (b *builder) anyStep(step, engine string, where map[string]string) bool {
	for _, r := range b.recs {
		if r.step() == step && r.engine() == engine {
			match := true
			for k, v := range where {
				if r.Tags[k] != v {
					match = false
				}
			}
			if match {
				return true
			}
		}
	}
	return false
}

func secs(v float64) string { return fmt.Sprintf("%.2f s", v) }
func msec(v float64) string { return fmt.Sprintf("%.1f ms", v) }
func mb(v float64) string   { return fmt.Sprintf("%.1f MB", v/1e6) }

func ratioCell(q, z cell) cell {
	if !q.ok || !z.ok {
		if q.why == "n/a" || z.why == "n/a" {
			return noCell("n/a")
		}
		if q.why == "skipped" || z.why == "skipped" {
			return noCell("skipped")
		}
		return failedCell()
	}
	if z.v == 0 {
		return noCell("n/a") // nothing to divide by: not a failure of a run
	}
	r := q.v / z.v
	return cell{v: r, ok: true, text: fmt.Sprintf("%.2fx", r)}
}

func (b *builder) add(name string, q, z cell) {
	b.rows = append(b.rows, row{name: name, quarry: q, zoekt: z, ratio: ratioCell(q, z)})
}

// spread notes every value behind a median, for the reader to judge the noise.
func (b *builder) spread(what string, q, z []float64, format func(float64) string) {
	if len(q) < 2 && len(z) < 2 {
		return
	}
	list := func(xs []float64) string {
		var s []string
		for _, x := range xs {
			s = append(s, format(x))
		}
		return strings.Join(s, ", ")
	}
	b.note("%s per run: quarry %s; zoekt %s", what, cond(len(q) > 0, list(q), "-"), cond(len(z) > 0, list(z), "-"))
}

func table(recs []record, skipBuild bool) (string, int) {
	b := &builder{recs: recs, skipBuild: skipBuild}
	for _, r := range recs {
		if r.step() == "fail" {
			b.note("perf.sh: %s", r.What)
		}
	}

	var corpus int64
	for _, r := range recs {
		if r.step() == "corpus" {
			corpus = r.Bytes
		}
	}

	// --- full builds ---
	if skipBuild {
		for _, name := range []string{"full index wall", "full index CPU (user+sys)", "full index peak RSS (process tree)"} {
			b.add(name, noCell("skipped"), noCell("skipped"))
		}
	} else {
		engines := []string{"quarry", "zoekt"}
		var wall, cpu, rss [2]cell
		var wallXs, cpuXs, rssXs [2][]float64
		for i, e := range engines {
			wall[i], wallXs[i] = b.measuredCell("full", e, nil, func(r record) float64 { return r.WallS }, secs)
			cpu[i], cpuXs[i] = b.measuredCell("full", e, nil, func(r record) float64 { return r.CPUS }, secs)
			rss[i], rssXs[i] = b.measuredCell("full", e, nil, func(r record) float64 { return float64(r.PeakRSSTreeBytes) }, mb)
		}
		b.add("full index wall", wall[0], wall[1])
		b.add("full index CPU (user+sys)", cpu[0], cpu[1])
		b.add("full index peak RSS (process tree)", rss[0], rss[1])
		b.spread("full index wall", wallXs[0], wallXs[1], secs)
		b.spread("full index CPU", cpuXs[0], cpuXs[1], secs)
		b.spread("full index peak RSS", rssXs[0], rssXs[1], mb)
	}

	// --- on disk, and bytes written per build against it ---
	var disk, written [2]cell
	var diskXs [2][]float64
	for i, e := range []string{"quarry", "zoekt"} {
		var sizes []float64
		sizeByPair := map[string]float64{}
		for _, r := range recs {
			if r.step() == "size" && r.engine() == e {
				sizes = append(sizes, float64(r.Bytes))
				sizeByPair[r.Tags["pair"]] = float64(r.Bytes)
			}
		}
		if len(sizes) == 0 {
			b.note("%s: no index size recorded", e)
			disk[i] = failedCell()
		} else {
			m := median(sizes)
			text := mb(m)
			if corpus > 0 {
				text += fmt.Sprintf(" (%.2fx corpus)", m/float64(corpus))
			}
			disk[i] = cell{v: m, ok: true, text: text}
			diskXs[i] = sizes
		}
		if skipBuild {
			written[i] = noCell("skipped")
			continue
		}
		recs, ok := b.measured("full", e, nil)
		if !ok {
			written[i] = failedCell()
			continue
		}
		var ws, xs []float64
		for _, r := range recs {
			ws = append(ws, float64(r.WrittenBytes))
			if s := sizeByPair[r.Tags["pair"]]; s > 0 {
				xs = append(xs, float64(r.WrittenBytes)/s)
			}
		}
		m := median(ws)
		text := mb(m)
		if len(xs) > 0 {
			text += fmt.Sprintf(" (%.2fx index)", median(xs))
		}
		written[i] = cell{v: m, ok: true, text: text}
	}
	if corpus <= 0 {
		b.note("no corpus size recorded")
		b.failed++
	}
	b.symbols()
	b.add("index on disk (x corpus)", disk[0], disk[1])
	b.add("bytes written per full build (x final index)", written[0], written[1])
	b.spread("index on disk", diskXs[0], diskXs[1], mb)

	// --- warm latency ---
	b.warm()
	b.regex()

	// --- one-shot CLI ---
	// a row for each query and mode (tag mode: "walk", every search compares the workspace
	// with the index itself; "watcher", the watcher the first search left behind answers)
	type cliRow struct{ query, mode string }
	var rows []cliRow
	for _, r := range recs {
		if row := (cliRow{r.Tags["query"], r.Tags["mode"]}); r.step() == "cli" && !slices.Contains(rows, row) {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		b.note("no one-shot CLI run recorded")
		b.add("one-shot CLI", failedCell(), failedCell())
	}
	for _, row := range rows {
		where := map[string]string{"query": row.query, "mode": row.mode}
		qc, qx := b.measuredCell("cli", "quarry", where, func(r record) float64 { return r.WallS * 1000 }, msec)
		zc, zx := b.measuredCell("cli", "zoekt", where, func(r record) float64 { return r.WallS * 1000 }, msec)
		name := fmt.Sprintf("one-shot CLI `%s` (median of %d)", row.query, max(len(qx), len(zx)))
		switch row.mode {
		case "walk":
			name = fmt.Sprintf("one-shot CLI `%s`, QUARRY_AUTOWATCH=0 (median of %d)", row.query, max(len(qx), len(zx)))
		case "watcher":
			name = fmt.Sprintf("one-shot CLI `%s`, the watcher the first left (median of %d)", row.query, max(len(qx), len(zx)))
		}
		b.add(name, qc, zc)
	}

	// --- re-index, Quarry only ---
	for _, s := range []struct{ step, name string }{{"nochange", "no-change re-index"}, {"edit", "one-edit re-index"}} {
		if skipBuild {
			b.add(s.name, noCell("skipped"), noCell("n/a"))
			continue
		}
		c, xs := b.measuredCell(s.step, "quarry", nil, func(r record) float64 { return r.WallS }, secs)
		b.add(s.name, c, noCell("n/a"))
		b.spread(s.name, xs, nil, secs)
	}

	// --- print ---
	var w strings.Builder
	w.WriteString("| | Quarry (median) | zoekt+ctags (median) | quarry/zoekt |\n")
	w.WriteString("|---|---:|---:|---:|\n")
	for _, r := range b.rows {
		for _, c := range []cell{r.quarry, r.zoekt, r.ratio} {
			if !c.ok && c.why == "failed" {
				b.failed++
			}
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %s |\n", r.name, r.quarry, r.zoekt, r.ratio)
	}
	if len(b.notes) > 0 {
		w.WriteString("\n")
		for _, n := range b.notes {
			w.WriteString("- " + n + "\n")
		}
	}
	return w.String(), b.failed
}

// symbols notes how many symbols each engine's builds extracted, and for Quarry in how many
// files the parse failed. The counts should be the same in every build of one corpus; when
// they are not (a parse that timed out under load, for one), the sizes and times of those
// builds are not comparable, and the note says so.
func (b *builder) symbols() {
	var parts []string
	for _, e := range []string{"quarry", "zoekt"} {
		var counts []string
		for _, r := range b.recs {
			if r.step() == "size" && r.engine() == e && r.Symbols != nil {
				c := strconv.FormatInt(*r.Symbols, 10)
				if r.ParseErrors != nil {
					c += fmt.Sprintf(" (files with parse errors: %d)", *r.ParseErrors)
				}
				counts = append(counts, c)
			}
		}
		if len(counts) == 0 {
			continue
		}
		name := cond(e == "zoekt", "zoekt+ctags", e)
		uniq := slices.Compact(slices.Sorted(slices.Values(counts)))
		if len(uniq) == 1 {
			parts = append(parts, name+" "+uniq[0])
		} else {
			parts = append(parts, fmt.Sprintf("%s %s (DIFFERS between builds of the same corpus)", name, strings.Join(counts, ", ")))
		}
	}
	if len(parts) > 0 {
		b.note("symbols per build: %s", strings.Join(parts, "; "))
	}
}

// regex adds a row per content regex of bench/regex-queries.txt: each engine's p50 (the
// first page), and a note of the lines each found through every page (bench/regex.sh
// compares them with ripgrep's).
func (b *builder) regex() {
	type qres struct {
		p50   float64
		lines *int
	}
	got := map[string]map[string]qres{} // query -> engine -> result
	var queries []string
	for _, r := range b.recs {
		if r.step() != "regex" {
			continue
		}
		if !slices.Contains(queries, r.Query) {
			queries = append(queries, r.Query)
			got[r.Query] = map[string]qres{}
		}
		if r.Errors > 0 || r.Error != "" || r.P50MS == nil || r.Runs == 0 {
			b.note("regex: %s on %q: %d runs, %d errors %s", r.engine(), r.Query, r.Runs, r.Errors, r.Error)
			continue
		}
		got[r.Query][r.engine()] = qres{*r.P50MS, r.AllLines}
	}
	if len(queries) == 0 {
		b.note("regex: no searchbench results recorded")
		b.add("content regex p50", failedCell(), failedCell())
		return
	}
	for _, q := range queries {
		cells := [2]cell{failedCell(), failedCell()}
		var lines []string
		for i, e := range []string{"quarry", "zoekt"} {
			if r, ok := got[q][e]; ok {
				cells[i] = cell{v: r.p50, ok: true, text: msec(r.p50)}
				if r.lines != nil {
					lines = append(lines, fmt.Sprintf("%s %d", e, *r.lines))
				}
			}
		}
		b.add(fmt.Sprintf("content regex `%s` p50", strings.ReplaceAll(q, "|", `\|`)), cells[0], cells[1])
		if len(lines) > 0 {
			b.note("regex `%s`: lines through every page: %s", q, strings.Join(lines, ", "))
		}
	}
}

// warm adds the rows of searchbench's timings: the median over queries of each engine's
// p50, the query with the worst p50 ratio, and each engine's worst p95.
func (b *builder) warm() {
	type qres struct{ p50, p95 float64 }
	got := map[string]map[string]qres{} // engine -> query -> times
	var queries []string
	bad := false
	for _, r := range b.recs {
		if r.step() != "warm" {
			continue
		}
		e := r.engine()
		if !slices.Contains(queries, r.Query) {
			queries = append(queries, r.Query)
		}
		if r.Errors > 0 || r.Error != "" || r.P50MS == nil || r.P95MS == nil || r.Runs == 0 {
			b.note("warm: %s on %q: %d runs, %d errors %s", e, r.Query, r.Runs, r.Errors, r.Error)
			bad = true
			continue
		}
		if got[e] == nil {
			got[e] = map[string]qres{}
		}
		got[e][r.Query] = qres{*r.P50MS, *r.P95MS}
	}
	for _, e := range []string{"quarry", "zoekt"} {
		if len(queries) > 0 && len(got[e]) < len(queries) {
			if len(got[e]) == 0 {
				b.note("warm: no timings of %s", e)
			}
			bad = true
		}
	}
	if len(queries) == 0 {
		b.note("warm: no searchbench results recorded")
		bad = true
	}
	if bad {
		b.add("warm p50, median over queries", failedCell(), failedCell())
		b.add("warm worst p50 ratio", failedCell(), failedCell())
		b.add("warm worst p95", failedCell(), failedCell())
		return
	}
	var qp50, zp50 []float64
	worst, worstQ := math.Inf(-1), ""
	var qWorst95, zWorst95 float64
	qWorst95Q, zWorst95Q := "", ""
	for _, q := range queries {
		qr, zr := got["quarry"][q], got["zoekt"][q]
		qp50 = append(qp50, qr.p50)
		zp50 = append(zp50, zr.p50)
		if zr.p50 > 0 && qr.p50/zr.p50 > worst {
			worst, worstQ = qr.p50/zr.p50, q
		}
		if qr.p95 > qWorst95 {
			qWorst95, qWorst95Q = qr.p95, q
		}
		if zr.p95 > zWorst95 {
			zWorst95, zWorst95Q = zr.p95, q
		}
	}
	qm, zm := median(qp50), median(zp50)
	b.add(fmt.Sprintf("warm p50, median over %d queries", len(queries)),
		cell{v: qm, ok: true, text: msec(qm)}, cell{v: zm, ok: true, text: msec(zm)})
	if worstQ == "" {
		b.add("warm worst p50 ratio", failedCell(), failedCell())
		b.note("warm: no query with a zoekt p50 above 0")
	} else {
		qr, zr := got["quarry"][worstQ], got["zoekt"][worstQ]
		b.add(fmt.Sprintf("warm worst p50 ratio (`%s`)", worstQ),
			cell{v: qr.p50, ok: true, text: msec(qr.p50)}, cell{v: zr.p50, ok: true, text: msec(zr.p50)})
	}
	b.add("warm worst p95 (per engine)",
		cell{v: qWorst95, ok: true, text: fmt.Sprintf("%s (`%s`)", msec(qWorst95), qWorst95Q)},
		cell{v: zWorst95, ok: true, text: fmt.Sprintf("%s (`%s`)", msec(zWorst95), zWorst95Q)})
}
