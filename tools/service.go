package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quarrysearch/quarry/index/fulltext"
	"github.com/quarrysearch/quarry/languages"
	"github.com/quarrysearch/quarry/workspace"
)

// Service runs the contract's operations for one primary workspace and its references.
// It is safe for concurrent use. An operation opens the indexes it needs; they are closed
// when it returns, or, with Keep set, once they have not been used for Keep: a server
// answering a burst of calls opens each index once, and still lets an index run (which
// needs the index to itself, and waits two seconds for it) write soon after.
type Service struct {
	root  string
	langs *languages.Registry
	// Progress, when set, receives the progress of index runs an operation starts (search
	// indexes a primary workspace that has no index yet).
	Progress func(workspace.Progress)
	// OnIndexStart, when set, is called before such an implicit index run.
	OnIndexStart func(e workspace.Entry)
	// OnIndexEnd, when set, is called after it.
	OnIndexEnd func()
	// MaxBytes is the budget of an answer's results when a request sets none (0: no
	// budget). The MCP server sets AgentMaxBytes: an agent pays for every byte it reads.
	MaxBytes int
	// AnswerForm is the form of the MCP server's tool results (quarry mcp --answer-form):
	// "" or AnswerBoth, AnswerText or AnswerStructured.
	AnswerForm string
	// Keep is how long an index stays open after its last use (0: closed at once). The MCP
	// server sets KeepOpen.
	Keep time.Duration
	// OnServer, when set, hears of each operation handed to the local server of process pid.
	OnServer func(op string, pid int)

	mu      sync.Mutex
	cache   map[string]*cachedIndex                 // the current open index of each workspace id
	open    map[*workspace.SearchIndex]*cachedIndex // every open index, current or stale
	watcher *workspace.Watcher                      // the running watcher (Watch), if any
	// live holds, by workspace id, the index an index run of this process is writing, lent
	// to searches meanwhile (workspace.IndexOptions.Serve): they answer from what the run
	// committed instead of waiting for it.
	// liveMu guards live and lent; serve takes it without mu, which acquire holds while an
	// index run it started lends its index.
	liveMu  sync.Mutex
	live    map[string]*liveIndex
	lent    map[*workspace.SearchIndex]*liveIndex
	opening map[string]bool // workspaces whose index a run of this process is opening for writing
	// indexMu serializes this process's index runs (the watcher's, a search's first index,
	// manage_workspace's): the index lock refuses a second writer, even this process.
	indexMu sync.Mutex
	// forward: see SetForward.
	forward atomic.Bool
	// served: when this process, as the workspace's local server, last began or ended an
	// operation of another process (Unix ns; 0: never): LastServed.
	served atomic.Int64
	// shard: the indexes a node's service of a cluster's shard answers from (shardService):
	// one repository's, or a compound's members', by name.
	shard []*workspace.SearchIndex
	// forwarder: how operations reach the workspace's local server (SetForwarder).
	forwarder Forwarder
	// remote: where the operations run instead of the local indexes (SetRemote).
	remote Remote
}

// A Remote runs the operations of a Service elsewhere than on its local indexes: a
// cluster's router (tools/clusterops) asks the shards a request covers and merges their
// answers. Answer returns the operation's result, of the type the operation returns
// locally (a *SearchResult for search, ...).
type Remote interface {
	Answer(ctx context.Context, op string, req any) (any, error)
}

// SetRemote makes the operations that use an index run on r instead of this service's
// indexes (nil: here again).
func (s *Service) SetRemote(r Remote) { s.remote = r }

// Remote returns where the operations run instead of here (SetRemote), or nil.
func (s *Service) Remote() Remote { return s.remote }

// ShardService returns a service answering every operation from xs alone (a cluster's
// shard: its repositories, named by their ids): its workspaces are the shard's, fresh as its
// version, never forwarded.
func (s *Service) ShardService(xs []*workspace.SearchIndex) *Service {
	return &Service{root: xs[0].Entry.Root, langs: s.langs, shard: xs}
}

// SetForward sets whether the operations that use an index (search, goto, symbols, refs,
// workspace, index, health) run in the workspace's local server when one runs (Listen),
// and here only when none answers: the command line sets it, and a second quarry mcp until
// it takes over from the first. It is safe to call while operations run.
func (s *Service) SetForward(on bool) { s.forward.Store(on) }

// Forwarding reports whether operations go to the workspace's local server when one runs
// (SetForward).
func (s *Service) Forwarding() bool { return s.forward.Load() }

// LastServed returns when this process last served an operation of another quarry process
// as the workspace's local server (its start or its end), or the zero time.
func (s *Service) LastServed() time.Time {
	if ns := s.served.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// Indexed reports whether the primary workspace has an index on disk.
func (s *Service) Indexed() bool {
	reg, err := s.registry()
	if err != nil {
		return false
	}
	_, err = os.Stat(workspace.StorePath(workspace.IndexDir(s.root, reg.Primary.ID)))
	return err == nil
}

// KeepOpen is how long a server keeps an unused index open: longer than the pause between
// an agent's calls, shorter than the two seconds an index run waits for the index.
const KeepOpen = time.Second

// cachedIndex is an open index and its users.
type cachedIndex struct {
	x     *workspace.SearchIndex
	users int
	timer *time.Timer
	stale bool // close it when the last user is done
}

// AgentMaxBytes is the default budget of an answer to an agent: about 6,000 tokens.
const AgentMaxBytes = 24 << 10

// NewService returns a service for the workspace at root (a canonical directory).
func NewService(root string) (*Service, error) {
	langs, err := languages.Default()
	if err != nil {
		return nil, err
	}
	return &Service{root: root, langs: langs}, nil
}

// Languages returns the languages the service indexes with.
func (s *Service) Languages() *languages.Registry { return s.langs }

// Root returns the primary workspace root.
func (s *Service) Root() string { return s.root }

// registry reads the registry anew: another process may have changed it.
func (s *Service) registry() (*workspace.Registry, error) {
	return workspace.LoadRegistry(s.root)
}

// entries returns the workspaces an operation on id covers: "" the primary, "all" every
// one, else the one with that id.
func (s *Service) entries(reg *workspace.Registry, id string) ([]workspace.Entry, error) {
	switch id {
	case "", reg.Primary.ID:
		return []workspace.Entry{reg.Primary}, nil
	case "all":
		return reg.All(), nil
	}
	e, err := reg.Lookup(id)
	if err != nil {
		return nil, &Error{Code: CodeUnknownWorkspace, Path: "workspace", Message: err.Error(), err: err}
	}
	return []workspace.Entry{e}, nil
}

// openIndexes opens the indexes of the workspaces id covers; the primary one is indexed
// first when it has none. The caller releases them.
func (s *Service) OpenIndexes(ctx context.Context, id string) ([]*workspace.SearchIndex, error) {
	if s.shard != nil {
		if id == "" || id == "all" {
			return s.shard, nil
		}
		var ids []string
		for _, x := range s.shard {
			if x.Entry.ID == id {
				return []*workspace.SearchIndex{x}, nil
			}
			ids = append(ids, x.Entry.ID)
		}
		return nil, Errorf(CodeUnknownWorkspace, "workspace", "this shard holds %s, not %s", strings.Join(ids, ", "), id)
	}
	reg, err := s.registry()
	if err != nil {
		return nil, err
	}
	entries, err := s.entries(reg, id)
	if err != nil {
		return nil, err
	}
	var out []*workspace.SearchIndex
	for _, e := range entries {
		x, err := s.acquire(ctx, reg, e)
		if err != nil {
			s.Release(out)
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// acquire returns e's open index, opening it if need be.
func (s *Service) acquire(ctx context.Context, reg *workspace.Registry, e workspace.Entry) (*workspace.SearchIndex, error) {
	// While a run of this process opens the index for writing, a new reader would keep it
	// from getting the index to itself: wait (not holding mu) until the run lends it.
	for s.isOpening(e.ID) {
		if x := s.borrow(e); x != nil {
			return x, nil
		}
		select {
		case <-ctx.Done():
			return nil, AsError(ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
	x, err := s.acquireOpen(ctx, reg, e)
	if errors.Is(err, fulltext.ErrLocked) && s.writing(e.ID) && ctx.Err() == nil {
		// A run of this process took the index for writing while this search opened it:
		// the run lends it as soon as it has it, so wait for that rather than fail.
		return s.acquire(ctx, reg, e)
	}
	return x, err
}

// writing reports whether a run of this process is opening or writing workspace id's index.
func (s *Service) writing(id string) bool {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	return s.opening[id] || s.live[id] != nil
}

// acquireOpen returns e's index lent by a run, cached, or opened now.
func (s *Service) acquireOpen(ctx context.Context, reg *workspace.Registry, e workspace.Entry) (*workspace.SearchIndex, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if x := s.borrow(e); x != nil {
		return x, nil
	}
	if c := s.cache[e.ID]; c != nil && !c.stale && c.x.Entry.Root == e.Root {
		c.users++
		if c.timer != nil {
			c.timer.Stop()
			c.timer = nil
		}
		return c.x, nil
	}
	x, err := s.openIndex(ctx, reg, e)
	if err != nil {
		return nil, err
	}
	if s.cache == nil {
		s.cache, s.open = map[string]*cachedIndex{}, map[*workspace.SearchIndex]*cachedIndex{}
	}
	if old := s.cache[e.ID]; old != nil {
		old.stale = true // closed by its last user
		delete(s.cache, e.ID)
	}
	c := &cachedIndex{x: x, users: 1}
	s.cache[e.ID], s.open[x] = c, c
	return x, nil
}

// release ends a use of each index of xs; an index no one uses is closed now, or after
// Keep.
func (s *Service) Release(xs []*workspace.SearchIndex) {
	if s.shard != nil {
		return // the node closes its shards
	}
	// Lent indexes first, without mu: the run that lent one may be waiting for them while a
	// search that started it (acquire, holding mu) waits for the run.
	var own []*workspace.SearchIndex
	for _, x := range xs {
		if !s.giveBack(x) {
			own = append(own, x)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range own {
		c := s.open[x]
		if c == nil {
			continue
		}
		if c.users--; c.users > 0 {
			continue
		}
		if s.Keep <= 0 || c.stale {
			s.closeCached(x.Entry.ID, c)
			continue
		}
		c.timer = time.AfterFunc(s.Keep, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.cache[x.Entry.ID] == c && c.users == 0 {
				s.closeCached(x.Entry.ID, c)
			}
		})
	}
}

// closeCached closes c and forgets it. The caller holds s.mu.
func (s *Service) closeCached(id string, c *cachedIndex) {
	if c.timer != nil {
		c.timer.Stop()
	}
	c.x.Close()
	delete(s.open, c.x)
	if s.cache[id] == c {
		delete(s.cache, id)
	}
}

// dropCache closes every open index no operation uses, and marks the others to be closed
// by their last user: before an index run or a change of the workspaces.
func (s *Service) dropCache() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.open {
		if c.users == 0 {
			s.closeCached(c.x.Entry.ID, c)
		} else {
			c.stale = true
			if s.cache[c.x.Entry.ID] == c {
				delete(s.cache, c.x.Entry.ID)
			}
		}
	}
}

// Close closes the indexes the service keeps open.
func (s *Service) Close() { s.dropCache() }

func (s *Service) openIndex(ctx context.Context, reg *workspace.Registry, e workspace.Entry) (*workspace.SearchIndex, error) {
	dir := workspace.IndexDir(s.root, e.ID)
	x, err := workspace.OpenSearch(e, dir)
	if errors.Is(err, workspace.ErrNotIndexed) {
		if e.ID != reg.Primary.ID {
			return nil, &Error{Code: CodeNotIndexed, Message: fmt.Sprintf("%v; run: quarry workspace refresh %s", err, e.ID), err: err}
		}
		if _, err := s.index(ctx, reg, e, workspace.IndexOptions{}, false); err != nil { // holding mu
			return nil, err
		}
		x, err = workspace.OpenSearch(e, dir)
	}
	if err != nil {
		if errors.Is(err, workspace.ErrNotIndexed) {
			return nil, &Error{Code: CodeNotIndexed, Message: err.Error(), err: err}
		}
		return nil, AsError(err)
	}
	return x, nil
}

// index runs an index of e and records it in the registry.
func (s *Service) index(ctx context.Context, reg *workspace.Registry, e workspace.Entry, opts workspace.IndexOptions, closeOpen bool) (*workspace.Summary, error) {
	if s.OnIndexStart != nil {
		s.OnIndexStart(e)
	}
	opts.Progress = s.Progress
	sum, err := s.update(ctx, reg, e, opts, closeOpen)
	if s.OnIndexEnd != nil {
		s.OnIndexEnd()
	}
	return sum, err
}

// update runs an index of e and records it in the registry, quietly: the watcher's runs,
// which report themselves as batches.
func (s *Service) update(ctx context.Context, reg *workspace.Registry, e workspace.Entry, opts workspace.IndexOptions, closeOpen bool) (*workspace.Summary, error) {
	if err := s.lockIndex(ctx); err != nil {
		return nil, err
	}
	defer s.indexMu.Unlock()
	opts.Serve = func(x *workspace.SearchIndex) { s.serve(e.ID, x) }
	if opts.Embedder == nil {
		cfg, err := workspace.LoadConfig(s.root)
		if err != nil {
			return nil, Errorf(CodeBadValue, "config", "%v", err)
		}
		opts.Embedder = cfg.Embedder
	}
	if opts.Embedder != nil && opts.Embedder.URL == "" { // embedder_url learned
		opts.Embedder = nil
	}
	// New searches wait for the run to lend its index (they would open the index
	// themselves and keep it open for Keep, holding the run off); the idle open ones close
	// (closeOpen: not when the caller holds mu, opening an index that does not exist yet).
	s.setOpening(e.ID, true)
	if closeOpen {
		s.dropCache()
	}
	sum, err := workspace.Index(ctx, e.Root, workspace.IndexDir(s.root, e.ID), s.langs, opts)
	s.setOpening(e.ID, false)
	if err != nil {
		return nil, err
	}
	reg.MarkIndexed(e.ID, time.Now())
	return sum, reg.Save()
}

// relPath resolves a path argument (absolute, or relative to the workspace root) to a
// workspace-relative POSIX path, refusing one outside the workspace.
func (s *Service) relPath(field, p string) (string, error) {
	if p == "" {
		return "", nil
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.root, p)
	}
	abs = filepath.Clean(abs)
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", &Error{Code: CodeUnreadable, Path: field, Message: err.Error(), err: err}
	}
	rel, err := filepath.Rel(s.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", Errorf(CodePathOutsideWorkspace, field, "%s %q is outside the workspace %s", field, p, s.root)
	}
	return filepath.ToSlash(rel), nil
}

// testHookLent, if set, runs when an index run has lent its index (tests hold the run there).
var testHookLent func()

// liveIndex is an index a run of this process is writing, lent to searches.
type liveIndex struct {
	x     *workspace.SearchIndex
	users sync.WaitGroup // searches using x
}

// serve lends x, the index the run for workspace id writes, to searches; with x nil, it
// takes the index back and waits for the searches using it.
func (s *Service) serve(id string, x *workspace.SearchIndex) {
	s.liveMu.Lock()
	if x != nil {
		if s.live == nil {
			s.live, s.lent = map[string]*liveIndex{}, map[*workspace.SearchIndex]*liveIndex{}
		}
		s.live[id] = &liveIndex{x: x}
		delete(s.opening, id) // readers borrow from now on
		s.liveMu.Unlock()
		if testHookLent != nil {
			testHookLent()
		}
		return
	}
	l := s.live[id]
	delete(s.live, id)
	// Until the run returns (setOpening false), new readers wait: a forced run moves its
	// new index in place of the one it lent.
	if s.opening == nil {
		s.opening = map[string]bool{}
	}
	s.opening[id] = true
	s.liveMu.Unlock()
	if l == nil {
		return
	}
	l.users.Wait()
	s.liveMu.Lock()
	delete(s.lent, l.x)
	s.liveMu.Unlock()
}

// borrow returns the index a run of this process is writing for e, lent (nil: none).
func (s *Service) borrow(e workspace.Entry) *workspace.SearchIndex {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	l := s.live[e.ID]
	if l == nil || l.x.Entry.Root != e.Root {
		return nil
	}
	l.users.Add(1)
	s.lent[l.x] = l
	return l.x
}

// giveBack ends a search's use of a lent index; it reports whether x was one.
func (s *Service) giveBack(x *workspace.SearchIndex) bool {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	l := s.lent[x]
	if l == nil {
		return false
	}
	l.users.Done()
	return true
}

// lockIndex takes indexMu, or gives up when ctx is done: a search refreshing stale files
// must not wait for a long run of the watcher (it answers from the lent index meanwhile).
func (s *Service) lockIndex(ctx context.Context) error {
	for !s.indexMu.TryLock() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("workspace: %w (this process)", workspace.ErrLocked)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// setOpening marks workspace id's index as being opened for writing by a run of this
// process (or no longer).
func (s *Service) setOpening(id string, on bool) {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	if s.opening == nil {
		s.opening = map[string]bool{}
	}
	if on {
		s.opening[id] = true
	} else {
		delete(s.opening, id)
	}
}

// isOpening reports whether a run of this process is opening workspace id's index.
func (s *Service) isOpening(id string) bool {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	return s.opening[id]
}

// A Forwarder hands an operation to the process that serves the workspace (its local
// server, tools/localserver) and returns that process's answer as JSON; ok is false when
// no process answers and this one runs the operation itself.
type Forwarder interface {
	Forward(ctx context.Context, s *Service, op string, req any) (raw json.RawMessage, ok bool, err error)
}

// SetForwarder sets how the operations reach the workspace's server when s forwards
// (SetForward).
func (s *Service) SetForwarder(f Forwarder) { s.forwarder = f }

// forward runs op with req elsewhere: on the service's Remote (a cluster), else in the
// workspace's server when s forwards (SetForward) and one answers; ok is false when the
// caller must run it itself.
func forward[R any](ctx context.Context, s *Service, op string, req any) (res *R, ok bool, err error) {
	if s.remote != nil {
		out, err := s.remote.Answer(ctx, op, req)
		if err != nil {
			return nil, true, err
		}
		r, ok := out.(*R)
		if !ok {
			return nil, true, Errorf(CodeInternal, "", "the cluster's %s answer is a %T", op, out)
		}
		return r, true, nil
	}
	if s.forwarder == nil || !s.forward.Load() || ctx.Value(servedKey{}) != nil { // a request served is never sent on
		return nil, false, nil
	}
	raw, ok, err := s.forwarder.Forward(ctx, s, op, req)
	if !ok {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	res = new(R)
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, true, Errorf(CodeInternal, "", "the local server's %s result: %v", op, err)
	}
	return res, true, nil
}
