// Command searchbench times content-regex searches against zoekt-webserver and Quarry's
// MCP HTTP server, and counts the lines each engine finds.
//
// For each of R rounds, after warm-up rounds that are not timed, it sends each query to
// zoekt and then to Quarry, one request at a time, and times each request on the client
// side: from sending the request to having read the whole response body. It prints the
// median and p95 latency of each engine per query, the ratio quarry/zoekt, and how many
// matching lines each engine returned. With -count (the default) it then asks each engine
// once more, untimed, for every matching line (zoekt without display limits, Quarry by
// following next_cursor page by page), and with -dump it writes those lines as sorted
// path:line lists for a comparison with ripgrep.
//
// It uses the standard library only.
//
//	searchbench -zoekt 127.0.0.1:6070 -quarry 127.0.0.1:8765 -rounds 20 \
//	    -q 'func \(\w+ \*Server\) \w+\(' -q 'TODO|FIXME'
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// queryList is a repeatable -q flag.
type queryList []string

func (q *queryList) String() string     { return strings.Join(*q, ", ") }
func (q *queryList) Set(s string) error { *q = append(*q, s); return nil }

type config struct {
	zoektAddr, quarryAddr string
	queries               []string
	rounds, warmup, limit int
	count, raw            bool
	maxPages, maxBytes    int
	dump, target, jsonOut string
	timeout, wait         time.Duration
}

func main() {
	var cfg config
	var qs queryList
	var queryFile string
	flag.StringVar(&cfg.zoektAddr, "zoekt", "", "zoekt-webserver address (HOST:PORT or URL), started with -rpc; empty: skip zoekt")
	flag.StringVar(&cfg.quarryAddr, "quarry", "", "quarry mcp --http address (HOST:PORT or URL); empty: skip Quarry")
	flag.Var(&qs, "q", "a regex to search for (repeatable); RE2 syntax, case-sensitive")
	flag.StringVar(&queryFile, "queries", "", "a file of regexes, one per line (blank lines and lines starting with # are skipped)")
	flag.IntVar(&cfg.rounds, "rounds", 20, "timed rounds (0: no timing, only -count)")
	flag.IntVar(&cfg.warmup, "warmup", 1, "untimed warm-up rounds before the timed ones")
	flag.IntVar(&cfg.limit, "limit", 500, "matching lines per timed request: Quarry's limit, zoekt's MaxDocDisplayCount and MaxMatchDisplayCount")
	flag.StringVar(&cfg.target, "target", "content", "fast_search's target (content, auto, definitions, files); with another than content, use -raw")
	flag.BoolVar(&cfg.raw, "raw", false, "send each query as written, in each engine's own query language, instead of as a case-sensitive content regex")
	flag.BoolVar(&cfg.count, "count", true, "after timing, fetch every matching line from each engine (untimed)")
	flag.IntVar(&cfg.maxPages, "max-pages", 1000, "most Quarry pages to follow when counting")
	flag.IntVar(&cfg.maxBytes, "quarry-max-bytes", 0, "send fast_search this max_bytes (0: send none, so the server's default budget for agents applies)")
	flag.StringVar(&cfg.dump, "dump", "", "with -count, write each engine's matching lines to DIR/ENGINE-N.txt (N: the query's number from 1), sorted path:line")
	flag.StringVar(&cfg.jsonOut, "json", "", "also write the timings as JSON lines to FILE, one per query and engine (see jsonResult)")
	flag.DurationVar(&cfg.timeout, "timeout", 2*time.Minute, "timeout of one request")
	flag.DurationVar(&cfg.wait, "wait", time.Minute, "how long to wait for each server to answer at start")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: searchbench [flags] (-q REGEX ... | -queries FILE)\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	cfg.queries = qs
	if queryFile != "" {
		more, err := readQueries(queryFile)
		if err != nil {
			fatalf("%v", err)
		}
		cfg.queries = append(cfg.queries, more...)
	}
	if flag.NArg() > 0 {
		fatalf("unexpected arguments %q: give queries with -q or -queries", flag.Args())
	}
	if len(cfg.queries) == 0 {
		fatalf("no queries: give -q REGEX or -queries FILE")
	}
	if cfg.zoektAddr == "" && cfg.quarryAddr == "" {
		fatalf("no engine: give -zoekt ADDR, -quarry ADDR or both")
	}
	if cfg.rounds < 0 || cfg.warmup < 0 || cfg.limit < 1 {
		fatalf("-rounds and -warmup must be >= 0 and -limit >= 1")
	}
	if err := run(context.Background(), cfg, os.Stdout); err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "searchbench: "+format+"\n", args...)
	os.Exit(2)
}

// readQueries reads a file of queries, one a line.
func readQueries(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out, nil
}

// page is what one timed request returned.
type page struct {
	lines     int           // distinct matching lines (path, line) in the response
	server    time.Duration // the time the engine reports it took; -1 if it reports none
	truncated bool          // the engine says there are more
	note      string        // anything worth printing once (Quarry's truncated_reason)
}

// engine is a search engine under test.
type engine interface {
	name() string
	// search sends the timed request for regex re.
	search(ctx context.Context, re string) (page, error)
	// all returns every matching line of re as path:line, untimed.
	all(ctx context.Context, re string) ([]string, string, error)
}

// stats collects one engine's results for one query.
type stats struct {
	times  []time.Duration
	server []time.Duration // the engine's own times, where it reports them
	page   page
	errs   int
	err    error // the first error
	total  int   // lines from all(); -1 if not counted
	detail string
}

func run(ctx context.Context, cfg config, w io.Writer) error {
	client := &http.Client{Timeout: cfg.timeout}
	var engines []engine
	if cfg.zoektAddr != "" {
		z := &zoekt{base: baseURL(cfg.zoektAddr), client: client, limit: cfg.limit, raw: cfg.raw}
		if err := waitFor(ctx, cfg.wait, z.ready); err != nil {
			fmt.Fprintf(w, "searchbench: zoekt at %s does not answer, left out: %v\n", z.base, err)
		} else {
			engines = append(engines, z)
		}
	}
	if cfg.quarryAddr != "" {
		q := &quarry{url: baseURL(cfg.quarryAddr) + "/", client: client, limit: cfg.limit, maxPages: cfg.maxPages, maxBytes: cfg.maxBytes, raw: cfg.raw, target: cfg.target}
		if err := waitFor(ctx, cfg.wait, q.initialize); err != nil {
			fmt.Fprintf(w, "searchbench: quarry at %s does not answer, left out: %v\n", q.url, err)
		} else {
			defer q.close()
			engines = append(engines, q)
		}
	}
	if len(engines) == 0 {
		return errors.New("no engine answered")
	}

	res := make([][]*stats, len(cfg.queries)) // [query][engine]
	for i := range res {
		res[i] = make([]*stats, len(engines))
		for j := range engines {
			res[i][j] = &stats{total: -1}
		}
	}
	if cfg.rounds > 0 {
		fmt.Fprintf(w, "searchbench: %d queries, %d warm-up + %d timed rounds, engines in turn: %s\n",
			len(cfg.queries), cfg.warmup, cfg.rounds, engineNames(engines))
		for r := -cfg.warmup; r < cfg.rounds; r++ {
			for i, re := range cfg.queries {
				for j, e := range engines {
					st := res[i][j]
					if st.err != nil && len(st.times) == 0 && r >= 0 {
						continue // failed in the warm-up and never worked: don't hammer it
					}
					start := time.Now()
					p, err := e.search(ctx, re)
					d := time.Since(start)
					if err != nil {
						st.errs++
						if st.err == nil {
							st.err = err
						}
						continue
					}
					st.page = p
					if r >= 0 {
						st.times = append(st.times, d)
						if p.server >= 0 {
							st.server = append(st.server, p.server)
						}
					}
				}
			}
		}
	}
	if cfg.count {
		for i, re := range cfg.queries {
			for j, e := range engines {
				st := res[i][j]
				lines, detail, err := e.all(ctx, re)
				if err != nil {
					if st.err == nil {
						st.err = err
					}
					continue
				}
				st.total, st.detail = len(lines), detail
				if cfg.dump != "" {
					name := filepath.Join(cfg.dump, fmt.Sprintf("%s-%d.txt", e.name(), i+1))
					if err := writeLines(name, lines); err != nil {
						return err
					}
				}
			}
		}
	}
	report(w, cfg, engines, res)
	if cfg.jsonOut != "" {
		if err := writeJSON(cfg.jsonOut, cfg, engines, res); err != nil {
			return err
		}
	}
	return nil
}

// jsonResult is one line of -json: one engine's timings of one query. Times are in
// milliseconds; a time is null when the engine answered no timed request.
type jsonResult struct {
	QueryIndex int      `json:"query_index"` // from 1, in the order of the queries
	Query      string   `json:"query"`
	Engine     string   `json:"engine"`
	P50MS      *float64 `json:"p50_ms"`
	P95MS      *float64 `json:"p95_ms"`
	MinMS      *float64 `json:"min_ms"`
	ServerP50  *float64 `json:"server_p50_ms"` // the engine's own time, where it reports one
	Runs       int      `json:"runs"`          // timed requests that succeeded
	Errors     int      `json:"errors"`        // requests that failed, warm-up included
	Error      string   `json:"error,omitempty"`
	PageLines  int      `json:"page_lines"`
	Truncated  bool     `json:"truncated"`
	AllLines   *int     `json:"all_lines"` // with -count
}

// writeJSON writes the -json file: a line per query and engine, engines in the order they
// answered at start. An engine that never answered at start has no lines.
func writeJSON(name string, cfg config, engines []engine, res [][]*stats) error {
	msp := func(d time.Duration) *float64 {
		if d < 0 {
			return nil
		}
		v := float64(d) / float64(time.Millisecond)
		return &v
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i, q := range cfg.queries {
		for j, e := range engines {
			st := res[i][j]
			med, p95, lo := summarize(st.times)
			smed, _, _ := summarize(st.server)
			r := jsonResult{QueryIndex: i + 1, Query: q, Engine: e.name(), P50MS: msp(med), P95MS: msp(p95),
				MinMS: msp(lo), ServerP50: msp(smed), Runs: len(st.times), Errors: st.errs,
				PageLines: st.page.lines, Truncated: st.page.truncated}
			if st.err != nil {
				r.Error = st.err.Error()
			}
			if st.total >= 0 {
				r.AllLines = &st.total
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}

func engineNames(es []engine) string {
	var names []string
	for _, e := range es {
		names = append(names, e.name())
	}
	return strings.Join(names, ", ")
}

// waitFor calls f until it succeeds or d has passed.
func waitFor(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	deadline := time.Now().Add(d)
	for {
		err := f(ctx)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func writeLines(name string, lines []string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return os.WriteFile(name, []byte(b.String()), 0o644)
}

// report prints one block per query and a summary table.
func report(w io.Writer, cfg config, engines []engine, res [][]*stats) {
	for i, re := range cfg.queries {
		fmt.Fprintf(w, "\nquery %d: %s\n", i+1, re)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "engine\tmedian\tp95\tmin\tserver median\truns\terrors\tpage lines\tall lines\t\n")
		for j, e := range engines {
			st := res[i][j]
			med, p95, lo := summarize(st.times)
			smed, _, _ := summarize(st.server)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t\n", e.name(), ms(med), ms(p95), ms(lo), ms(smed),
				len(st.times), st.errs, pageLines(st), totalLines(st))
		}
		tw.Flush()
		for j, e := range engines {
			st := res[i][j]
			if st.err != nil {
				fmt.Fprintf(w, "  %s error: %v\n", e.name(), st.err)
			}
			if st.page.note != "" {
				fmt.Fprintf(w, "  %s: %s\n", e.name(), st.page.note)
			}
			if st.detail != "" {
				fmt.Fprintf(w, "  %s all lines: %s\n", e.name(), st.detail)
			}
		}
		if r := ratio(engines, res[i]); r != "" {
			fmt.Fprintf(w, "  quarry/zoekt: %s\n", r)
		}
	}
	if len(engines) == 2 && cfg.rounds > 0 {
		fmt.Fprintf(w, "\nsummary (median ms; ratio quarry/zoekt of medians)\n")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "#\tzoekt\tquarry\tratio\tzoekt lines\tquarry lines\tquery\n")
		for i, re := range cfg.queries {
			z, q := res[i][0], res[i][1]
			zm, _, _ := summarize(z.times)
			qm, _, _ := summarize(q.times)
			r := "-"
			if zm > 0 && qm > 0 {
				r = fmt.Sprintf("%.2fx", float64(qm)/float64(zm))
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, ms(zm), ms(qm), r, totalLines(z), totalLines(q), re)
		}
		tw.Flush()
	}
}

// ratio compares Quarry with zoekt for one query.
func ratio(engines []engine, sts []*stats) string {
	if len(engines) != 2 {
		return ""
	}
	zm, zp, _ := summarize(sts[0].times)
	qm, qp, _ := summarize(sts[1].times)
	if zm <= 0 || qm <= 0 {
		return ""
	}
	return fmt.Sprintf("median %.2fx, p95 %.2fx", float64(qm)/float64(zm), float64(qp)/float64(zp))
}

func pageLines(st *stats) string {
	if len(st.times) == 0 && st.errs > 0 {
		return "-"
	}
	s := strconv.Itoa(st.page.lines)
	if st.page.truncated {
		s += "+"
	}
	return s
}

func totalLines(st *stats) string {
	if st.total < 0 {
		return "-"
	}
	return strconv.Itoa(st.total)
}

// summarize returns the median, the p95 (nearest rank) and the minimum of ds.
func summarize(ds []time.Duration) (med, p95, lo time.Duration) {
	if len(ds) == 0 {
		return -1, -1, -1
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		med = s[n/2]
	} else {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	p95 = s[int(math.Ceil(0.95*float64(n)))-1]
	return med, p95, s[0]
}

func ms(d time.Duration) string {
	if d < 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

// baseURL turns HOST:PORT or a URL into a URL without a trailing slash.
func baseURL(addr string) string {
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	return strings.TrimRight(addr, "/")
}

// sortedKeys returns the path:line keys of set, sorted by path and then line.
func sortedKeys(set map[lineKey]bool) []string {
	keys := make([]lineKey, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b lineKey) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.line - b.line
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.path + ":" + strconv.Itoa(k.line)
	}
	return out
}

type lineKey struct {
	path string
	line int
}

// ---- zoekt ----

// zoekt speaks zoekt-webserver's JSON API (-rpc): POST /api/search.
type zoekt struct {
	base   string
	client *http.Client
	limit  int
	raw    bool // send queries as written
}

func (z *zoekt) name() string { return "zoekt" }

// zoektQuery writes regex re in zoekt's query language as a case-sensitive content regex:
// case:yes content:"RE". Inside double quotes zoekt's parser takes a backslash as escaping
// the next character, so each backslash and double quote of re is escaped once more;
// quoting keeps spaces and parentheses of the regex from being read as query syntax.
func zoektQuery(re string) string {
	var b strings.Builder
	b.WriteString(`case:yes content:"`)
	for _, r := range re {
		if r == '\\' || r == '"' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// zoektOptions is the subset of zoekt.SearchOptions that searchbench sets.
type zoektOptions struct {
	ShardMaxMatchCount   int   `json:",omitempty"`
	TotalMaxMatchCount   int   `json:",omitempty"`
	MaxWallTime          int64 `json:",omitempty"` // time.Duration: nanoseconds
	MaxDocDisplayCount   int   `json:",omitempty"`
	MaxMatchDisplayCount int   `json:",omitempty"`
}

type zoektReply struct {
	Error  string
	Result *struct {
		MatchCount int
		Duration   int64 // time.Duration: nanoseconds
		Files      []struct {
			FileName    string
			LineMatches []struct {
				LineNumber    int
				FileName      bool
				LineFragments []struct{}
			}
		}
	}
}

func (z *zoekt) ready(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, z.base+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := z.client.Do(req)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/healthz: %s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return nil
}

// do posts one search and returns the raw body (read whole: that is part of the timing).
func (z *zoekt) do(ctx context.Context, re string, opts zoektOptions) ([]byte, error) {
	q := re
	if !z.raw {
		q = zoektQuery(re)
	}
	in, err := json.Marshal(map[string]any{"Q": q, "Opts": opts})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, z.base+"/api/search", bytes.NewReader(in))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := z.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		var r zoektReply
		if json.Unmarshal(body, &r) == nil && r.Error != "" {
			return nil, fmt.Errorf("zoekt: %s: %s", resp.Status, r.Error)
		}
		return nil, fmt.Errorf("zoekt: %s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return body, nil
}

// lines decodes a reply into its set of matching lines and counts the matches in them
// (a line may hold several).
func (z *zoekt) lines(body []byte) (map[lineKey]bool, int, *zoektReply, error) {
	var r zoektReply
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, 0, nil, fmt.Errorf("zoekt: decoding the reply: %w", err)
	}
	if r.Result == nil {
		return nil, 0, nil, fmt.Errorf("zoekt: reply without Result: %.200s", body)
	}
	set := map[lineKey]bool{}
	matches := 0
	for _, f := range r.Result.Files {
		for _, lm := range f.LineMatches {
			if lm.FileName {
				continue // a match on the file's name, not its content
			}
			set[lineKey{f.FileName, lm.LineNumber}] = true
			matches += max(1, len(lm.LineFragments))
		}
	}
	return set, matches, &r, nil
}

// search asks for the first -limit lines the way a zoekt client does: MaxDocDisplayCount
// lets zoekt-webserver derive its own match limits (CalculateDefaultSearchLimits), and
// MaxMatchDisplayCount cuts the reply to -limit lines, as Quarry's limit does.
func (z *zoekt) search(ctx context.Context, re string) (page, error) {
	body, err := z.do(ctx, re, zoektOptions{MaxDocDisplayCount: z.limit, MaxMatchDisplayCount: z.limit})
	if err != nil {
		return page{}, err
	}
	set, matches, r, err := z.lines(body)
	if err != nil {
		return page{}, err
	}
	// MatchCount counts every match found, before the display limits cut the reply.
	return page{lines: len(set), server: time.Duration(r.Result.Duration), truncated: r.Result.MatchCount > matches}, nil
}

// all asks for every match: no display limits and match limits far above the corpus.
func (z *zoekt) all(ctx context.Context, re string) ([]string, string, error) {
	const many = 100_000_000
	body, err := z.do(ctx, re, zoektOptions{ShardMaxMatchCount: many, TotalMaxMatchCount: many,
		MaxWallTime: int64(5 * time.Minute)})
	if err != nil {
		return nil, "", err
	}
	set, matches, r, err := z.lines(body)
	if err != nil {
		return nil, "", err
	}
	detail := fmt.Sprintf("%d files, %d matches", len(r.Result.Files), matches)
	if r.Result.MatchCount > matches {
		detail += fmt.Sprintf(" of %d found: zoekt cut the reply", r.Result.MatchCount)
	}
	return sortedKeys(set), detail, nil
}

// ---- Quarry ----

// quarry speaks MCP's streamable HTTP transport as raw JSON-RPC over net/http.
type quarry struct {
	url      string
	client   *http.Client
	limit    int
	maxPages int
	maxBytes int  // fast_search's max_bytes; 0: not sent
	raw      bool // send queries as written
	target   string

	session  string // Mcp-Session-Id
	protocol string // the negotiated protocol version
	nextID   int
}

// clientProtocol is the MCP protocol version searchbench asks for.
const clientProtocol = "2025-06-18"

func (q *quarry) name() string { return "quarry" }

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// post sends one JSON-RPC message. For a request (id > 0) it returns the response's
// result; for a notification it returns nil.
func (q *quarry) post(ctx context.Context, method string, params any, id int) (json.RawMessage, http.Header, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	if id > 0 {
		msg["id"] = id
	}
	in, err := json.Marshal(msg)
	if err != nil {
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, q.url, bytes.NewReader(in))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if q.session != "" {
		req.Header.Set("Mcp-Session-Id", q.session)
	}
	if q.protocol != "" {
		req.Header.Set("Mcp-Protocol-Version", q.protocol)
	}
	resp, err := q.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, nil, fmt.Errorf("%s %s: %s: %s", method, q.url, resp.Status, bytes.TrimSpace(body))
	}
	if id <= 0 {
		return nil, resp.Header, nil
	}
	r, err := rpcReply(resp.Header.Get("Content-Type"), body, id)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", method, err)
	}
	if r.Error != nil {
		return nil, nil, fmt.Errorf("%s: JSON-RPC error %d: %s %s", method, r.Error.Code, r.Error.Message, r.Error.Data)
	}
	return r.Result, resp.Header, nil
}

// rpcReply finds the response to request id in a body that is either one JSON-RPC
// message (application/json) or a stream of server-sent events (text/event-stream), whose
// data: lines carry messages.
func rpcReply(contentType string, body []byte, id int) (*rpcResponse, error) {
	want := strconv.Itoa(id)
	match := func(data []byte) (*rpcResponse, bool) {
		var r rpcResponse
		if json.Unmarshal(data, &r) != nil || string(r.ID) != want {
			return nil, false
		}
		if r.Result == nil && r.Error == nil {
			return nil, false
		}
		return &r, true
	}
	if !strings.HasPrefix(contentType, "text/event-stream") {
		if r, ok := match(body); ok {
			return r, nil
		}
		return nil, fmt.Errorf("no response with id %s in %q reply: %.300s", want, contentType, body)
	}
	// An event's data is its data: lines joined by newlines; a blank line ends the event.
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 1<<20), len(body)+1)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if r, ok := match(data); ok {
				return r, nil
			}
			data = data[:0]
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if r, ok := match(data); ok {
		return r, nil
	}
	return nil, fmt.Errorf("no response with id %s in the event stream: %.300s", want, body)
}

// initialize opens an MCP session: initialize, then notifications/initialized.
func (q *quarry) initialize(ctx context.Context) error {
	q.session, q.protocol = "", ""
	q.nextID++
	res, hdr, err := q.post(ctx, "initialize", map[string]any{
		"protocolVersion": clientProtocol,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "searchbench", "version": "1"},
	}, q.nextID)
	if err != nil {
		return err
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(res, &init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	q.session = hdr.Get("Mcp-Session-Id")
	q.protocol = init.ProtocolVersion
	if q.protocol == "" {
		q.protocol = clientProtocol
	}
	_, _, err = q.post(ctx, "notifications/initialized", nil, 0)
	return err
}

// close ends the session (DELETE, as the transport asks); errors do not matter.
func (q *quarry) close() {
	if q.session == "" {
		return
	}
	req, err := http.NewRequest(http.MethodDelete, q.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", q.session)
	req.Header.Set("Mcp-Protocol-Version", q.protocol)
	if resp, err := q.client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// quarryQuery writes regex re as a Quarry /regex/ term: a slash inside is written \/.
func quarryQuery(re string) string {
	var b strings.Builder
	b.WriteByte('/')
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\' && i+1 < len(re):
			b.WriteByte(c)
			b.WriteByte(re[i+1])
			i++
		case c == '/':
			b.WriteString(`\/`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('/')
	return b.String()
}

// searchResult is the part of fast_search's structured result that searchbench reads.
type searchResult struct {
	Results []struct {
		Hit  string `json:"hit"`
		Path string `json:"path"`
		Line int    `json:"line"`
	} `json:"results"`
	Truncated       bool     `json:"truncated"`
	TruncatedReason string   `json:"truncated_reason"`
	ElapsedMS       *float64 `json:"elapsed_ms"`
	NextCursor      string   `json:"next_cursor"`
	Errors          []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"errors"`
}

// call runs fast_search for one page; cursor is "" for the first.
func (q *quarry) call(ctx context.Context, re, cursor string) (*searchResult, error) {
	query := re
	if !q.raw {
		query = quarryQuery(re)
	}
	args := map[string]any{"query": query, "target": q.target, "limit": q.limit}
	if q.maxBytes > 0 {
		args["max_bytes"] = q.maxBytes
	}
	if cursor != "" {
		args["cursor"] = cursor
	}
	q.nextID++
	res, _, err := q.post(ctx, "tools/call", map[string]any{"name": "fast_search", "arguments": args}, q.nextID)
	if err != nil {
		return nil, err
	}
	var tr struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &tr); err != nil {
		return nil, fmt.Errorf("tools/call: %w", err)
	}
	if tr.IsError {
		var texts []string
		for _, c := range tr.Content {
			if c.Text != "" {
				texts = append(texts, c.Text)
			}
		}
		msg := strings.Join(texts, " ")
		if msg == "" {
			msg = string(tr.StructuredContent)
		}
		return nil, errors.New("fast_search error: " + msg)
	}
	if len(tr.StructuredContent) == 0 || string(tr.StructuredContent) == "null" {
		return nil, fmt.Errorf("fast_search: result without structuredContent: %.300s", res)
	}
	var sr searchResult
	if err := json.Unmarshal(tr.StructuredContent, &sr); err != nil {
		return nil, fmt.Errorf("fast_search: decoding structuredContent: %w", err)
	}
	return &sr, nil
}

// contentLines adds the content hits of sr to set and returns how many were new.
func contentLines(sr *searchResult, set map[lineKey]bool) int {
	n := 0
	for _, h := range sr.Results {
		if h.Hit != "content" {
			continue
		}
		k := lineKey{h.Path, h.Line}
		if !set[k] {
			set[k] = true
			n++
		}
	}
	return n
}

func (q *quarry) search(ctx context.Context, re string) (page, error) {
	sr, err := q.call(ctx, re, "")
	if err != nil {
		return page{}, err
	}
	p := page{lines: contentLines(sr, map[lineKey]bool{}), truncated: sr.Truncated, server: -1}
	if sr.ElapsedMS != nil {
		p.server = time.Duration(*sr.ElapsedMS * float64(time.Millisecond))
	}
	if sr.TruncatedReason != "" {
		p.note = "first page truncated: " + sr.TruncatedReason
	}
	for _, e := range sr.Errors {
		p.note += fmt.Sprintf(" [error %s: %s]", e.Code, e.Message)
	}
	p.note = strings.TrimSpace(p.note)
	return p, nil
}

// all follows next_cursor from the first page until it is absent.
func (q *quarry) all(ctx context.Context, re string) ([]string, string, error) {
	set := map[lineKey]bool{}
	cursor := ""
	pages := 0
	for {
		sr, err := q.call(ctx, re, cursor)
		if err != nil {
			return nil, "", fmt.Errorf("page %d: %w", pages+1, err)
		}
		pages++
		contentLines(sr, set)
		if sr.NextCursor == "" {
			detail := fmt.Sprintf("%d pages", pages)
			if sr.Truncated {
				// More results exist than the pages gave, and no cursor leads to them.
				detail += fmt.Sprintf(", last page truncated (%s) without next_cursor: a lower bound", sr.TruncatedReason)
			}
			return sortedKeys(set), detail, nil
		}
		if pages >= q.maxPages {
			return sortedKeys(set), fmt.Sprintf("stopped after -max-pages %d pages: a lower bound", pages), nil
		}
		cursor = sr.NextCursor
	}
}
