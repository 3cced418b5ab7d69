package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// quarry runs the command line in-process and returns its exit code and output.
func quarry(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	code = report(err, &errOut)
	return code, out.String(), errOut.String()
}

func tokensJSON(t *testing.T, args ...string) []string {
	t.Helper()
	code, out, errOut := quarry(t, "", append([]string{"tokens", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("quarry tokens --json %q: exit %d, stderr %q", args, code, errOut)
	}
	var toks []struct {
		Text       string
		Kind       string
		Start, End int
	}
	if err := json.Unmarshal([]byte(out), &toks); err != nil {
		t.Fatalf("quarry tokens --json %q: output %q is not a JSON array of tokens: %v", args, out, err)
	}
	var texts []string
	for _, tok := range toks {
		if tok.Kind == "" || tok.Start > tok.End {
			t.Errorf("quarry tokens --json %q: token %+v", args, tok)
		}
		texts = append(texts, tok.Text)
	}
	return texts
}

func TestTokensAcceptance(t *testing.T) {
	toks := tokensJSON(t, "--lang", "rust", "std::io::Read is_valid borrow_mut")
	for _, want := range []string{"::", "io", "read", "valid", "borrow"} {
		if !slices.Contains(toks, want) {
			t.Errorf("rust tokens %q lack %q", toks, want)
		}
	}
	if toks := tokensJSON(t, "--lang", "python", "island"); slices.Contains(toks, "land") {
		t.Errorf("python tokens of island = %q, must not contain land", toks)
	}
	if toks := tokensJSON(t, "--lang", "csharp", "IPaymentService"); !slices.Contains(toks, "paymentservice") {
		t.Errorf("csharp tokens of IPaymentService = %q, want paymentservice", toks)
	}
	if toks := tokensJSON(t, "--query", "get_user_data"); !slices.Equal(toks, []string{"get", "user", "data"}) {
		t.Errorf("query tokens of get_user_data = %q", toks)
	}
}

func TestTokensStdinAndTable(t *testing.T) {
	code, out, _ := quarry(t, "interface IPaymentService {}", "tokens", "--lang", "csharp")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"TOKEN", "ipaymentservice", "paymentservice", "variant", `"PaymentService"`} {
		if !strings.Contains(out, want) {
			t.Errorf("table output lacks %q:\n%s", want, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"tokens", "--lang", "cobol", "x"}, []string{`unknown language "cobol"`, "known languages: bash, c, cpp, csharp, css, cue"}},
		{[]string{"tokens", "--lnag", "rust", "x"}, []string{"unknown flag: --lnag", "did you mean --lang?"}},
		{[]string{"tokens", "--jsno", "x"}, []string{"did you mean --json?"}},
		{[]string{"tokens", "--zzzzzz", "x"}, []string{"known flags:", "--lang"}},
		{[]string{"tokns", "x"}, []string{`unknown command "tokns"`, "did you mean tokens?"}},
		{[]string{"tokens", "--lang"}, []string{"flag needs an argument"}},
	}
	for _, tt := range tests {
		code, _, errOut := quarry(t, "", tt.args...)
		if code != exitUsage {
			t.Errorf("quarry %q: exit %d, want %d (stderr %q)", tt.args, code, exitUsage, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("quarry %q: stderr %q lacks %q", tt.args, errOut, w)
			}
		}
	}
}

func TestVersionAndCompletion(t *testing.T) {
	if code, out, _ := quarry(t, "", "--version"); code != exitOK || !strings.Contains(out, version) {
		t.Errorf("--version: exit %d, output %q", code, out)
	}
	code, out, _ := quarry(t, "", "completion", "bash")
	if code != exitOK || !strings.Contains(out, "__start_quarry") {
		t.Errorf("completion bash: exit %d, %d bytes", code, len(out))
	}
	code, out, _ = quarry(t, "", "__complete", "tokens", "--lang", "ru")
	if code != exitOK || !strings.Contains(out, "rust") {
		t.Errorf("completing --lang: exit %d, output %q", code, out)
	}
}

// TestLanguagesAgree: the language files are the one source of the languages Quarry lists:
// capabilities, --lang completion and the help's count say the same as languages/*.toml.
func TestLanguagesAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "languages", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no language files: %v", err)
	}
	var want []string
	nameRE := regexp.MustCompile(`(?m)^name = "([^"]+)"`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := nameRE.FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s has no name", f)
		}
		want = append(want, string(m[1]))
	}
	sort.Strings(want)
	code, out, _ := quarry(t, "", "capabilities")
	var caps struct{ Languages []string }
	if err := json.Unmarshal([]byte(out), &caps); code != exitOK || err != nil {
		t.Fatalf("capabilities: exit %d, %v", code, err)
	}
	if got := slices.Sorted(slices.Values(caps.Languages)); !slices.Equal(got, want) {
		t.Errorf("capabilities lists %v, the language files %v", got, want)
	}
	_, out, _ = quarry(t, "", "__complete", "search", "--lang", "")
	var completed []string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, ":") && !strings.HasPrefix(line, "Completion") {
			completed = append(completed, line)
		}
	}
	if slices.Sort(completed); !slices.Equal(completed, want) {
		t.Errorf("--lang completes %v, the language files are %v", completed, want)
	}
	if _, out, _ = quarry(t, "", "--help"); !strings.Contains(out, fmt.Sprintf("in %d languages", len(want))) {
		t.Errorf("--help does not say in %d languages:\n%s", len(want), out)
	}
}
