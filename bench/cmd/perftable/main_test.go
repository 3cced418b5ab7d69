package main

import (
	"strings"
	"testing"
)

const fullRuns = `{"tags":{"step":"corpus"},"bytes":100000000,"files":10}
{"tags":{"step":"full","engine":"quarry","pair":"1"},"wall_s":10,"cpu_s":20,"peak_rss_tree_bytes":500000000,"written_bytes":600000000,"exit_code":0}
{"tags":{"step":"size","engine":"quarry","pair":"1"},"bytes":300000000,"symbols":50,"parse_errors":1}
{"tags":{"step":"full","engine":"zoekt","pair":"1"},"wall_s":5,"cpu_s":8,"peak_rss_tree_bytes":200000000,"written_bytes":150000000,"exit_code":0}
{"tags":{"step":"size","engine":"zoekt","pair":"1"},"bytes":100000000,"symbols":40}
{"tags":{"step":"full","engine":"quarry","pair":"2"},"wall_s":12,"cpu_s":22,"peak_rss_tree_bytes":520000000,"written_bytes":600000000,"exit_code":0}
{"tags":{"step":"size","engine":"quarry","pair":"2"},"bytes":300000000,"symbols":70,"parse_errors":0}
{"tags":{"step":"full","engine":"zoekt","pair":"2"},"wall_s":7,"cpu_s":10,"peak_rss_tree_bytes":220000000,"written_bytes":150000000,"exit_code":0}
{"tags":{"step":"size","engine":"zoekt","pair":"2"},"bytes":100000000,"symbols":40}
{"tags":{"step":"nochange","engine":"quarry","pair":"1"},"wall_s":0.5,"exit_code":0}
{"tags":{"step":"nochange","engine":"quarry","pair":"2"},"wall_s":0.7,"exit_code":0}
{"tags":{"step":"edit","engine":"quarry","pair":"1"},"wall_s":0.9,"exit_code":0}
{"tags":{"step":"edit","engine":"quarry","pair":"2"},"wall_s":1.1,"exit_code":0}
`

const cliRuns = `{"tags":{"step":"cli","engine":"quarry","query":"Foo","run":"1"},"wall_s":0.1,"exit_code":0}
{"tags":{"step":"cli","engine":"zoekt","query":"Foo","run":"1"},"wall_s":0.2,"exit_code":0}
{"tags":{"step":"cli","engine":"quarry","query":"Foo","run":"2"},"wall_s":0.3,"exit_code":0}
{"tags":{"step":"cli","engine":"zoekt","query":"Foo","run":"2"},"wall_s":0.2,"exit_code":0}
{"tags":{"step":"warm"},"query":"a","engine":"zoekt","p50_ms":1,"p95_ms":2,"runs":3,"errors":0}
{"tags":{"step":"warm"},"query":"a","engine":"quarry","p50_ms":4,"p95_ms":5,"runs":3,"errors":0}
{"tags":{"step":"warm"},"query":"b","engine":"zoekt","p50_ms":2,"p95_ms":9,"runs":3,"errors":0}
{"tags":{"step":"warm"},"query":"b","engine":"quarry","p50_ms":2,"p95_ms":3,"runs":3,"errors":0}
{"tags":{"step":"warm"},"query":"c","engine":"zoekt","p50_ms":3,"p95_ms":4,"runs":3,"errors":0}
{"tags":{"step":"warm"},"query":"c","engine":"quarry","p50_ms":3,"p95_ms":4,"runs":3,"errors":0}
{"tags":{"step":"regex"},"query":"TODO|FIXME","engine":"zoekt","p50_ms":10,"p95_ms":12,"runs":3,"errors":0,"all_lines":4918}
{"tags":{"step":"regex"},"query":"TODO|FIXME","engine":"quarry","p50_ms":8,"p95_ms":9,"runs":3,"errors":0,"all_lines":4936}
`

func render(t *testing.T, jsonl string, skipBuild bool) (string, int) {
	t.Helper()
	recs, err := readRecords(strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	return table(recs, skipBuild)
}

// rowOf returns the table line whose first cell starts with name.
func rowOf(t *testing.T, text, name string) string {
	t.Helper()
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "| "+name) {
			return line
		}
	}
	t.Fatalf("no row %q in\n%s", name, text)
	return ""
}

func TestTableComplete(t *testing.T) {
	text, failed := render(t, fullRuns+cliRuns, false)
	if failed != 0 {
		t.Fatalf("%d failed cells in\n%s", failed, text)
	}
	for name, want := range map[string]string{
		"full index wall":                  "| 11.00 s | 6.00 s | 1.83x |",
		"full index CPU":                   "| 21.00 s | 9.00 s | 2.33x |",
		"full index peak RSS":              "| 510.0 MB | 210.0 MB | 2.43x |",
		"index on disk":                    "| 300.0 MB (3.00x corpus) | 100.0 MB (1.00x corpus) | 3.00x |",
		"bytes written":                    "| 600.0 MB (2.00x index) | 150.0 MB (1.50x index) | 4.00x |",
		"warm p50, median over 3":          "| 3.0 ms | 2.0 ms | 1.50x |",
		"warm worst p50 ratio (`a`)":       "| 4.0 ms | 1.0 ms | 4.00x |",
		"warm worst p95":                   "| 5.0 ms (`a`) | 9.0 ms (`b`) | 0.56x |",
		"one-shot CLI `Foo` (median of 2)": "| 200.0 ms | 200.0 ms | 1.00x |",
		"no-change re-index":               "| 0.60 s | n/a | n/a |",
		"one-edit re-index":                "| 1.00 s | n/a | n/a |",
		"content regex `TODO\\|FIXME` p50": "| 8.0 ms | 10.0 ms | 0.80x |",
	} {
		if row := rowOf(t, text, name); !strings.HasSuffix(row, want) {
			t.Errorf("row %q = %q, want it to end in %q", name, row, want)
		}
	}
	if !strings.Contains(text, "regex `TODO|FIXME`: lines through every page: quarry 4936, zoekt 4918") {
		t.Errorf("no note of the regex's lines in\n%s", text)
	}
	if !strings.Contains(text, "symbols per build: quarry 50 (files with parse errors: 1), 70 (files with parse errors: 0) (DIFFERS between builds of the same corpus); zoekt+ctags 40") {
		t.Errorf("no symbols note in\n%s", text)
	}
	if !strings.Contains(text, "full index wall per run: quarry 10.00 s, 12.00 s; zoekt 5.00 s, 7.00 s") {
		t.Errorf("no spread note for the full builds in\n%s", text)
	}
}

// A failed run, a missing engine and a warm error each leave "failed" cells, counted.
func TestTableFailures(t *testing.T) {
	runs := strings.Replace(fullRuns, `"wall_s":7,"cpu_s":10,"peak_rss_tree_bytes":220000000,"written_bytes":150000000,"exit_code":0`,
		`"wall_s":7,"exit_code":2`, 1)
	runs += `{"tags":{"step":"warm"},"query":"a","engine":"zoekt","p50_ms":1,"p95_ms":2,"runs":3,"errors":0}
{"tags":{"step":"warm"},"query":"a","engine":"quarry","p50_ms":null,"p95_ms":null,"runs":0,"errors":5,"error":"boom"}
{"tags":{"step":"fail"},"what":"searchbench failed"}
`
	text, failed := render(t, runs, false)
	if failed == 0 {
		t.Fatalf("no failed cells in\n%s", text)
	}
	if row := rowOf(t, text, "full index wall"); !strings.HasSuffix(row, "| 11.00 s | failed | failed |") {
		t.Errorf("full index wall with a failed zoekt run: %q", row)
	}
	if row := rowOf(t, text, "warm p50"); !strings.Contains(row, "failed") {
		t.Errorf("warm row with a quarry error: %q", row)
	}
	if row := rowOf(t, text, "one-shot CLI"); !strings.HasSuffix(row, "| failed | failed | failed |") {
		t.Errorf("one-shot CLI with no runs: %q", row)
	}
	for _, note := range []string{"zoekt full (pair=2) failed: exit 2", `quarry on "a": 0 runs, 5 errors boom`, "perf.sh: searchbench failed"} {
		if !strings.Contains(text, note) {
			t.Errorf("no note %q in\n%s", note, text)
		}
	}
}

// With -skip-build the build rows say "skipped" and do not count as failures.
func TestTableSkipBuild(t *testing.T) {
	runs := `{"tags":{"step":"corpus"},"bytes":100000000,"files":10}
{"tags":{"step":"size","engine":"quarry","pair":"0"},"bytes":300000000}
{"tags":{"step":"size","engine":"zoekt","pair":"0"},"bytes":100000000}
` + cliRuns
	text, failed := render(t, runs, true)
	if failed != 0 {
		t.Fatalf("%d failed cells in\n%s", failed, text)
	}
	if row := rowOf(t, text, "full index wall"); !strings.HasSuffix(row, "| skipped | skipped | skipped |") {
		t.Errorf("full index wall with -skip-build: %q", row)
	}
	if row := rowOf(t, text, "one-edit re-index"); !strings.HasSuffix(row, "| skipped | n/a | n/a |") {
		t.Errorf("one-edit re-index with -skip-build: %q", row)
	}
	if row := rowOf(t, text, "index on disk"); !strings.Contains(row, "3.00x") {
		t.Errorf("index on disk with -skip-build: %q", row)
	}
}

// TestTableCLIModes: the one-shot runs of each mode (tag mode) make a row of their own.
func TestTableCLIModes(t *testing.T) {
	runs := `{"tags":{"step":"cli","engine":"quarry","query":"Foo","mode":"walk","run":"1"},"wall_s":0.3,"exit_code":0}
{"tags":{"step":"cli","engine":"zoekt","query":"Foo","mode":"walk","run":"1"},"wall_s":0.2,"exit_code":0}
{"tags":{"step":"cli","engine":"quarry","query":"Foo","mode":"watcher","run":"1"},"wall_s":0.05,"exit_code":0}
{"tags":{"step":"cli","engine":"zoekt","query":"Foo","mode":"watcher","run":"1"},"wall_s":0.2,"exit_code":0}
`
	text, _ := render(t, fullRuns+runs, false)
	for name, want := range map[string]string{
		"one-shot CLI `Foo`, QUARRY_AUTOWATCH=0 (median of 1)":         "| 300.0 ms | 200.0 ms | 1.50x |",
		"one-shot CLI `Foo`, the watcher the first left (median of 1)": "| 50.0 ms | 200.0 ms | 0.25x |",
	} {
		if row := rowOf(t, text, name); !strings.HasSuffix(row, want) {
			t.Errorf("%s: %s; want it to end %s", name, row, want)
		}
	}
}
