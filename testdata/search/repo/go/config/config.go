// Package config loads the API server's settings from a key = value file, with
// environment variables taking precedence.
package config

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Config holds every setting the API server reads at start-up.
type Config struct {
	Addr           string        // listen address, e.g. ":8080"
	DatabaseURL    string        // DSN handed to the connection dialer
	MaxOpenConns   int           // upper bound on open database connections
	MaxIdleConns   int           // connections kept open between requests
	AcquireTimeout time.Duration // how long a request waits for a connection
	ReadTimeout    time.Duration
	WriteTimeout   time.Duration
}

// Default returns the settings used when the file and the environment say nothing.
func Default() Config {
	return Config{
		Addr:           ":8080",
		MaxOpenConns:   16,
		MaxIdleConns:   4,
		AcquireTimeout: 2 * time.Second,
		ReadTimeout:    5 * time.Second,
		WriteTimeout:   10 * time.Second,
	}
}

// Load reads the settings file at path on top of Default, then applies the STOREFRONT_*
// environment variables. A missing file is not an error.
func Load(path string) (Config, error) {
	cfg := Default()
	f, err := os.Open(path)
	if err != nil && !os.IsNotExist(err) {
		return cfg, err
	}
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			if err := cfg.set(sc.Text()); err != nil {
				return cfg, fmt.Errorf("%s:%d: %w", path, n, err)
			}
		}
		if err := sc.Err(); err != nil {
			return cfg, err
		}
	}
	for _, kv := range os.Environ() {
		if key, value, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(key, "STOREFRONT_") {
			name := strings.ToLower(strings.TrimPrefix(key, "STOREFRONT_"))
			if err := cfg.set(name + " = " + value); err != nil {
				return cfg, fmt.Errorf("$%s: %w", key, err)
			}
		}
	}
	return cfg, nil
}

// set applies one "key = value" line; blank lines and # comments are ignored.
func (c *Config) set(line string) error {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	key, value, ok := strings.Cut(line, "=")
	if !ok {
		return fmt.Errorf("expected key = value, got %q", line)
	}
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	var err error
	switch key {
	case "addr":
		c.Addr = value
	case "database_url":
		c.DatabaseURL = value
	case "max_open_conns":
		c.MaxOpenConns, err = strconv.Atoi(value)
	case "max_idle_conns":
		c.MaxIdleConns, err = strconv.Atoi(value)
	case "acquire_timeout":
		c.AcquireTimeout, err = time.ParseDuration(value)
	case "read_timeout":
		c.ReadTimeout, err = time.ParseDuration(value)
	case "write_timeout":
		c.WriteTimeout, err = time.ParseDuration(value)
	default:
		return fmt.Errorf("unknown setting %q", key)
	}
	return err
}
