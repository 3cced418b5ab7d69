package vectors

// An external embedder: any server speaking the OpenAI embeddings API (POST /v1/embeddings
// with {model, input: [texts]}, answering {data: [{index, embedding}]}): Ollama, llama.cpp's
// server, vLLM, LM Studio. When one is configured, the symbol vectors come from it instead of
// the built-in code-search model's, cached by model and text so that an index run sends only
// what changed; a vec: line's text is embedded by it too.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strings"
	"time"
)

// Embedder is an external embedding endpoint.
type Embedder struct {
	URL       string        // the endpoint: http://127.0.0.1:11434/v1/embeddings
	Model     string        // the model it is asked for
	APIKeyEnv string        // the environment variable holding a bearer token ("": none)
	Batch     int           // texts a request carries (0: DefaultEmbedBatch)
	Timeout   time.Duration // a request's time (0: DefaultEmbedTimeout)
}

// Embedder defaults.
const (
	DefaultEmbedBatch   = 64
	DefaultEmbedTimeout = 30 * time.Second
	// maxEmbedText is how much of a symbol's text is sent (its start says most).
	maxEmbedText = 2000
)

// ErrEmbedder wraps a failure of the external embedder (unreachable, an error answer).
var ErrEmbedder = errors.New("the external embedder failed")

// Check reports what is wrong with e's settings, nil when nothing is.
func (e *Embedder) Check() error {
	if !strings.HasPrefix(e.URL, "http://") && !strings.HasPrefix(e.URL, "https://") {
		return fmt.Errorf("embedder url %q: give an http:// or https:// URL of an OpenAI-compatible /v1/embeddings endpoint", e.URL)
	}
	if strings.TrimSpace(e.Model) == "" {
		return errors.New("embedder model is empty: give the model the endpoint serves (nomic-embed-text, text-embedding-3-small, ...)")
	}
	if e.Batch < 0 || e.Batch > 2048 {
		return fmt.Errorf("embedder batch %d: give 1 to 2048 texts a request", e.Batch)
	}
	return nil
}

// Embed returns the unit vectors of texts, in order, asking the endpoint in batches.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	batch := e.Batch
	if batch <= 0 {
		batch = DefaultEmbedBatch
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		vecs, err := e.request(ctx, texts[start:min(len(texts), start+batch)])
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) request(ctx context.Context, texts []string) ([][]float32, error) {
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = DefaultEmbedTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, _ := json.Marshal(map[string]any{"model": e.Model, "input": texts})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEmbedder, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.APIKeyEnv != "" {
		if key := os.Getenv(e.APIKeyEnv); key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEmbedder, e.URL, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEmbedder, e.URL, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %s answered %s: %s", ErrEmbedder, e.URL, resp.Status, strings.TrimSpace(string(data[:min(len(data), 300)])))
	}
	var answer struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		return nil, fmt.Errorf("%w: %s: not an embeddings answer: %v", ErrEmbedder, e.URL, err)
	}
	out := make([][]float32, len(texts))
	for _, d := range answer.Data {
		if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("%w: %s: an embedding of index %d for %d texts", ErrEmbedder, e.URL, d.Index, len(texts))
		}
		v := d.Embedding
		unit(v)
		out[d.Index] = v
	}
	for i, v := range out {
		if v == nil || len(v) != len(out[0]) {
			return nil, fmt.Errorf("%w: %s: no embedding (or one of another size) for text %d", ErrEmbedder, e.URL, i)
		}
	}
	return out, nil
}

// embedKey is the cache key of a text's vector by a model.
func embedKey(model, text string) string {
	sum := sha256.Sum256([]byte(model + "\x00" + text))
	return hex.EncodeToString(sum[:16])
}

// embedText is what an external embedder is given of a symbol: its name, signature, doc
// comment and the start of its body.
func embedText(name, signature, doc, body string) string {
	var b strings.Builder
	b.WriteString(name)
	if signature != "" {
		b.WriteString("\n" + signature)
	}
	if doc != "" {
		b.WriteString("\n" + doc)
	}
	if body != "" {
		b.WriteString("\n" + body)
	}
	s := b.String()
	if len(s) > maxEmbedText {
		s = s[:maxEmbedText]
	}
	return strings.ToValidUTF8(s, "")
}

// unit scales v to length 1 (a zero vector stays zero).
func unit(v []float32) {
	s := 0.0
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	f := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= f
	}
}
