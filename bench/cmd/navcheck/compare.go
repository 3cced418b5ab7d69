package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// oracleDef is one line of an oracle's output: a definition and its uses.
type oracleDef struct {
	Name     string      `json:"name"`
	Path     string      `json:"path"`
	Line     int         `json:"line"`
	Kind     string      `json:"kind"`
	Callable bool        `json:"callable"`
	Uses     []oracleUse `json:"uses"`
}

type oracleUse struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Call bool   `json:"call"`
}

// readOracle reads an oracle's JSON lines: its definitions.
func readOracle(r io.Reader) ([]oracleDef, error) {
	defs, _, err := readOracleAll(r)
	return defs, err
}

// unjudged holds, by path, the line ranges (first and last line) the oracle could not judge:
// code its configuration leaves out (C's #if branches it does not compile). A use Quarry
// resolves there is neither right nor wrong by the oracle, and is not counted as extra.
type unjudged map[string][][2]int

func (u unjudged) has(l loc) bool {
	for _, r := range u[l.Path] {
		if l.Line >= r[0] && l.Line <= r[1] {
			return true
		}
	}
	return false
}

// readOracleAll reads an oracle's JSON lines: its definitions, and its unjudged lines (a line
// {"unjudged": {"PATH": [[FIRST, LAST], ...]}}, any number of them).
func readOracleAll(r io.Reader) ([]oracleDef, unjudged, error) {
	var defs []oracleDef
	u := unjudged{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var un struct {
			Unjudged unjudged `json:"unjudged"`
		}
		if bytes.Contains(line, []byte(`"unjudged"`)) {
			if err := json.Unmarshal(line, &un); err == nil && un.Unjudged != nil {
				for p, rs := range un.Unjudged {
					for _, r := range rs {
						if r[0] < 1 || r[1] < r[0] {
							return nil, nil, fmt.Errorf("line %d: unjudged range %v of %s: want [first, last] lines, first >= 1", n, r, p)
						}
					}
					u[p] = append(u[p], rs...)
				}
				continue
			}
		}
		var d oracleDef
		if err := json.Unmarshal(line, &d); err != nil {
			return nil, nil, fmt.Errorf("line %d: %v", n, err)
		}
		if d.Name == "" || d.Path == "" || d.Line < 1 {
			return nil, nil, fmt.Errorf("line %d: a definition needs name, path and line", n)
		}
		defs = append(defs, d)
	}
	return defs, u, sc.Err()
}

// dropUnjudged removes from the results the resolved uses and call sites the oracle does not
// list that lie in its unjudged lines, and returns how many resolved uses it removed.
func dropUnjudged(results []defResult, u unjudged) int {
	n := 0
	for i := range results {
		r := &results[i]
		for l := range r.Resolved {
			if _, listed := r.Oracle[l]; !listed && u.has(l) {
				delete(r.Resolved, l)
				n++
			}
		}
		for l := range r.Sites {
			if _, listed := r.Oracle[l]; !listed && u.has(l) {
				delete(r.Sites, l)
			}
		}
	}
	return n
}

// The parts of quarry's JSON answers compare reads.
type qSymbol struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Path string `json:"path"`
	Line int    `json:"line"`
}

type qError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type refsPage struct {
	Definition *qSymbol `json:"definition"`
	Results    []struct {
		Path       string `json:"path"`
		Line       int    `json:"line"`
		Kind       string `json:"kind"`
		Resolution string `json:"resolution"`
	} `json:"results"`
	NextCursor string  `json:"next_cursor"`
	Error      *qError `json:"error"`
}

type callersAnswer struct {
	Nodes []struct {
		Depth int    `json:"depth"`
		Name  string `json:"name"`
		Sites []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"sites"`
	} `json:"nodes"`
	Error *qError `json:"error"`
}

type symbolsAnswer struct {
	Results []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Kind      string `json:"kind"`
		StartLine int    `json:"start_line"`
	} `json:"results"`
	Error *qError `json:"error"`
}

// runner runs quarry with args and returns its standard output; a non-zero exit with a JSON
// answer (an error envelope) is not an error of the runner.
type runner func(args ...string) ([]byte, error)

func execRunner(bin, root string) runner {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return func(args ...string) ([]byte, error) {
		cmd := exec.Command(bin, append(args, "--root", root)...)
		cmd.Dir = root // a relative PATH argument (quarry outline PATH) is the workspace's
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if err != nil && errors.As(err, &exit) && bytes.HasPrefix(bytes.TrimSpace(out), []byte("{")) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s: %v: %s", bin, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
}

type loc struct {
	Path string
	Line int
}

func (l loc) String() string { return l.Path + ":" + strconv.Itoa(l.Line) }

// defResult is what compare learned of one oracle definition.
type defResult struct {
	Def      oracleDef
	Missing  bool   // quarry has no definition of this name at or near PATH:LINE
	Found    string // how it was found: "line" or "name"
	QDef     qSymbol
	Oracle   map[loc]bool // oracle use lines (value: a call)
	Resolved map[loc]bool // quarry: resolved to this definition
	Unres    map[loc]bool // quarry: listed as unresolved
	Sites    map[loc]bool // quarry callers: call sites (callables only)
	Err      error
}

const lineSlack = 2   // PATH:LINE may name the definition's first line this far from the oracle's
const nameWindow = 10 // the same name within this many lines of the oracle's line is the definition

func skipPath(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if part == "node_modules" {
			return true
		}
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

type checker struct {
	q       runner
	mu      sync.Mutex
	symbols map[string]*symbolsAnswer
}

func (c *checker) refs(symbol, cursor string) (*refsPage, error) {
	args := []string{"refs", symbol, "--json", "--unresolved", "--limit", "1000"}
	if cursor != "" {
		args = append(args, "--cursor", cursor)
	}
	out, err := c.q(args...)
	if err != nil {
		return nil, err
	}
	var p refsPage
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, fmt.Errorf("quarry refs %s: bad JSON: %v", symbol, err)
	}
	return &p, nil
}

func (c *checker) fileSymbols(path string) (*symbolsAnswer, error) {
	c.mu.Lock()
	s, ok := c.symbols[path]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	out, err := c.q("outline", path, "--json")
	if err != nil {
		return nil, err
	}
	s = &symbolsAnswer{}
	if err := json.Unmarshal(out, s); err != nil {
		return nil, fmt.Errorf("quarry outline %s: bad JSON: %v", path, err)
	}
	c.mu.Lock()
	c.symbols[path] = s
	c.mu.Unlock()
	return s, nil
}

// find gives the first refs page of the oracle's definition: PATH:LINE when quarry's
// definition there has the name within lineSlack lines, else the nearest definition of the
// name in the file (quarry outline) within nameWindow lines. nil: quarry has none.
func (c *checker) find(d oracleDef) (*refsPage, string, error) {
	p, err := c.refs(d.Path+":"+strconv.Itoa(d.Line), "")
	if err != nil {
		return nil, "", err
	}
	if p.Error == nil && p.Definition != nil && p.Definition.Name == d.Name && abs(p.Definition.Line-d.Line) <= lineSlack {
		return p, "line", nil
	}
	syms, err := c.fileSymbols(d.Path)
	if err != nil {
		return nil, "", err
	}
	best, bestDist := "", nameWindow+1
	for _, s := range syms.Results {
		if s.Name == d.Name && s.Kind != "import" && abs(s.StartLine-d.Line) < bestDist {
			best, bestDist = s.ID, abs(s.StartLine-d.Line)
		}
	}
	if best == "" {
		return nil, "", nil
	}
	p, err = c.refs(best, "")
	if err != nil {
		return nil, "", err
	}
	if p.Error != nil || p.Definition == nil || p.Definition.Name != d.Name || abs(p.Definition.Line-d.Line) > nameWindow {
		return nil, "", nil
	}
	return p, "name", nil
}

func (c *checker) check(d oracleDef) defResult {
	r := defResult{Def: d, Oracle: map[loc]bool{}, Resolved: map[loc]bool{}, Unres: map[loc]bool{}, Sites: map[loc]bool{}}
	own := loc{d.Path, d.Line}
	for _, u := range d.Uses {
		l := loc{u.Path, u.Line}
		if skipPath(u.Path) || l == own {
			continue
		}
		r.Oracle[l] = r.Oracle[l] || u.Call
	}
	p, how, err := c.find(d)
	if err != nil {
		r.Err = err
		return r
	}
	if p == nil {
		r.Missing = true
		return r
	}
	r.Found, r.QDef = how, *p.Definition
	qown := loc{p.Definition.Path, p.Definition.Line}
	for pages := 0; ; pages++ {
		for _, res := range p.Results {
			l := loc{res.Path, res.Line}
			if skipPath(res.Path) || l == own || l == qown || res.Kind == "definition" {
				continue
			}
			if res.Resolution != "" {
				r.Resolved[l] = true
			} else {
				r.Unres[l] = true
			}
		}
		if p.NextCursor == "" || pages > 100 {
			break
		}
		if p, err = c.refs(r.QDef.ID, p.NextCursor); err != nil {
			r.Err = err
			return r
		}
		if p.Error != nil {
			r.Err = fmt.Errorf("quarry refs %s --cursor: %s", r.QDef.ID, p.Error.Message)
			return r
		}
	}
	for l := range r.Resolved {
		delete(r.Unres, l) // a line with a resolved use and an unresolved one is resolved
	}
	if d.Callable {
		out, err := c.q("callers", r.QDef.ID, "--json")
		if err != nil {
			r.Err = err
			return r
		}
		var a callersAnswer
		if err := json.Unmarshal(out, &a); err != nil {
			r.Err = fmt.Errorf("quarry callers %s: bad JSON: %v", r.QDef.ID, err)
			return r
		}
		if a.Error != nil {
			r.Err = fmt.Errorf("quarry callers %s: %s", r.QDef.ID, a.Error.Message)
			return r
		}
		for _, n := range a.Nodes {
			if n.Depth != 1 {
				continue
			}
			for _, s := range n.Sites {
				l := loc{s.Path, s.Line}
				if !skipPath(s.Path) && l != own && l != qown {
					r.Sites[l] = true
				}
			}
		}
	}
	return r
}

// totals are the micro-averaged counts of a run.
type totals struct {
	Defs, Missing, MissingUses, Errors  int
	OracleUses, Resolved, Hit, Silent   int
	Unresolved                          int
	CallDefs, OracleCalls, CallHit      int
	Sites, SitesRight                   int
	FoundByName, ZeroUseDefs, ExtraUses int
}

func tally(results []defResult) totals {
	var t totals
	for _, r := range results {
		t.Defs++
		if r.Err != nil {
			t.Errors++
			continue
		}
		if r.Missing {
			t.Missing++
			t.MissingUses += len(r.Oracle)
			continue
		}
		if r.Found == "name" {
			t.FoundByName++
		}
		if len(r.Oracle) == 0 {
			t.ZeroUseDefs++
		}
		t.OracleUses += len(r.Oracle)
		t.Resolved += len(r.Resolved)
		for l := range r.Oracle {
			switch {
			case r.Resolved[l]:
				t.Hit++
			case r.Unres[l]:
				t.Unresolved++
			default:
				t.Silent++
			}
		}
		t.ExtraUses += len(r.Resolved) - countIn(r.Resolved, r.Oracle)
		if r.Def.Callable {
			t.CallDefs++
			for l, call := range r.Oracle {
				if call {
					t.OracleCalls++
					if r.Sites[l] {
						t.CallHit++
					}
				}
			}
			t.Sites += len(r.Sites)
			t.SitesRight += countIn(r.Sites, r.Oracle)
		}
	}
	return t
}

func countIn(set, in map[loc]bool) int {
	n := 0
	for l := range set {
		if _, ok := in[l]; ok {
			n++
		}
	}
	return n
}

func pct(num, den int) string {
	if den == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(num)/float64(den))
}

const tableHeader = "| language | repo | definitions | oracle uses | quarry resolved | recall | precision | silent | callers recall | callers precision | def missing |\n" +
	"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"

func (t totals) row(lang, repo string) string {
	missing := strconv.Itoa(t.Missing)
	if t.Missing > 0 {
		missing += fmt.Sprintf(" (%d uses)", t.MissingUses)
	}
	if t.Errors > 0 {
		missing += fmt.Sprintf(", %d errors", t.Errors)
	}
	return fmt.Sprintf("| %s | %s | %d | %d | %d | %s | %s | %s | %s (%d) | %s (%d) | %s |",
		lang, repo, t.Defs, t.OracleUses, t.Resolved,
		pct(t.Hit, t.OracleUses), pct(t.Hit, t.Resolved), pct(t.Silent, t.OracleUses),
		pct(t.CallHit, t.OracleCalls), t.OracleCalls, pct(t.SitesRight, t.Sites), t.Sites, missing)
}

// lines reads and keeps the files' lines for the verbose report.
type lines struct {
	root  string
	files map[string][]string
}

func (ls *lines) text(l loc) string {
	f, ok := ls.files[l.Path]
	if !ok {
		b, err := os.ReadFile(filepath.Join(ls.root, filepath.FromSlash(l.Path)))
		if err == nil {
			f = strings.Split(string(b), "\n")
		}
		ls.files[l.Path] = f
	}
	if l.Line < 1 || l.Line > len(f) {
		return ""
	}
	t := strings.TrimSpace(f[l.Line-1])
	if len(t) > 160 {
		t = t[:160] + "…"
	}
	return t
}

func sortedLocs(m map[loc]bool, keep func(loc) bool) []loc {
	var out []loc
	for l := range m {
		if keep(l) {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func missed(r defResult) []loc {
	return sortedLocs(r.Oracle, func(l loc) bool { return !r.Resolved[l] })
}

func extra(r defResult) []loc {
	return sortedLocs(r.Resolved, func(l loc) bool { _, ok := r.Oracle[l]; return !ok })
}

func status(r defResult, l loc) string {
	switch {
	case r.Resolved[l]:
		return "resolved"
	case r.Unres[l]:
		return "unresolved"
	}
	return "silent"
}

func writeVerbose(w io.Writer, results []defResult, ls *lines, top int) {
	defName := func(r defResult) string {
		return fmt.Sprintf("%s %s %s:%d", r.Def.Kind, r.Def.Name, r.Def.Path, r.Def.Line)
	}
	var missing, found []defResult
	for _, r := range results {
		switch {
		case r.Err != nil: // said by runCompare
		case r.Missing:
			missing = append(missing, r)
		default:
			found = append(found, r)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "\n## def missing: %d definitions quarry has not at PATH:LINE nor by name in the file\n", len(missing))
		for _, r := range missing {
			fmt.Fprintf(w, "  %s (%d uses): %s\n", defName(r), len(r.Oracle), ls.text(loc{r.Def.Path, r.Def.Line}))
		}
	}
	byMissed := append([]defResult(nil), found...)
	sort.SliceStable(byMissed, func(i, j int) bool { return len(missed(byMissed[i])) > len(missed(byMissed[j])) })
	fmt.Fprintf(w, "\n## worst recall: the %d definitions with the most oracle uses quarry did not resolve\n", top)
	for i, r := range byMissed {
		m := missed(r)
		if i >= top || len(m) == 0 {
			break
		}
		fmt.Fprintf(w, "%s  [quarry %s:%d, by %s]  missed %d of %d\n", defName(r), r.QDef.Path, r.QDef.Line, r.Found, len(m), len(r.Oracle))
		for j, l := range m {
			if j >= top {
				fmt.Fprintf(w, "    ... %d more\n", len(m)-top)
				break
			}
			call := ""
			if r.Oracle[l] {
				call = " call"
			}
			fmt.Fprintf(w, "    %-10s%s %s: %s\n", status(r, l), call, l, ls.text(l))
		}
	}
	byExtra := append([]defResult(nil), found...)
	sort.SliceStable(byExtra, func(i, j int) bool { return len(extra(byExtra[i])) > len(extra(byExtra[j])) })
	fmt.Fprintf(w, "\n## worst precision: the %d definitions with the most resolved uses the oracle does not have\n", top)
	for i, r := range byExtra {
		e := extra(r)
		if i >= top || len(e) == 0 {
			break
		}
		fmt.Fprintf(w, "%s  extra %d of %d resolved\n", defName(r), len(e), len(r.Resolved))
		for j, l := range e {
			if j >= top {
				fmt.Fprintf(w, "    ... %d more\n", len(e)-top)
				break
			}
			fmt.Fprintf(w, "    %s: %s\n", l, ls.text(l))
		}
	}
	fmt.Fprintln(w)
}

// miss is one line of -misses: an oracle use quarry did not resolve ("silent", "unresolved"),
// a resolved use the oracle lacks ("extra"), or a definition quarry lacks ("def-missing").
type miss struct {
	Status  string `json:"status"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	DefPath string `json:"def_path"`
	DefLine int    `json:"def_line"`
	Path    string `json:"path,omitempty"`
	Line    int    `json:"line,omitempty"`
	Call    bool   `json:"call,omitempty"`
	Text    string `json:"text"`
}

func writeMisses(w io.Writer, results []defResult, ls *lines) error {
	enc := json.NewEncoder(w)
	for _, r := range results {
		base := miss{Name: r.Def.Name, Kind: r.Def.Kind, DefPath: r.Def.Path, DefLine: r.Def.Line}
		if r.Err != nil {
			continue
		}
		if r.Missing {
			m := base
			m.Status, m.Text = "def-missing", ls.text(loc{r.Def.Path, r.Def.Line})
			if err := enc.Encode(m); err != nil {
				return err
			}
			continue
		}
		for _, l := range missed(r) {
			m := base
			m.Status, m.Path, m.Line, m.Call, m.Text = status(r, l), l.Path, l.Line, r.Oracle[l], ls.text(l)
			if err := enc.Encode(m); err != nil {
				return err
			}
		}
		for _, l := range extra(r) {
			m := base
			m.Status, m.Path, m.Line, m.Text = "extra", l.Path, l.Line, ls.text(l)
			if err := enc.Encode(m); err != nil {
				return err
			}
		}
	}
	return nil
}

func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("navcheck compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("quarry", "quarry", "the quarry binary")
	root := fs.String("root", "", "the indexed repository (quarry --root), where the oracle's paths are")
	oracle := fs.String("oracle", "", "the oracle's JSON lines")
	lang := fs.String("lang", "", "the language, for the table row")
	repo := fs.String("repo", "", "the repository's name, for the table row (default: the root's base name)")
	jobs := fs.Int("j", 2, "quarry processes at once")
	verbose := fs.Bool("v", false, "print the worst definitions, their missed uses and extra uses with the lines' text, on standard error")
	top := fs.Int("top", 15, "with -v: this many definitions, and uses of each")
	header := fs.Bool("header", false, "print the table's header first")
	missesPath := fs.String("misses", "", "write every missed, unresolved and extra use as JSON lines to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "navcheck compare: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *root == "" || *oracle == "" {
		fmt.Fprintln(stderr, "navcheck compare: -root and -oracle are required")
		return 2
	}
	if *jobs < 1 || *top < 1 {
		fmt.Fprintln(stderr, "navcheck compare: -j and -top must be at least 1")
		return 2
	}
	if st, err := os.Stat(filepath.Join(*root, ".quarry")); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "navcheck compare: %s has no .quarry index: run quarry index %s first\n", *root, *root)
		return 2
	}
	f, err := os.Open(*oracle)
	if err != nil {
		fmt.Fprintf(stderr, "navcheck compare: %v\n", err)
		return 2
	}
	defs, unj, err := readOracleAll(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "navcheck compare: %s: %v\n", *oracle, err)
		return 2
	}
	if len(defs) == 0 {
		fmt.Fprintf(stderr, "navcheck compare: %s has no definitions\n", *oracle)
		return 1
	}
	if *repo == "" {
		*repo = filepath.Base(*root)
	}
	results := compareAll(execRunner(*bin, *root), defs, *jobs)
	if n := dropUnjudged(results, unj); n > 0 {
		fmt.Fprintf(stderr, "navcheck compare: %d resolved uses lie in lines the oracle could not judge (code its configuration leaves out): counted neither right nor extra\n", n)
	}
	t := tally(results)
	ls := &lines{root: *root, files: map[string][]string{}}
	if *verbose {
		writeVerbose(stderr, results, ls, *top)
	}
	if *missesPath != "" {
		mf, err := os.Create(*missesPath)
		if err == nil {
			err = writeMisses(mf, results, ls)
			if cerr := mf.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "navcheck compare: %v\n", err)
			return 1
		}
	}
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stderr, "navcheck compare: %s:%d %s: %v\n", r.Def.Path, r.Def.Line, r.Def.Name, r.Err)
		}
	}
	if *header {
		fmt.Fprintln(stdout, tableHeader)
	}
	fmt.Fprintln(stdout, t.row(*lang, *repo))
	if t.Errors > 0 {
		fmt.Fprintf(stderr, "navcheck compare: quarry failed on %d of %d definitions\n", t.Errors, t.Defs)
		return 1
	}
	return 0
}

func compareAll(q runner, defs []oracleDef, jobs int) []defResult {
	c := &checker{q: q, symbols: map[string]*symbolsAnswer{}}
	results := make([]defResult, len(defs))
	idx := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				results[i] = c.check(defs[i])
			}
		}()
	}
	for i := range defs {
		idx <- i
	}
	close(idx)
	wg.Wait()
	return results
}
