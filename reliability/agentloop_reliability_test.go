package reliability

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// mcpProc is a quarry mcp process spoken to over its standard input and output, by hand:
// newline-delimited JSON-RPC 2.0 (the reliability suite imports no MCP client).
type mcpProc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *strings.Builder
	nextID int
}

// startMCP starts quarry mcp in root (with args) and initializes the session.
func startMCP(t *testing.T, root string, args ...string) *mcpProc {
	t.Helper()
	cmd := exec.Command(quarryBin, append([]string{"mcp"}, args...)...)
	cmd.Dir = root
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &mcpProc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), stderr: &strings.Builder{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	if _, err := p.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "agentloop", "version": "1"}}); err != nil {
		t.Fatalf("initialize: %v\n%s", err, p.stderr)
	}
	if err := p.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized", "params": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *mcpProc) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = p.in.Write(append(b, '\n'))
	return err
}

// call sends a request and returns its result, skipping notifications.
func (p *mcpProc) call(method string, params any) (json.RawMessage, error) {
	p.nextID++
	id := p.nextID
	if err := p.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("read the answer to %s: %w", method, err)
		}
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, fmt.Errorf("answer to %s: %w: %s", method, err, line)
		}
		if msg.ID == nil || *msg.ID != id {
			continue // a notification, or a request of the server's
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("%s: error %d: %s", method, msg.Error.Code, msg.Error.Message)
		}
		return msg.Result, nil
	}
}

// agentHit is a result of fast_search or fast_goto, as the agent reads it.
type agentHit struct {
	Hit   string `json:"hit"`
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Name  string `json:"name"`
	Text  string `json:"text"`
	Stale bool   `json:"stale"`
}

// tool calls an MCP tool and returns its results.
func (p *mcpProc) tool(name string, args map[string]any) ([]agentHit, string, error) {
	raw, err := p.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, "", err
	}
	var res struct {
		IsError    bool `json:"isError"`
		Structured struct {
			Results []agentHit `json:"results"`
			Notice  string     `json:"notice"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, "", err
	}
	if res.IsError {
		return nil, "", fmt.Errorf("%s: %s", name, raw)
	}
	return res.Structured.Results, res.Structured.Notice, nil
}

// agentTree is a workspace of Python files an agent edits: each function returns a token
// of its own, which a content search finds.
type agentTree struct {
	root  string
	files map[string][]string // path -> its functions, in order
	pad   map[string]int      // path -> comment lines above its functions
	seq   int
}

func (a *agentTree) render(p string) string {
	var b strings.Builder
	b.WriteString("import os\n\n")
	for range a.pad[p] {
		b.WriteString("# a note an agent inserted\n")
	}
	for _, f := range a.files[p] {
		fmt.Fprintf(&b, "\ndef %s():\n    return \"tok_%s\"\n\n", f, f)
	}
	return b.String()
}

func (a *agentTree) write(p string) error {
	full := filepath.Join(a.root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	return os.WriteFile(full, []byte(a.render(p)), 0o644)
}

func (a *agentTree) paths() []string {
	var out []string
	for p := range a.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// edit makes the i-th edit of the loop and returns the functions to look for after it: the
// one it moved, or deleted, and the one it added.
func (a *agentTree) edit(i int, rng *rand.Rand) (kind string, look []string, err error) {
	paths := a.paths()
	p := paths[rng.IntN(len(paths))]
	for len(a.files[p]) == 0 {
		p = paths[rng.IntN(len(paths))]
	}
	fns := a.files[p]
	fn := fns[rng.IntN(len(fns))]
	switch i % 5 {
	case 0: // insert lines above a definition
		a.pad[p] += 5
		return "insert above", []string{fn}, a.write(p)
	case 1: // move a function to another file
		q := paths[rng.IntN(len(paths))]
		for q == p {
			q = paths[rng.IntN(len(paths))]
		}
		a.files[p] = slices.DeleteFunc(slices.Clone(fns), func(f string) bool { return f == fn })
		a.files[q] = append([]string{fn}, a.files[q]...)
		if err := a.write(p); err != nil {
			return "", nil, err
		}
		return "move", []string{fn}, a.write(q)
	case 2: // delete a file (its functions go with it) and add another in its place
		delete(a.files, p)
		delete(a.pad, p)
		if err := os.Remove(filepath.Join(a.root, filepath.FromSlash(p))); err != nil {
			return "", nil, err
		}
		a.seq++
		np := fmt.Sprintf("pkg/added%02d.py", a.seq)
		added := fmt.Sprintf("added_%02d", a.seq)
		a.files[np] = []string{added}
		return "delete", []string{fn, added}, a.write(np)
	case 3: // rename a file
		a.seq++
		np := fmt.Sprintf("pkg/renamed%02d.py", a.seq)
		a.files[np], a.pad[np] = a.files[p], a.pad[p]
		delete(a.files, p)
		delete(a.pad, p)
		return "rename", []string{fn}, os.Rename(filepath.Join(a.root, filepath.FromSlash(p)), filepath.Join(a.root, filepath.FromSlash(np)))
	default: // atomic save: a new version written beside the file, renamed over it
		a.pad[p] += 3
		saved := fmt.Sprintf("saved_%02d", i)
		a.files[p] = append([]string{saved}, fns...)
		full := filepath.Join(a.root, filepath.FromSlash(p))
		tmp := filepath.Join(filepath.Dir(full), fmt.Sprintf(".%s.swp%d", filepath.Base(full), i))
		if err := os.WriteFile(tmp, []byte(a.render(p)), 0o644); err != nil {
			return "", nil, err
		}
		return "atomic save", []string{saved, fn}, os.Rename(tmp, full)
	}
}

// fileLine returns line n of the file p under root as it is on disk now (ok false: no such
// file or line).
func fileLine(root, p string, n int) (string, bool) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return "", false
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		return "", false
	}
	return strings.TrimRight(lines[n-1], "\r"), true
}

// loopCounts are the figures of an agent loop.
type loopCounts struct {
	searches, hits, stale, wrong, missed int
}

// TestAgentLoop: an agent's loop of 20 edits (lines inserted above a definition, a function
// moved to another file, a file deleted, a file renamed, an atomic save through a temporary
// file) with a content search (fast_search, target content) and a goto (fast_goto) right
// after each save, under quarry mcp with its watcher and with --no-watch. No answer may
// give a line that does not hold the text it reports (content) or the definition it names
// (goto) unless it is marked stale. With no watcher, the search applies the few changed
// files first, so it also misses nothing.
func TestAgentLoop(t *testing.T) {
	for _, mode := range []struct {
		name string
		args []string
	}{{"watch", nil}, {"no-watch", []string{"--no-watch"}}} {
		t.Run(mode.name, func(t *testing.T) { agentLoop(t, mode.args) })
	}
}

func agentLoop(t *testing.T, args []string) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := &agentTree{root: root, files: map[string][]string{}, pad: map[string]int{}}
	for i := range 6 {
		p := fmt.Sprintf("pkg/mod%02d.py", i)
		for j := range 4 {
			a.files[p] = append(a.files[p], fmt.Sprintf("handler_%d_%d", i, j))
		}
		if err := a.write(p); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(quarryBin, "--root", root, "index").CombinedOutput(); err != nil {
		t.Fatalf("quarry index: %v\n%s", err, out)
	}
	mcp := startMCP(t, root, args...)
	rng := rand.New(rand.NewPCG(29, 4))
	var c loopCounts
	kinds := map[string]int{}
	for i := range 20 {
		kind, look, err := a.edit(i, rng)
		if err != nil {
			t.Fatalf("edit %d (%s): %v", i, kind, err)
		}
		kinds[kind]++
		// Right after the save, and again across a watcher's debounce and index run.
		for k, at := range probeTimes {
			if k > 0 {
				time.Sleep(at - probeTimes[k-1])
			}
			for _, fn := range look {
				exists := slices.ContainsFunc(a.paths(), func(p string) bool { return slices.Contains(a.files[p], fn) })
				ok := probe(t, mcp, &c, root, fmt.Sprintf("edit %d (%s), %s %v after the save", i, kind, fn, at), fn)
				if k == 0 && exists && !ok {
					c.missed++
					if slices.Contains(args, "--no-watch") {
						t.Errorf("edit %d (%s): with no watcher, search and goto did not both find %s right after the save (a few changed files are indexed first)", i, kind, fn)
					}
				}
			}
		}
	}
	if t.Failed() {
		t.Logf("quarry mcp's standard error:\n%s", mcp.stderr)
	}
	t.Logf("quarry mcp %s: 20 edits %v, probed %v after each; %d calls, %d hits checked against the files: %d marked stale, %d wrong and unmarked; %d edits whose function was not found right after the save",
		strings.Join(args, " "), kinds, probeTimes, c.searches, c.hits, c.stale, c.wrong, c.missed)
}

// probeTimes are when, after each save, the agent loop searches and goes to the definition:
// at once, and through the watcher's 150 ms debounce and the index run that follows.
var probeTimes = []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond}

// probe runs a content search for fn's token and a goto of fn, checks every hit against
// the files as they are now, and reports whether both found fn where it is.
func probe(t *testing.T, mcp *mcpProc, c *loopCounts, root, what, fn string) bool {
	t.Helper()
	hits, _, err := mcp.tool("fast_search", map[string]any{"query": "tok_" + fn, "target": "content"})
	if err != nil {
		t.Fatalf("%s: fast_search: %v\n%s", what, err, mcp.stderr)
	}
	c.searches++
	found := false
	for _, h := range hits {
		c.hits++
		now, ok := fileLine(root, h.Path, h.Line)
		switch {
		case h.Stale:
			c.stale++
		case !ok || now != h.Text:
			c.wrong++
			t.Errorf("%s: content hit %s:%d %q, not marked stale, but the line is %q", what, h.Path, h.Line, h.Text, now)
		default:
			found = found || strings.Contains(now, "tok_"+fn)
		}
	}
	gotos, _, err := mcp.tool("fast_goto", map[string]any{"symbol": fn})
	if err != nil {
		t.Fatalf("%s: fast_goto: %v\n%s", what, err, mcp.stderr)
	}
	c.searches++
	defined := false
	for _, h := range gotos {
		c.hits++
		now, ok := fileLine(root, h.Path, h.Line)
		switch {
		case h.Stale:
			c.stale++
		case !ok || !strings.Contains(now, "def "+fn+"("):
			c.wrong++
			t.Errorf("%s: goto %s:%d, not marked stale, but the line is %q", what, h.Path, h.Line, now)
		default:
			defined = true
		}
	}
	return found && defined
}
