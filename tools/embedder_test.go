package tools

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeEmbedder is a server speaking the OpenAI embeddings API: a text's vector counts its
// words, hashed into 64 dimensions. It records the texts it was sent.
type fakeEmbedder struct {
	mu    sync.Mutex
	texts []string
}

func (f *fakeEmbedder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "fake-embed" {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.texts = append(f.texts, req.Input...)
	f.mu.Unlock()
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i, t := range req.Input {
		v := make([]float32, 64)
		for _, word := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r < 'a' || r > 'z' }) {
			h := fnv.New32a()
			h.Write([]byte(word))
			v[h.Sum32()%64]++
		}
		v[63] += 0.01 // never all zero
		data = append(data, item{i, v})
	}
	json.NewEncoder(w).Encode(map[string]any{"data": data, "model": req.Model})
}

func (f *fakeEmbedder) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.texts...)
}

// writeConfig writes root's .quarry/config.toml.
func writeConfig(t *testing.T, root, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".quarry"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".quarry", "config.toml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExternalEmbedder: with an embedder in .quarry/config.toml, the symbol vectors and a
// vec: line's come from it; a second run sends only the changed file's definitions (the
// rest come from the cache); an embedder that is down leaves the index built, the
// run's summary and the answers saying what is missing.
func TestExternalEmbedder(t *testing.T) {
	fake := &fakeEmbedder{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	s := docWorkspace(t)
	root := s.root
	writeConfig(t, root, "[embedder]\nurl = \""+srv.URL+"/v1/embeddings\"\nmodel = \"fake-embed\"\nbatch = 4\n")
	rep, err := s.Index(context.Background(), IndexRequest{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Summary.Vectors; v.Embedder != "fake-embed at "+srv.URL+"/v1/embeddings" || v.Vectored != 15 || v.Error != "" {
		t.Fatalf("index with an embedder: %+v", v)
	}
	first := len(fake.sent())
	if first != 15 {
		t.Errorf("the embedder was sent %d texts, want the 15 definitions'", first)
	}
	var res SearchResult
	call(t, s, "fast_search", `{"query":"vec: matrix product of a row and a column","limit":3}`, &res)
	if len(res.Results) == 0 || !strings.HasPrefix(res.Results[0].Name, "matrix") {
		t.Errorf("vec: by the embedder: %+v", res.Results)
	}
	if got := fake.sent(); len(got) != first+1 || got[first] != "matrix product of a row and a column" {
		t.Errorf("the query was not embedded by the endpoint: %q", got[first:])
	}
	// One file changed: only its definitions are sent again, and only the changed ones
	// (the others' texts are cached).
	p := filepath.Join(root, "cookie", "cookie.go")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "func cookie0() {", "func cookie0() {\n\t// now also: crumbs", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	before := len(fake.sent())
	rep, err = s.Index(context.Background(), IndexRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if sent := fake.sent()[before:]; len(sent) != 1 || !strings.Contains(sent[0], "crumbs") || rep.Summary.Vectors.Vectored != 15 {
		t.Errorf("after one edit the embedder was sent %q (vectors %+v), want only cookie0's new text", sent, rep.Summary.Vectors)
	}
	// The embedder down: the run still builds the index and says what is missing.
	srv.Close()
	writeConfig(t, root, "[embedder]\nurl = \""+srv.URL+"/v1/embeddings\"\nmodel = \"other-model\"\ntimeout_ms = 2000\n")
	rep, err = s.Index(context.Background(), IndexRequest{})
	if err != nil {
		t.Fatalf("index with the embedder down: %v", err)
	}
	if v := rep.Summary.Vectors; v.Error == "" || v.Missing != 18 || v.Vectored != 0 {
		t.Errorf("index with the embedder down: %+v, want the error and the 18 symbols of the 3 files missing", v)
	}
	health, err := s.Health(context.Background(), HealthRequest{})
	if b, _ := json.Marshal(health); err != nil || !strings.Contains(string(b), "the external embedder failed in the last index run") {
		t.Errorf("health after the embedder failed: %v, %s", err, b)
	}
	_, err = s.Call(context.Background(), "fast_search", json.RawMessage(`{"query":"vec: matrix product"}`))
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeNotIndexed {
		t.Errorf("vec: without vectors: %v, want NOT_INDEXED", err)
	}
	// Vectors made, then the embedder gone when a query comes: lex-only answers, marked.
	srv2 := httptest.NewServer(&fakeEmbedder{})
	writeConfig(t, root, "[embedder]\nurl = \""+srv2.URL+"/v1/embeddings\"\nmodel = \"fake-embed\"\n")
	if rep, err = s.Index(context.Background(), IndexRequest{}); err != nil || rep.Summary.Vectors.Vectored != 15 {
		t.Fatalf("index with a new embedder: %v, %+v", err, rep)
	}
	srv2.Close()
	call(t, s, "fast_search", `{"query":"lex: matrix0\nvec: matrix product"}`, &res)
	if len(res.Results) == 0 || res.Results[0].Name != "matrix0" || !strings.Contains(res.Notice, "lex-only answers: line 2 (vec:) skipped: the external embedder failed") {
		t.Errorf("the embedder gone at query time: %q, %+v", res.Notice, res.Results)
	}
	_, err = s.Call(context.Background(), "fast_search", json.RawMessage(`{"query":"vec: matrix product"}`))
	if err == nil || !strings.Contains(err.Error(), "the external embedder failed") {
		t.Errorf("vec: alone with the embedder gone: %v", err)
	}
}

// TestConfigErrors: a bad .quarry/config.toml is an error naming what is wrong.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[embedder]\nurl = \"http://x/v1/embeddings\"\nmodle = \"m\"\n", "unknown key embedder.modle"},
		{"[embedder]\nurl = \"ftp://x\"\nmodel = \"m\"\n", "give an http:// or https:// URL"},
		{"[embedder]\nurl = \"http://x/v1/embeddings\"\n", "embedder model is empty"},
		{"[embeder]\n", "did you mean embedder?"},
	} {
		s := testWorkspace(t)
		writeConfig(t, s.root, c.text)
		_, err := s.Index(context.Background(), IndexRequest{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("config %q: %v, want %q", c.text, err, c.want)
		}
	}
}

// TestIndexRequestEmbedder: an index request's embedder_url and embedder_model (quarry
// index --embedder-url, --embedder-model) make that run's vectors, over the config's;
// embedder_url learned learns them from the code whatever the config says; a half-given or
// bad embedder is BAD_VALUE naming the field.
func TestIndexRequestEmbedder(t *testing.T) {
	fake := &fakeEmbedder{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	s := docWorkspace(t)
	ctx := context.Background()
	rep, err := s.Index(ctx, IndexRequest{EmbedderURL: srv.URL + "/v1/embeddings", EmbedderModel: "fake-embed"})
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Summary.Vectors; v.Embedder != "fake-embed at "+srv.URL+"/v1/embeddings" || v.Vectored != 15 || len(fake.sent()) != 15 {
		t.Fatalf("index with embedder_url: %+v, %d texts sent", v, len(fake.sent()))
	}
	writeConfig(t, s.root, "[embedder]\nurl = \""+srv.URL+"/v1/embeddings\"\nmodel = \"fake-embed\"\n")
	rep, err = s.Index(ctx, IndexRequest{EmbedderURL: EmbedderLearned})
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Summary.Vectors; !strings.HasPrefix(v.Embedder, "quarry code model ") || !v.Reembedded || v.Vectored != 15 || len(fake.sent()) != 15 {
		t.Errorf("index with embedder_url learned: %+v, %d texts sent; want the built-in model's vectors, all made again, and nothing sent", v, len(fake.sent()))
	}
	for _, c := range []struct {
		req        IndexRequest
		path, want string
	}{
		{IndexRequest{EmbedderModel: "m"}, "embedder_url", "give the endpoint's URL too"},
		{IndexRequest{EmbedderURL: "localhost:11434", EmbedderModel: "m"}, "embedder_url", "give an http:// or https:// URL"},
		{IndexRequest{EmbedderURL: "http://localhost:11434/v1/embeddings"}, "embedder_model", "embedder model is empty"},
		{IndexRequest{EmbedderURL: EmbedderLearned, EmbedderModel: "m"}, "embedder_model", "the built-in model needs no name"},
	} {
		_, err := s.Index(ctx, c.req)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeBadValue || e.Path != c.path || !strings.Contains(e.Message, c.want) {
			t.Errorf("index %+v: %v, want BAD_VALUE at %s saying %q", c.req, err, c.path, c.want)
		}
	}
}
