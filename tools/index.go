package tools

import (
	"context"
	"time"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/index/vectors"
	"github.com/quarrysearch/quarry/workspace"
)

// IndexReport is what an index run did, in full: each entry of manage_workspace's indexed
// (operations index, add and refresh, and quarry index --json), so the command line and an
// agent read one shape.
type IndexReport struct {
	workspace.Summary
	Files   int `json:"files" jsonschema:"files in the index after the run (counts.files)"`
	Symbols int `json:"symbols" jsonschema:"symbols in the index after the run (counts.symbols)"`
}

// newIndexReport returns the report of the index run sum, with its lists never null.
func newIndexReport(sum *workspace.Summary) *IndexReport {
	r := &IndexReport{Summary: *sum, Files: sum.Counts.Files, Symbols: sum.Counts.Symbols}
	if r.Languages == nil {
		r.Languages = []store.LanguageStats{}
	}
	if r.Skipped == nil {
		r.Skipped = map[extract.SkipReason]int{}
	}
	return r
}

// Index indexes a workspace as a primary one, or brings its index up to date: req.Path
// (relative to the current directory), else the service's workspace.
func (s *Service) Index(ctx context.Context, req IndexRequest) (*IndexReport, error) {
	if req.MaxSize < 0 {
		return nil, Errorf(CodeBadValue, "max_size", "max_size %d: want a positive number of bytes (0: the default, 1 MiB)", req.MaxSize)
	}
	if req.MaxSourceSize < 0 {
		return nil, Errorf(CodeBadValue, "max_source_size", "max_source_size %d: want a positive number of bytes (0: the default, 16 MiB)", req.MaxSourceSize)
	}
	at := s
	if req.Path != "" {
		root, err := workspace.CanonicalDir(req.Path)
		if err != nil {
			e := AsError(err)
			e.Path = "path"
			return nil, e
		}
		at = s.at(root)
	}
	if at == s {
		fwd := req
		fwd.Path = ""
		if res, ok, err := forward[IndexReport](ctx, s, "index", fwd); ok {
			return res, err
		}
	}
	reg, err := at.registry()
	if err != nil {
		return nil, AsError(err)
	}
	opts := workspace.IndexOptions{Force: req.Force, MaxFileSize: req.MaxSize, MaxSourceSize: req.MaxSourceSize}
	if opts.Embedder, err = at.requestEmbedder(req); err != nil {
		return nil, err
	}
	sum, err := at.index(ctx, reg, reg.Primary, opts, true)
	if err != nil {
		return nil, AsError(err)
	}
	return newIndexReport(sum), nil
}

// IndexOperation runs the index operation (quarry index --json): Index, answered as
// manage_workspace index answers, the run's report the one entry of indexed.
func (s *Service) IndexOperation(ctx context.Context, req IndexRequest) (*WorkspaceResult, error) {
	start := time.Now()
	rep, err := s.Index(ctx, req)
	if err != nil {
		return nil, err
	}
	out := newWorkspaceResult("index")
	out.Indexed = append(out.Indexed, *rep)
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

// requestEmbedder returns the embedder an index request names (nil: the config's): its
// URL and model over the config's [embedder], whose other settings (api_key_env, batch,
// timeout_ms) it keeps; EmbedderLearned for embedder_url "learned".
func (s *Service) requestEmbedder(req IndexRequest) (*vectors.Embedder, error) {
	if req.EmbedderURL == "" && req.EmbedderModel == "" {
		return nil, nil
	}
	if req.EmbedderURL == EmbedderLearned {
		if req.EmbedderModel != "" {
			return nil, Errorf(CodeBadValue, "embedder_model", "embedder_model %q with embedder_url learned: the built-in model needs no name; give an embedder_url to use a served model", req.EmbedderModel)
		}
		return &vectors.Embedder{}, nil
	}
	if req.EmbedderURL == "" {
		return nil, Errorf(CodeBadValue, "embedder_url", "embedder_model %q without embedder_url: give the endpoint's URL too (http://127.0.0.1:11434/v1/embeddings for Ollama)", req.EmbedderModel)
	}
	cfg, err := workspace.LoadConfig(s.root)
	if err != nil {
		return nil, Errorf(CodeBadValue, "config", "%v", err)
	}
	e := &vectors.Embedder{}
	if cfg.Embedder != nil {
		*e = *cfg.Embedder
	}
	e.URL, e.Model = req.EmbedderURL, req.EmbedderModel
	if err := e.Check(); err != nil {
		path := "embedder_url"
		if e.Model == "" {
			path = "embedder_model"
		}
		return nil, Errorf(CodeBadValue, path, "%v", err)
	}
	return e, nil
}

// EmbedderLearned as an index request's embedder_url makes the symbol vectors with Quarry's
// built-in code-search model, whatever .quarry/config.toml says.
const EmbedderLearned = "learned"

// at returns a service for the workspace at root: s itself, or a new one with s's settings.
func (s *Service) at(root string) *Service {
	if root == s.root {
		return s
	}
	return &Service{root: root, langs: s.langs, Progress: s.Progress, OnIndexStart: s.OnIndexStart,
		OnIndexEnd: s.OnIndexEnd, MaxBytes: s.MaxBytes}
}

// Health checks the index of a workspace (default: the primary): the report of
// manage_workspace health and stats (and of quarry health --json, HealthOperation).
func (s *Service) Health(ctx context.Context, req HealthRequest) (*HealthReport, error) {
	if res, ok, err := forward[HealthReport](ctx, s, "health", req); ok {
		return res, err
	}
	reg, err := s.registry()
	if err != nil {
		return nil, AsError(err)
	}
	e, err := reg.Lookup(req.Workspace)
	if err != nil {
		return nil, &Error{Code: CodeUnknownWorkspace, Path: "workspace", Message: err.Error(), err: err}
	}
	return s.health(ctx, reg, e)
}

// HealthOperation runs the health operation (quarry health --json): Health, answered as
// manage_workspace health answers, the report in health.
func (s *Service) HealthOperation(ctx context.Context, req HealthRequest) (*WorkspaceResult, error) {
	start := time.Now()
	h, err := s.Health(ctx, req)
	if err != nil {
		return nil, err
	}
	out := newWorkspaceResult("health")
	out.Health = h
	out.ElapsedMS = ElapsedMS(start)
	return out, nil
}

func (s *Service) health(ctx context.Context, reg *workspace.Registry, e workspace.Entry) (*HealthReport, error) {
	h, err := workspace.CheckHealth(ctx, e, workspace.IndexDir(s.root, e.ID), e.ID != reg.Primary.ID)
	if err != nil {
		return nil, AsError(err)
	}
	if e.ID == reg.Primary.ID {
		h.Watch = s.watchStatus()
	}
	return h, nil
}

// Watch keeps the primary workspace's index up to date with its files until ctx is done
// (quarry watch, and quarry mcp unless --no-watch): a watch per directory, changes applied
// in debounced batches by incremental index runs, a periodic scan where watches run out.
// onBatch, if set, hears of each batch. The service's health reports the watcher.
func (s *Service) Watch(ctx context.Context, onBatch func(workspace.WatchBatch)) error {
	reg, err := s.registry()
	if err != nil {
		return AsError(err)
	}
	w, err := workspace.NewWatcher(reg.Primary.Root, workspace.WatchOptions{
		Run: func(ctx context.Context, scope []string) (*workspace.Summary, error) {
			reg, err := s.registry()
			if err != nil {
				return nil, err
			}
			return s.update(ctx, reg, reg.Primary, workspace.IndexOptions{Scope: scope}, true)
		},
		OnBatch: onBatch,
	})
	if err != nil {
		return AsError(err)
	}
	s.mu.Lock()
	s.watcher = w
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.watcher = nil
		s.mu.Unlock()
	}()
	if err := w.Run(ctx); err != nil {
		return AsError(err)
	}
	return nil
}

// runningWatcher returns the service's watcher, or nil when none runs.
func (s *Service) runningWatcher() *workspace.Watcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watcher
}

// watchStatus returns the status of the service's watcher, or nil when none runs.
func (s *Service) watchStatus() *workspace.WatchStatus {
	s.mu.Lock()
	w := s.watcher
	s.mu.Unlock()
	if w == nil {
		return nil
	}
	st := w.Status()
	return &st
}
