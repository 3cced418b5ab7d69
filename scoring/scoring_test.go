package scoring

import (
	"testing"

	"github.com/quarrysearch/quarry/extract"
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
}

func TestKindWeight(t *testing.T) {
	tests := map[string]float64{
		"class": 1, "interface": 1, "struct": 1, "trait": 1, "enum": 1, "type": 1, "union": 1,
		"function": 1, "method": 1, "module": 1, "namespace": 1,
		"constant": 0.9, "property": 0.9, "delegate": 0.9, "event": 0.9, "operator": 0.9,
		"destructor": 0.9, "constructor": 0.9,
		"field": 0.75, "enum_member": 0.75, "variable": 0.75,
		"import": 0.5, "export": 0.5, "unknown": 0.5, "": 0.5, "no such kind": 0.5,
	}
	if len(tests) != len(extract.Kinds())+3 {
		t.Errorf("%d kinds tested, want every kind (%d) and 3 others", len(tests), len(extract.Kinds()))
	}
	for kind, want := range tests {
		if got := KindWeight(kind); got != want {
			t.Errorf("KindWeight(%q) = %v, want %v", kind, got, want)
		}
	}
}

func TestIsDefinitionKind(t *testing.T) {
	for _, kind := range extract.Kinds() {
		want := kind != "import" && kind != "export"
		if got := IsDefinitionKind(kind); got != want {
			t.Errorf("IsDefinitionKind(%q) = %v, want %v", kind, got, want)
		}
	}
	for _, kind := range []string{"", "unknown", "Function"} {
		if IsDefinitionKind(kind) {
			t.Errorf("IsDefinitionKind(%q) = true, want false", kind)
		}
	}
}
