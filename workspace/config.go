package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/quarrysearch/quarry/index/vectors"
	"github.com/quarrysearch/quarry/suggest"
)

// ConfigFile is the workspace's settings file, in its .quarry/ directory.
const ConfigFile = "config.toml"

// Config is what .quarry/config.toml sets.
type Config struct {
	// Embedder, when set, is the external embedder the symbol vectors come from (else they
	// are made by Quarry's built-in code-search model).
	Embedder *vectors.Embedder
}

// configFile is the file's layout.
type configFile struct {
	Embedder *struct {
		URL       string `toml:"url"`
		Model     string `toml:"model"`
		APIKeyEnv string `toml:"api_key_env"`
		Batch     int    `toml:"batch"`
		TimeoutMS int    `toml:"timeout_ms"`
	} `toml:"embedder"`
}

// configKeys are the keys the file may hold, for did-you-mean.
var configKeys = []string{"embedder", "embedder.url", "embedder.model", "embedder.api_key_env", "embedder.batch", "embedder.timeout_ms"}

// LoadConfig reads root's .quarry/config.toml (no file: the defaults). An unknown key, a
// value of the wrong type or an embedder without a URL or model is an error naming it.
func LoadConfig(root string) (*Config, error) {
	path := filepath.Join(root, DataDir, ConfigFile)
	var f configFile
	md, err := toml.DecodeFile(path, &f)
	if errors.Is(err, os.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: %s: %w", path, err)
	}
	if unknown := md.Undecoded(); len(unknown) > 0 {
		key := unknown[0].String()
		msg := fmt.Sprintf("workspace: %s: unknown key %s: want one of %s", path, key, strings.Join(configKeys[1:], ", "))
		if s := suggest.Closest(key, configKeys); s != "" {
			msg += "; did you mean " + s + "?"
		}
		return nil, errors.New(msg)
	}
	c := &Config{}
	if e := f.Embedder; e != nil {
		c.Embedder = &vectors.Embedder{URL: e.URL, Model: e.Model, APIKeyEnv: e.APIKeyEnv, Batch: e.Batch, Timeout: time.Duration(e.TimeoutMS) * time.Millisecond}
		if e.TimeoutMS < 0 {
			return nil, fmt.Errorf("workspace: %s: embedder.timeout_ms %d: give a positive number of milliseconds", path, e.TimeoutMS)
		}
		if err := c.Embedder.Check(); err != nil {
			return nil, fmt.Errorf("workspace: %s: %w", path, err)
		}
	}
	return c, nil
}
