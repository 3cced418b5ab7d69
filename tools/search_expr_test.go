package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/tools/internal/testkit"
	"github.com/quarrysearch/quarry/workspace"
)

// The tests of the query language (issue 11) run over a copy of the search fixture,
// testdata/search/repo. Every expected (path, line) below was read from the fixture's files.

// exprRepo copies the search fixture into a temporary directory, adds the extra files
// (path -> content), indexes the copy and returns a service over it.
func exprRepo(t *testing.T, extra map[string]string) *Service {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "testdata", "search", "repo")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy the fixture: %v", err)
	}
	testkit.WriteFiles(t, root, extra)
	return indexedService(t, root)
}

// indexedService indexes the workspace at root and returns a service over it, closed with
// the test.
func indexedService(t *testing.T, root string) *Service {
	t.Helper()
	s, err := NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := s.Index(context.Background(), IndexRequest{}); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	return s
}

// exprSearch runs req with limit results a page and returns every result of every page.
func exprSearch(t *testing.T, s *Service, req SearchRequest, limit int) ([]Hit, error) {
	t.Helper()
	req.Limit = intp(limit)
	var all []Hit
	for page := 0; ; page++ {
		res, err := s.Search(context.Background(), req)
		if err != nil {
			return all, err
		}
		all = append(all, res.Results...)
		if res.NextCursor == "" {
			return all, nil
		}
		if page > 2000 {
			t.Fatalf("Search(%q): more than 2000 pages", req.Query)
		}
		req.Cursor = res.NextCursor
	}
}

// at is a hit's place, path:line.
func hitAt(h Hit) string { return fmt.Sprintf("%s:%d", h.Path, h.Line) }

// places lists the places of hits.
func places(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = hitAt(h)
	}
	return out
}

// isTestPath reports whether a fixture path is a test, by the fixture's conventions.
func isTestPath(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return strings.HasSuffix(p, "_test.go") || strings.Contains(p, "/tests/") || strings.Contains(p, "/test/") ||
		strings.Contains(p, "/__tests__/") || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "Test.java")
}

// Checks of every hit of a case: "" when the hit is fine, else what is wrong with it.
type hitCheck func(Hit) string

func allOf(checks ...hitCheck) hitCheck {
	return func(h Hit) string {
		for _, c := range checks {
			if msg := c(h); msg != "" {
				return msg
			}
		}
		return ""
	}
}

func hitIs(kind string) hitCheck {
	return func(h Hit) string {
		if string(h.Hit) != kind {
			return "is a " + string(h.Hit) + " hit, want " + kind
		}
		return ""
	}
}

func langIs(lang string) hitCheck {
	return func(h Hit) string {
		if h.Language != lang {
			return "language " + h.Language + ", want " + lang
		}
		return ""
	}
}

func kindIn(kinds ...string) hitCheck {
	return func(h Hit) string {
		if !slices.Contains(kinds, h.Kind) {
			return fmt.Sprintf("kind %s, want one of %v", h.Kind, kinds)
		}
		return ""
	}
}

func nameIn(names ...string) hitCheck {
	return func(h Hit) string {
		if !slices.Contains(names, h.Name) {
			return fmt.Sprintf("name %q, want one of %v", h.Name, names)
		}
		return ""
	}
}

func pathCheck(what string, ok func(string) bool) hitCheck {
	return func(h Hit) string {
		if !ok(h.Path) {
			return "path " + h.Path + " is not " + what
		}
		return ""
	}
}

func lineCheck(what string, ok func(int) bool) hitCheck {
	return func(h Hit) string {
		if !ok(h.Line) {
			return fmt.Sprintf("line %d is not %s", h.Line, what)
		}
		return ""
	}
}

// textHas: the hit's line holds sub (ignoring case when fold).
func textHas(sub string, fold bool) hitCheck {
	return func(h Hit) string {
		text := h.Text
		if fold {
			text, sub = strings.ToLower(text), strings.ToLower(sub)
		}
		if !strings.Contains(text, sub) {
			return fmt.Sprintf("text %q lacks %q", h.Text, sub)
		}
		return ""
	}
}

func textMatches(re string) hitCheck {
	r := regexp.MustCompile(re)
	return func(h Hit) string {
		if !r.MatchString(h.Text) {
			return fmt.Sprintf("text %q does not match %s", h.Text, re)
		}
		return ""
	}
}

// exprCase is one query of TestExpressionSyntax: the places that must be among its results,
// those that must not, a check every result must pass, whether it finds nothing at all, and
// the place ranked first.
type exprCase struct {
	req   SearchRequest
	want  []string
	avoid []string
	each  hitCheck
	none  bool
	first string
}

// sq is a search request for query, everything else defaulted.
func sq(query string) SearchRequest { return SearchRequest{Query: query} }

// TestExpressionSyntax runs one or more queries per element of the query language and per
// field of the registry over the fixture, each with the results read from the fixture.
func TestExpressionSyntax(t *testing.T) {
	s := exprRepo(t, nil)
	reg, err := workspace.LoadRegistry(s.Root())
	if err != nil {
		t.Fatal(err)
	}
	ws := reg.Primary.ID
	def, line, file := hitIs(string(HitDefinition)), hitIs(string(HitContent)), hitIs(string(HitFile))
	notDef := func(h Hit) string { // content: applies to lines and files
		if h.Hit == HitDefinition {
			return "is a definition"
		}
		return ""
	}
	notTest := pathCheck("a source path (not a test)", func(p string) bool { return !isTestPath(p) })
	cases := []exprCase{
		// Bare terms AND: Acquire's doc holds acquire and connection; Release's signature
		// holds connection (ConnectionPool) but nothing of it says acquire.
		{req: sq("type:def acquire connection"), want: []string{"go/pool/pool.go:65"},
			avoid: []string{"go/pool/pool.go:106", "go/pool/pool.go:118"}, each: def},
		// Explicit AND; lower-case or is a word, not an operator (no name is both).
		{req: sq("type:def acquire AND connection"), want: []string{"go/pool/pool.go:65"}, avoid: []string{"go/pool/pool.go:106"}, each: def},
		{req: sq("type:def name:Chain or name:Recover"), none: true},
		// OR.
		{req: sq("type:def (name:Chain OR name:Recover)"), want: []string{"go/server/middleware.go:16", "go/server/middleware.go:64"},
			avoid: []string{"go/server/middleware.go:52"}, each: allOf(def, nameIn("Chain", "Recover"))},
		// NOT and -: New of go/pool stays, New of go/server goes.
		{req: sq("type:def name:New NOT path:go/server/**"), want: []string{"go/pool/pool.go:50"},
			avoid: []string{"go/server/server.go:26"}, each: allOf(def, pathCheck("outside go/server/", func(p string) bool { return !strings.HasPrefix(p, "go/server/") }))},
		{req: sq("type:def name:New -path:go/server/**"), want: []string{"go/pool/pool.go:50"},
			avoid: []string{"go/server/server.go:26"}, each: allOf(def, pathCheck("outside go/server/", func(p string) bool { return !strings.HasPrefix(p, "go/server/") }))},
		// + (required, as every term is).
		{req: sq("type:def +name:Chain"), want: []string{"go/server/middleware.go:16"}, each: allOf(def, nameIn("Chain"))},
		// A group.
		{req: sq("type:def (name:Chain OR name:Logging) lang:go"), want: []string{"go/server/middleware.go:16", "go/server/middleware.go:52"},
			avoid: []string{"go/server/middleware.go:64"}, each: allOf(def, langIs("go"), nameIn("Chain", "Logging"))},
		// A phrase.
		{req: sq(`type:line "connection pool exhausted"`), want: []string{"go/pool/pool.go:13"},
			each: allOf(line, textHas("connection pool exhausted", true))},
		// A phrase with slop: "hands out at most maxOpen" has three words between.
		{req: sq(`type:line "hands maxOpen"~3`), want: []string{"go/pool/pool.go:34"}, each: line},
		{req: sq(`type:line "hands maxOpen"~2`), avoid: []string{"go/pool/pool.go:34"}, each: line},
		// A phrase prefix.
		{req: sq(`type:line "handler.Serve"*`), want: []string{"go/server/server.go:42"}, each: allOf(line, textHas("handler.serve", true))},
		// A prefix: deactivateUser, deactivate_user; loadUser says nothing of it.
		{req: sq("type:def deactivat*"), want: []string{"go/server/users.go:51", "python/shop/users.py:28", "ts/src/api/users.ts:23"},
			avoid: []string{"go/server/users.go:35"}, each: def},
		// Fuzzy: a name, and a word of a line (the word Backoff, not DefaultBackoff).
		{req: sq("type:def name:Chainn~1"), want: []string{"go/server/middleware.go:16"}, avoid: []string{"go/server/middleware.go:52"}, each: def},
		{req: sq("type:line Backof~1 path:go/retry/backoff.go"), want: []string{"go/retry/backoff.go:12", "go/retry/backoff.go:26"},
			avoid: []string{"go/retry/backoff.go:22"}, each: allOf(line, pathCheck("go/retry/backoff.go", func(p string) bool { return p == "go/retry/backoff.go" }))},
		// Edit distances: chian is two edits from chain by the Levenshtein distance the
		// matcher counts (index/matcher.go levenshtein: a swap of neighbours is two), the same
		// for definitions and for lines.
		{req: sq("type:def name:Chian~2"), want: []string{"go/server/middleware.go:16"}, each: def},
		// a swap of two letters is one edit (as Lucene and bleve count), in names and lines alike
		{req: sq("type:def name:Chian~1"), want: []string{"go/server/middleware.go:16"}, each: def},
		{req: sq("type:def name:Cihna~1"), avoid: []string{"go/server/middleware.go:16"}, each: def},
		{req: sq("type:line Chian~2 path:go/server/middleware.go"), want: []string{"go/server/middleware.go:15"}, each: line},
		{req: sq("type:line Chian~1 path:go/server/middleware.go"), want: []string{"go/server/middleware.go:15"}, each: line},
		{req: sq("type:line Cihna~1 path:go/server/middleware.go"), avoid: []string{"go/server/middleware.go:15"}, each: line},
		// Wildcards in a field's value (* and ?), over the whole name.
		{req: sq("type:def name:handle*User"), want: []string{"go/server/handlers.go:49", "go/server/handlers.go:66"},
			avoid: []string{"go/server/handlers.go:44"}, each: allOf(def, nameIn("handleGetUser", "handleDeactivateUser"))},
		{req: sq("type:def name:Sta?s"), want: []string{"go/pool/pool.go:28", "go/pool/pool.go:118"}, each: allOf(def, nameIn("Stats"))},
		// field:* (exists), negated: Go functions without a doc comment.
		{req: sq("type:def lang:go kind:function -doc:*"), want: []string{"go/server/users.go:26", "go/pool/pool_test.go:15"},
			avoid: []string{"go/server/middleware.go:16", "go/server/handlers.go:85"}, each: allOf(def, langIs("go"), kindIn("function"))},
		{req: sq("type:def lang:go kind:function doc:*"), want: []string{"go/server/middleware.go:16", "go/server/handlers.go:85"},
			avoid: []string{"go/server/users.go:26", "go/pool/pool_test.go:15"}, each: allOf(def, langIs("go"), kindIn("function"))},
		// Ranges: inclusive, exclusive, and comparisons, on lines and on definitions.
		{req: sq("type:line lang:go line:[1 TO 2] package"), want: []string{"go/server/server.go:1", "go/server/server.go:2", "go/server/handlers.go:1"},
			avoid: []string{"vendor/github.com/acme/pool/pool.go:4"}, each: allOf(line, langIs("go"), lineCheck("in [1, 2]", func(n int) bool { return n >= 1 && n <= 2 }))},
		{req: sq("type:line lang:go line:{1 TO 3} package"), want: []string{"go/server/server.go:2", "go/pool/pool.go:2"},
			avoid: []string{"go/server/server.go:1", "go/server/handlers.go:1"}, each: allOf(line, lineCheck("2", func(n int) bool { return n == 2 }))},
		{req: sq("type:line lang:go line:>=139 p.mu"), want: []string{"go/pool/pool.go:139", "go/pool/pool.go:141"},
			avoid: []string{"go/pool/pool.go:140", "go/pool/pool.go:127"}, each: allOf(line, lineCheck(">= 139", func(n int) bool { return n >= 139 }))},
		{req: sq("type:def lang:go kind:struct line:<20"), want: []string{"go/server/server.go:17", "go/server/users.go:13"},
			avoid: []string{"go/pool/pool.go:36", "go/server/middleware.go:41"}, each: allOf(def, kindIn("struct"), lineCheck("< 20", func(n int) bool { return n < 20 }))},
		// Ranges of names and extensions (compared ignoring case).
		{req: sq("type:def lang:go kind:function name:{A TO C}"), want: []string{"go/server/users.go:26"},
			avoid: []string{"go/server/middleware.go:16", "go/retry/backoff.go:43"}, each: allOf(def, func(h Hit) string {
				if n := strings.ToLower(h.Name); n <= "a" || n >= "c" {
					return "name not in {a TO c}"
				}
				return ""
			})},
		{req: sq("type:file ext:[c TO h]"), want: []string{"c/hash_table.c:1", "c/hash_table.h:1", "go/pool/pool.go:1"},
			avoid: []string{"README.md:1", "java/src/main/java/com/acme/shop/payments/PaymentService.java:1"}, each: allOf(file, func(h Hit) string {
				ext := h.Path[strings.LastIndexByte(h.Path, '.')+1:]
				if ext < "c" || ext > "h" {
					return "extension " + ext + " not in [c TO h]"
				}
				return ""
			})},
		// line: with one number.
		{req: sq("type:line line:42 handler"), want: []string{"go/server/server.go:42"}, each: allOf(line, lineCheck("42", func(n int) bool { return n == 42 }))},
		{req: sq("type:def lang:go line:26"), want: []string{"go/server/server.go:26", "go/server/users.go:26", "go/retry/backoff.go:26"},
			each: allOf(def, lineCheck("26", func(n int) bool { return n == 26 }))},
		// Sets: OR of kinds; AND of doc words.
		{req: sq("type:def path:go/pool/pool.go kind:(struct OR interface)"), want: []string{"go/pool/pool.go:19", "go/pool/pool.go:28", "go/pool/pool.go:36"},
			avoid: []string{"go/pool/pool.go:25", "go/pool/pool.go:50"}, each: allOf(def, kindIn("struct", "interface"))},
		{req: sq("type:def doc:(exponential AND jitter)"), want: []string{"go/retry/backoff.go:15"}, avoid: []string{"go/retry/backoff.go:23"}, each: def},
		// Boost: the boosted name ranks first, either way round.
		{req: sq("type:def (name:Chain^10 OR name:Recover)"), want: []string{"go/server/middleware.go:64"}, first: "go/server/middleware.go:16", each: def},
		{req: sq("type:def (name:Recover^10 OR name:Chain)"), want: []string{"go/server/middleware.go:16"}, first: "go/server/middleware.go:64", each: def},
		// a bare word searches several fields: its boost weighs each of them
		{req: sq("type:def (Chain^10 OR Recover)"), want: []string{"go/server/middleware.go:64"}, first: "go/server/middleware.go:16", each: def},
		{req: sq("type:def (Recover^10 OR Chain)"), want: []string{"go/server/middleware.go:16"}, first: "go/server/middleware.go:64", each: def},
		// A bare regex, and a regex in a field (case-sensitive as written: not HandlerFunc).
		{req: sq("type:line /ErrPool(Exhausted|Closed)/"), want: []string{"go/pool/pool.go:13", "go/pool/pool.go:16", "go/server/handlers.go:34"},
			each: allOf(line, textMatches(`ErrPool(Exhausted|Closed)`))},
		{req: sq("type:def name:/^handle[A-Z]/"), want: []string{"go/server/handlers.go:44", "go/server/handlers.go:49", "go/server/handlers.go:66"},
			avoid: []string{"go/server/handlers.go:14"}, each: allOf(def, nameIn("handleHealth", "handleGetUser", "handleDeactivateUser"))},
		// case: words ignore case by default, a regex does not; case:yes, case:no, case:auto.
		{req: sq("type:line errpoolexhausted"), want: []string{"go/pool/pool.go:13", "go/server/handlers.go:34"}, each: allOf(line, textHas("errpoolexhausted", true))},
		{req: sq("type:line case:yes errpoolexhausted"), none: true},
		{req: sq("type:line case:yes ErrPoolExhausted"), want: []string{"go/pool/pool.go:13"}, each: allOf(line, textHas("ErrPoolExhausted", false))},
		{req: sq("type:line /errpoolexhausted/"), none: true},
		{req: sq("type:line case:no /errpoolexhausted/"), want: []string{"go/pool/pool.go:13", "go/server/handlers.go:34"}, each: line},
		{req: sq("type:line case:auto Backoff"), want: []string{"go/retry/backoff.go:12"}, avoid: []string{"ts/src/api/client.ts:63"},
			each: allOf(line, textHas("Backoff", false))},
		{req: sq("type:line case:auto backoff"), want: []string{"go/retry/backoff.go:12", "ts/src/api/client.ts:63"}, each: allOf(line, textHas("backoff", true))},
		// type:file, with a glob.
		{req: sq("type:file path:**/*_test.go"), want: []string{"go/pool/pool_test.go:1", "go/server/server_test.go:1"},
			avoid: []string{"go/pool/pool.go:1"}, each: allOf(file, pathCheck("a _test.go file", func(p string) bool { return strings.HasSuffix(p, "_test.go") }))},
		// test:yes and test:no.
		{req: sq("type:def test:yes kind:function lang:go"), want: []string{"go/server/server_test.go:30", "go/pool/pool_test.go:15"},
			avoid: []string{"go/server/middleware.go:16"}, each: allOf(def, pathCheck("a test", isTestPath))},
		{req: sq("type:line test:no ServeHTTP"), want: []string{"go/server/server.go:41", "go/server/middleware.go:35"},
			avoid: []string{"go/server/server_test.go:33"}, each: allOf(line, notTest)},
		// path: a glob (* ? [ {) or else a case-sensitive path fragment.
		{req: sq("type:def path:go/*/pool.go kind:function"), want: []string{"go/pool/pool.go:50"}, avoid: []string{"vendor/github.com/acme/pool/pool.go:27"},
			each: allOf(def, pathCheck("go/pool/pool.go", func(p string) bool { return p == "go/pool/pool.go" }))},
		{req: sq("type:file path:go/{pool,retry}/*.go"), want: []string{"go/pool/pool.go:1", "go/pool/pool_test.go:1", "go/retry/backoff.go:1"},
			avoid: []string{"go/server/server.go:1"}, each: allOf(file, pathCheck("in go/pool or go/retry", func(p string) bool {
				return strings.HasPrefix(p, "go/pool/") || strings.HasPrefix(p, "go/retry/")
			}))},
		{req: sq("type:file path:c/*.[ch]"), want: []string{"c/hash_table.c:1", "c/hash_table.h:1", "c/skucount.c:1"},
			each: allOf(file, pathCheck("in c/", func(p string) bool { return strings.HasPrefix(p, "c/") }))},
		{req: sq("type:file path:Stripe"), want: []string{"java/src/main/java/com/acme/shop/payments/StripePaymentService.java:1",
			"java/src/test/java/com/acme/shop/payments/StripePaymentServiceTest.java:1"},
			each: allOf(file, pathCheck("holding Stripe", func(p string) bool { return strings.Contains(p, "Stripe") }))},
		{req: sq("type:file path:STRIPE"), none: true},
		// file: (path's alias).
		{req: sq("type:file file:go/retry/*"), want: []string{"go/retry/backoff.go:1"}, each: allOf(file, pathCheck("in go/retry/", func(p string) bool { return strings.HasPrefix(p, "go/retry/") }))},
		// ext:
		{req: sq("type:file ext:h"), want: []string{"c/hash_table.h:1"}, each: allOf(file, pathCheck("a .h file", func(p string) bool { return strings.HasSuffix(p, ".h") }))},
		{req: sq("type:def ext:rs kind:struct"), want: []string{"rust/src/tools/search/mod.rs:17", "rust/src/tokens.rs:33"},
			each: allOf(def, kindIn("struct"), pathCheck("a .rs file", func(p string) bool { return strings.HasSuffix(p, ".rs") }))},
		// lang: and its aliases (language:, py, golang).
		{req: sq("type:def lang:python kind:class"), want: []string{"python/shop/config.py:13", "python/shop/repository.py:53"},
			each: allOf(def, langIs("python"), kindIn("class"))},
		{req: sq("type:def language:py name:UserRepository kind:class"), want: []string{"python/shop/repository.py:53"}, each: allOf(def, langIs("python"))},
		{req: SearchRequest{Query: "type:def lang:golang name:Chain", Language: "go"}, want: []string{"go/server/middleware.go:16"}, each: allOf(def, langIs("go"))},
		// kind: (Dialer is a type, not a struct or interface: above), vis:/visibility:
		{req: sq("type:def lang:go kind:function vis:private"), want: []string{"go/server/users.go:35", "go/server/users.go:26"},
			avoid: []string{"go/server/middleware.go:16"}, each: allOf(def, kindIn("function"))},
		{req: sq("type:def lang:go kind:function visibility:public path:go/server/middleware.go"), want: []string{"go/server/middleware.go:16", "go/server/middleware.go:64"},
			each: allOf(def, kindIn("function"))},
		// parent:
		{req: sq("type:def parent:ConnectionPool -path:vendor/**"), want: []string{"go/pool/pool.go:65", "go/pool/pool.go:138"},
			avoid: []string{"go/pool/pool.go:50", "vendor/github.com/acme/pool/pool.go:44"},
			each:  allOf(def, pathCheck("go/pool/pool.go", func(p string) bool { return p == "go/pool/pool.go" }))},
		// sig: (signature's alias), a phrase.
		{req: sq(`type:def sig:"ctx context.Context"`), want: []string{"go/server/server.go:47", "go/retry/backoff.go:43"},
			avoid: []string{"go/server/handlers.go:44"}, each: allOf(def, func(h Hit) string {
				if !strings.Contains(strings.ToLower(h.Signature), "ctx context.context") {
					return fmt.Sprintf("signature %q lacks ctx context.Context", h.Signature)
				}
				return ""
			})},
		{req: sq("type:def signature:ListenAndServe"), want: []string{"go/server/server.go:47"}, each: def},
		// body:
		{req: sq("type:def body:ErrPoolClosed"), want: []string{"go/pool/pool.go:65"}, avoid: []string{"go/pool/pool.go:16", "go/pool/pool.go:126"}, each: def},
		// doc:
		{req: sq(`type:def doc:"default payment method"`), want: []string{"java/src/main/java/com/acme/shop/payments/PaymentService.java:19"}, each: def},
		// content:, on lines and on files.
		{req: sq("type:line content:/Retry-After/"), want: []string{"go/server/handlers.go:35", "go/server/server_test.go:73", "ts/src/api/client.ts:65"},
			each: allOf(line, textHas("Retry-After", false))},
		{req: sq("type:file content:ErrPoolExhausted"), want: []string{"go/pool/pool.go:1", "go/server/handlers.go:1", "go/pool/pool_test.go:1"},
			avoid: []string{"go/server/server.go:1"}, each: file},
		// name: and its aliases sym:, symbol:
		{req: sq("type:def sym:Chain"), want: []string{"go/server/middleware.go:16"}, each: allOf(def, nameIn("Chain"))},
		{req: sq("type:def symbol:Recover"), want: []string{"go/server/middleware.go:64"}, each: allOf(def, nameIn("Recover"))},
		// workspace: and repo:, the primary's id.
		{req: sq("type:def workspace:" + ws + " name:Chain"), want: []string{"go/server/middleware.go:16"}, each: def},
		{req: sq("type:def repo:" + ws + " name:Chain"), want: []string{"go/server/middleware.go:16"}, each: def},
		// The auto target searches only the targets the fields apply to.
		{req: sq("name:Chain lang:go"), want: []string{"go/server/middleware.go:16"}, each: allOf(def, langIs("go"))},
		{req: sq("content:/Retry-After/"), want: []string{"go/server/handlers.go:35"}, each: notDef},
		{req: sq("content:ErrPoolExhausted lang:go"), want: []string{"go/pool/pool.go:13", "go/server/handlers.go:34", "go/pool/pool_test.go:39"},
			avoid: []string{"go/server/server.go:41"}, each: allOf(notDef, langIs("go"))},
		// Bare words of the files target are path fragments.
		{req: sq("type:file hash table"), want: []string{"c/hash_table.c:1", "c/hash_table.h:1"}, avoid: []string{"c/skucount.c:1"}, each: file},
		// A filter: every result is Go.
		{req: sq("type:line ServeHTTP lang:go"), want: []string{"go/server/server.go:41", "go/server/server_test.go:33"}, each: allOf(line, langIs("go"))},
	}
	for _, tc := range cases {
		hits, err := exprSearch(t, s, tc.req, MaxLimit)
		if err != nil {
			t.Errorf("Search(%q): %v", tc.req.Query, err)
			continue
		}
		got := places(hits)
		if tc.none && len(hits) > 0 {
			t.Errorf("Search(%q) = %v, want no result", tc.req.Query, got)
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("Search(%q) = %v, want %s among them", tc.req.Query, got, w)
			}
		}
		for _, a := range tc.avoid {
			if slices.Contains(got, a) {
				t.Errorf("Search(%q) holds %s, which it must not", tc.req.Query, a)
			}
		}
		if tc.each != nil {
			for _, h := range hits {
				if msg := tc.each(h); msg != "" {
					t.Errorf("Search(%q): result %s %s: %s", tc.req.Query, hitAt(h), h.Name, msg)
				}
			}
		}
		if tc.first != "" && (len(got) == 0 || got[0] != tc.first) {
			t.Errorf("Search(%q) = %v, want %s first", tc.req.Query, got, tc.first)
		}
	}
}

// exprExtra are files added to the fixture for the regex tests: TODO and FIXME in several
// cases, and matches after non-ASCII characters, whose columns count characters.
var exprExtra = map[string]string{
	"go/extra/todo.go": "package extra\n\n// TODO: remove this file once the café menu ships.\n// Ünïcode first, then FIXME: the column counts characters.\n" +
		"type Server struct{}\n\n/* é */ func (s *Server) Handle() {}\n\n// todo in lower case, and a Todo in title case.\nfunc Run() { (&Server{}).Handle() }\n",
	"ts/src/extra.ts": "// ü TODO(ü): a note after non-ASCII characters\n/* ü */ export class BadInputError extends Error {}\n/* ü */ export function ping(): void {}\n",
}

// indexedFiles returns the content of every file the index of s holds, read from the
// workspace on disk, by path: the files target lists them (path:* matches every path), and
// they must include the fixture's sources and the extra files.
func indexedFiles(t *testing.T, s *Service, extra map[string]string) map[string]string {
	t.Helper()
	hits, err := exprSearch(t, s, sq("type:file path:*"), MaxLimit)
	if err != nil {
		t.Fatalf("list the indexed files: %v", err)
	}
	res, err := s.Search(context.Background(), sq("type:file path:*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != res.TotalFilesSearched {
		t.Errorf("type:file path:* lists %d files; the index holds %d", len(hits), res.TotalFilesSearched)
	}
	files := map[string]string{}
	for _, h := range hits {
		if _, dup := files[h.Path]; dup {
			t.Errorf("type:file path:* lists %s twice", h.Path)
		}
		data, err := os.ReadFile(filepath.Join(s.Root(), filepath.FromSlash(h.Path)))
		if err != nil {
			t.Fatalf("indexed file %s: %v", h.Path, err)
		}
		files[h.Path] = string(data)
	}
	must := []string{"go/pool/pool.go", "python/shop/config.py", "java/src/main/java/com/acme/shop/payments/PaymentException.java", "ts/src/api/client.ts"}
	for p := range extra {
		must = append(must, p)
	}
	for _, p := range must {
		if _, ok := files[p]; !ok {
			t.Errorf("type:file path:* lacks %s", p)
		}
	}
	return files
}

// TestContentRegexMatchesGoRegexp: type:line /RE/ finds exactly the lines Go's regexp finds,
// line by line, in every indexed file, and each hit's column is its first match's (1-based,
// in characters).
func TestContentRegexMatchesGoRegexp(t *testing.T) {
	s := exprRepo(t, exprExtra)
	files := indexedFiles(t, s, exprExtra)
	// Each regex as the query gives it (with case:no: ignoring case), and as Go's regexp
	// matches the same.
	regexes := []struct{ dirs, re, goRe string }{
		{"", `func \(\w+ \*\w+\) \w+\(`, ""},
		{"", `class \w+(Exception|Error)\b`, ""},
		{"", `TODO|FIXME`, ""},
		{"", `\w+\(\)`, ""},
		{"", `^import`, ""},
		{"", `(?i)todo`, ""},
		{"", `[^\x00-\x7F]`, ""},
		{"", `\bp\.mu\.(Lock|Unlock)\(\)`, ""},
		{"", `\d{3,}`, ""},
		{"case:no ", `todo|fixme`, `(?i)todo|fixme`},
		{"case:no ", `^IMPORT`, `(?i)^IMPORT`},
		{"case:yes ", `Todo`, `Todo`},
	}
	for _, tt := range regexes {
		re := tt.re
		goRe := tt.goRe
		if goRe == "" {
			goRe = re
		}
		r := regexp.MustCompile(goRe)
		want := map[string]int{} // path:line -> column
		for p, content := range files {
			for i, l := range strings.Split(content, "\n") {
				if loc := r.FindStringIndex(l); loc != nil {
					want[fmt.Sprintf("%s:%d", p, i+1)] = utf8.RuneCountInString(l[:loc[0]]) + 1
				}
			}
		}
		if len(want) == 0 {
			t.Fatalf("/%s/ matches no line of the fixture: a test that cannot fail", goRe)
		}
		t.Logf("%s/%s/: %d lines in %d indexed files", tt.dirs, re, len(want), len(files))
		query := "type:line " + tt.dirs + "/" + strings.ReplaceAll(re, "/", `\/`) + "/"
		hits, err := exprSearch(t, s, sq(query), MaxLimit)
		if err != nil {
			t.Errorf("%s: %v", query, err)
			continue
		}
		got := map[string]int{}
		for _, h := range hits {
			if _, dup := got[hitAt(h)]; dup {
				t.Errorf("%s: %s twice", query, hitAt(h))
			}
			got[hitAt(h)] = h.Column
		}
		var missed, extra, cols []string
		for p, col := range want {
			gcol, ok := got[p]
			switch {
			case !ok:
				missed = append(missed, p)
			case gcol != col:
				cols = append(cols, fmt.Sprintf("%s column %d, want %d", p, gcol, col))
			}
		}
		for p := range got {
			if _, ok := want[p]; !ok {
				extra = append(extra, p)
			}
		}
		sort.Strings(missed)
		sort.Strings(extra)
		sort.Strings(cols)
		if len(missed) > 0 || len(extra) > 0 || len(cols) > 0 {
			t.Errorf("%s: %d lines, Go's regexp %d\n missed: %v\n extra: %v\n columns: %v", query, len(got), len(want), missed, extra, cols)
		}
	}
}

// TestContentPaging: content pages with a cursor add up to the one answer of a large limit,
// a cursor pages only its own request, and case: changes what a word matches.
func TestContentPaging(t *testing.T) {
	s := exprRepo(t, nil)
	ctx := context.Background()
	for _, query := range []string{"type:line return", "type:file path:*"} {
		whole, err := s.Search(ctx, SearchRequest{Query: query, Limit: intp(MaxLimit)})
		if err != nil {
			t.Fatal(err)
		}
		if whole.NextCursor != "" || len(whole.Results) <= 3 {
			t.Fatalf("Search(%q, limit %d): %d results, next_cursor %q; want more than 3, all of them", query, MaxLimit, len(whole.Results), whole.NextCursor)
		}
		req := SearchRequest{Query: query, Limit: intp(3)}
		var paged []string
		seen := map[string]bool{}
		for page := 0; ; page++ {
			res, err := s.Search(ctx, req)
			if err != nil {
				t.Fatalf("Search(%q) page %d: %v", query, page, err)
			}
			if len(res.Results) > 3 {
				t.Errorf("Search(%q) page %d: %d results, want at most 3", query, page, len(res.Results))
			}
			for _, h := range res.Results {
				if seen[hitAt(h)] {
					t.Errorf("Search(%q): %s on two pages", query, hitAt(h))
				}
				seen[hitAt(h)] = true
				paged = append(paged, hitAt(h))
			}
			if res.NextCursor == "" {
				break
			}
			if !res.Truncated || res.TruncatedReason != TruncatedLimit {
				t.Errorf("Search(%q) page %d: next_cursor without truncated_reason limit (%v, %q)", query, page, res.Truncated, res.TruncatedReason)
			}
			if page > len(whole.Results) {
				t.Fatalf("Search(%q): more pages than results", query)
			}
			req.Cursor = res.NextCursor
		}
		t.Logf("%s: %d results in pages of 3", query, len(paged))
		if want := places(whole.Results); !slices.Equal(paged, want) {
			t.Errorf("Search(%q) in pages of 3 = %d results %v\nwant the %d of one search %v", query, len(paged), paged, len(want), want)
		}
	}

	// Pages cut by max_bytes: following next_cursor still gives every line once.
	whole, err := s.Search(ctx, SearchRequest{Query: "type:line return", Limit: intp(MaxLimit)})
	if err != nil {
		t.Fatal(err)
	}
	req := SearchRequest{Query: "type:line return", Limit: intp(10), MaxBytes: 1500}
	var paged []string
	cut := 0
	for page := 0; page <= len(whole.Results); page++ {
		res, err := s.Search(ctx, req)
		if err != nil {
			t.Fatalf("Search(%+v): %v", req, err)
		}
		if res.TruncatedReason == TruncatedMaxBytes {
			cut++
		}
		paged = append(paged, places(res.Results)...)
		if res.NextCursor == "" {
			break
		}
		req.Cursor = res.NextCursor
	}
	if cut == 0 {
		t.Fatalf("no page of type:line return was cut by max_bytes 1500: the check below cannot fail")
	}
	if want := places(whole.Results); !slices.Equal(paged, want) {
		t.Errorf("type:line return in pages of 10 cut to 1500 bytes (%d cut) = %d lines, want the %d of one search\n got  %v\n want %v", cut, len(paged), len(want), paged, want)
	}

	first, err := s.Search(ctx, SearchRequest{Query: "type:line return", Limit: intp(3)})
	if err != nil || first.NextCursor == "" {
		t.Fatalf("Search(type:line return, limit 3) = %v, %v; want a next_cursor", first, err)
	}
	for _, other := range []SearchRequest{
		{Query: "type:line err", Limit: intp(3), Cursor: first.NextCursor},
		{Query: "type:line return", Limit: intp(3), Language: "go", Cursor: first.NextCursor},
		{Query: "type:line case:yes return", Limit: intp(3), Cursor: first.NextCursor},
	} {
		_, err := s.Search(ctx, other)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeBadValue || e.Path != "cursor" {
			t.Errorf("Search(%+v) with the cursor of another request = %v, want BAD_VALUE at cursor", other, err)
		}
	}

	lines := func(query string) []Hit {
		hits, err := exprSearch(t, s, sq(query), MaxLimit)
		if err != nil {
			t.Fatalf("Search(%q): %v", query, err)
		}
		return hits
	}
	yes, no, lower, plain := lines("type:line case:yes Pool"), lines("type:line case:no Pool"), lines("type:line case:no pool"), lines("type:line Pool")
	for _, h := range yes {
		if !strings.Contains(h.Text, "Pool") {
			t.Errorf("case:yes Pool: %s %q lacks Pool", hitAt(h), h.Text)
		}
	}
	for _, h := range no {
		if !strings.Contains(strings.ToLower(h.Text), "pool") {
			t.Errorf("case:no Pool: %s %q lacks pool", hitAt(h), h.Text)
		}
	}
	set := func(hits []Hit) []string {
		out := places(hits)
		sort.Strings(out)
		return out
	}
	if !slices.Contains(set(yes), "go/pool/pool.go:36") || slices.Contains(set(yes), "go/pool/pool.go:2") {
		t.Errorf("case:yes Pool = %v; want go/pool/pool.go:36 (ConnectionPool) and not go/pool/pool.go:2 (package pool)", set(yes))
	}
	if !slices.Contains(set(no), "go/pool/pool.go:2") || !slices.Contains(set(no), "go/pool/pool.go:36") {
		t.Errorf("case:no Pool = %v; want go/pool/pool.go:2 and :36", set(no))
	}
	for _, p := range set(yes) {
		if !slices.Contains(set(no), p) {
			t.Errorf("case:yes Pool finds %s, which case:no Pool does not", p)
		}
	}
	if !slices.Equal(set(no), set(lower)) || !slices.Equal(set(no), set(plain)) {
		t.Errorf("case:no Pool (%d lines), case:no pool (%d) and Pool (%d, the default) differ", len(no), len(lower), len(plain))
	}
}

// TestContentWordMatchesEveryLine: a word or phrase of the content target matches the lines
// holding it as the matcher decides (as text, ignoring case unless case:yes: "return" holds
// in "returned"), and the content target returns every such line of every indexed file, not
// only those of files where the full-text index found the word as a whole token.
func TestContentWordMatchesEveryLine(t *testing.T) {
	s := exprRepo(t, nil)
	files := indexedFiles(t, s, nil)
	for _, tt := range []struct {
		query, text string
		fold        bool
	}{
		{"type:line return", "return", true},
		{"type:line conn", "conn", true},
		{"type:line user", "user", true},
		{`type:line "connection pool"`, "connection pool", true},
		{"type:line case:yes Conn", "Conn", false},
	} {
		want := map[string]int{}
		for p, content := range files {
			for i, l := range strings.Split(content, "\n") {
				hay, needle := l, tt.text
				if tt.fold {
					hay, needle = strings.ToLower(l), strings.ToLower(tt.text)
				}
				if j := strings.Index(hay, needle); j >= 0 {
					want[fmt.Sprintf("%s:%d", p, i+1)] = utf8.RuneCountInString(l[:j]) + 1
				}
			}
		}
		hits, err := exprSearch(t, s, sq(tt.query), MaxLimit)
		if err != nil {
			t.Errorf("Search(%q): %v", tt.query, err)
			continue
		}
		got := map[string]int{}
		for _, h := range hits {
			got[hitAt(h)] = h.Column
		}
		var missed, extra, cols []string
		for p, col := range want {
			if gcol, ok := got[p]; !ok {
				missed = append(missed, p)
			} else if gcol != col {
				cols = append(cols, fmt.Sprintf("%s column %d, want %d", p, gcol, col))
			}
		}
		for p := range got {
			if _, ok := want[p]; !ok {
				extra = append(extra, p)
			}
		}
		sort.Strings(missed)
		sort.Strings(extra)
		sort.Strings(cols)
		if len(missed) > 0 || len(extra) > 0 || len(cols) > 0 {
			t.Errorf("Search(%q): %d lines, %d hold %q\n missed: %v\n extra: %v\n columns: %v", tt.query, len(got), len(want), tt.text, missed, extra, cols)
		}
	}
}

// A server's first search of each kind ranks as its later ones do (issue 41 (h): a regex
// scored 1.0 on its first search and 0.932 after): with the index kept open, each query's
// hits and scores are the same when the content cache is cold, after other searches read
// and folded the files, and after the query itself ran.
func TestRepeatedSearchesRankAlike(t *testing.T) {
	s := exprRepo(t, nil)
	s.Keep = KeepOpen
	t.Cleanup(s.Close)
	queries := []string{`/func \w+\(/`, `type:line /class \w+(Exception|Error)\b/`, `/def \w+/`, "connection pool", "pool", `"raise"`}
	type ranked struct {
		at    string
		score float64
	}
	run := func(q string) []ranked {
		t.Helper()
		res, err := s.Search(context.Background(), SearchRequest{Query: q, Limit: intp(20)})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var out []ranked
		for _, h := range res.Results {
			out = append(out, ranked{hitAt(h), h.Score})
		}
		return out
	}
	first := map[string][]ranked{}
	for _, q := range queries {
		first[q] = run(q) // each the first of its kind, on a cache the ones before filled
		if len(first[q]) == 0 {
			t.Fatalf("%s finds nothing in the fixture: a test that cannot fail", q)
		}
	}
	for round := range 2 {
		for i := len(queries) - 1; i >= 0; i-- { // the other order: other files cached and folded
			q := queries[i]
			if got := run(q); !slices.Equal(got, first[q]) {
				t.Errorf("round %d, %s:\n got %v\nwant %v (its first search)", round, q, got, first[q])
			}
		}
	}
}
