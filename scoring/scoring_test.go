package scoring

import (
	"testing"

	"github.com/quarrysearch/quarry/languages"
)

func TestClassify(t *testing.T) {
	tests := map[string]PathClass{
		"server/server.go":                 Source,
		"server/server_test.go":            Test,
		"tests/test_users.py":              Test,
		"pkg/test_users.py":                Test,
		"src/__tests__/user.test.ts":       Test,
		"src/user.spec.js":                 Test,
		"src/test/java/FooTest.java":       Test,
		"Contest.java":                     Source,
		"testdata/fixture.go":              Test,
		"vendor/github.com/x/pool/pool.go": Vendor,
		"node_modules/react/index.js":      Vendor,
		"third_party/zlib/tests/t.c":       Vendor,
		"api/v1/api.pb.go":                 Generated,
		"dist/app.min.js":                  Generated,
		"docs/architecture.md":             Docs,
		"README.md":                        Docs,
		"attest/attest.go":                 Source,
	}
	for p, want := range tests {
		if got := Classify(p); got != want {
			t.Errorf("Classify(%q) = %s, want %s", p, got, want)
		}
	}
}

func TestAboutTests(t *testing.T) {
	tests := map[string]bool{
		"test users": true, "TestServeHTTP": true, "test_parse": true, "parse_test": true, "spec": true,
		"ServeHTTP": false, "latest": false, "Testing": true, "contest": false, "Test": true,
	}
	for q, want := range tests {
		if got := AboutTests(q); got != want {
			t.Errorf("AboutTests(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestMatchName(t *testing.T) {
	tests := []struct {
		query, name string
		want        NameMatch
	}{
		{"ServeHTTP", "ServeHTTP", NameExact},
		{"servehttp", "ServeHTTP", NameExactFold},
		{"get_user_data", "getUserData", NameExactFold},
		{"get user data", "GetUserData", NameExactFold},
		{"Serve", "ServeHTTP", NameNone},
		{"", "x", NameNone},
	}
	for _, tt := range tests {
		if got := MatchName(tt.query, tt.name); got != tt.want {
			t.Errorf("MatchName(%q, %q) = %d, want %d", tt.query, tt.name, got, tt.want)
		}
	}
}

func TestImportantBoostAndWeights(t *testing.T) {
	reg, err := languages.Default()
	if err != nil {
		t.Fatal(err)
	}
	rust, _ := reg.Lookup("rust")
	if got := ImportantBoost(rust, "pub fn process(x: u8)"); got != ImportantPatternBoost {
		t.Errorf("ImportantBoost(rust, pub fn) = %v, want %v", got, ImportantPatternBoost)
	}
	if got := ImportantBoost(rust, "fn helper()"); got != 1 {
		t.Errorf("ImportantBoost(rust, fn) = %v, want 1", got)
	}
	if got := ImportantBoost(nil, "pub fn x()"); got != 1 {
		t.Errorf("ImportantBoost(nil) = %v, want 1", got)
	}
	if PathWeight(Test, false) >= PathWeight(Source, false) || PathWeight(Test, true) != 1 || PathWeight(Vendor, true) >= 1 {
		t.Errorf("path weights: test %v (kept %v), vendor %v", PathWeight(Test, false), PathWeight(Test, true), PathWeight(Vendor, true))
	}
	if KindWeight("class") <= KindWeight("variable") || KindWeight("import") >= KindWeight("field") {
		t.Errorf("kind weights out of order")
	}
	if IsDefinitionKind("import") || !IsDefinitionKind("method") {
		t.Errorf("IsDefinitionKind wrong for import or method")
	}
}
