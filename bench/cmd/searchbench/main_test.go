package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type fakeEngine string

func (f fakeEngine) name() string                                          { return string(f) }
func (f fakeEngine) search(context.Context, string) (page, error)          { return page{}, nil }
func (f fakeEngine) all(context.Context, string) ([]string, string, error) { return nil, "", nil }

// TestWriteJSON checks the -json lines: one per query and engine, times in milliseconds,
// null where an engine has no timing, and the first error.
func TestWriteJSON(t *testing.T) {
	ms := time.Millisecond
	cfg := config{queries: []string{"Foo", `"a b"`}}
	engines := []engine{fakeEngine("zoekt"), fakeEngine("quarry")}
	res := [][]*stats{
		{
			{times: []time.Duration{3 * ms, 1 * ms, 2 * ms}, server: []time.Duration{ms / 2}, page: page{lines: 7, truncated: true}, total: -1},
			{times: []time.Duration{4 * ms}, total: 9},
		},
		{
			{times: []time.Duration{ms}, total: -1},
			{errs: 2, err: errors.New("boom"), total: -1},
		},
	}
	name := filepath.Join(t.TempDir(), "out.jsonl")
	if err := writeJSON(name, cfg, engines, res); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4:\n%s", len(lines), data)
	}
	var got []jsonResult
	for _, l := range lines {
		var r jsonResult
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	z := got[0]
	if z.QueryIndex != 1 || z.Query != "Foo" || z.Engine != "zoekt" || *z.P50MS != 2 || *z.P95MS != 3 || *z.MinMS != 1 ||
		*z.ServerP50 != 0.5 || z.Runs != 3 || z.PageLines != 7 || !z.Truncated || z.AllLines != nil {
		t.Errorf("zoekt Foo: %s", lines[0])
	}
	if q := got[1]; q.Engine != "quarry" || *q.P50MS != 4 || q.ServerP50 != nil || q.AllLines == nil || *q.AllLines != 9 {
		t.Errorf("quarry Foo: %s", lines[1])
	}
	if q := got[3]; q.Query != `"a b"` || q.P50MS != nil || q.P95MS != nil || q.Runs != 0 || q.Errors != 2 || q.Error != "boom" {
		t.Errorf("quarry \"a b\": %s", lines[3])
	}
}
