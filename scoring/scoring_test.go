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

func TestPromotion(t *testing.T) {
	marshal := Definition{Name: "Marshal", Kind: "function", Path: "encoding/json/encode.go", Signature: "func Marshal(v any) ([]byte, error)"}
	newBytes := Definition{Name: "new", Kind: "function", Path: "src/lib.rs", Signature: "pub fn new() -> Bytes"}
	tests := []struct {
		name, qual, last string
		def              Definition
		weight           float64
		want             float64
	}{
		{"Marshal", "", "Marshal", marshal, 1, PromoteExact},
		{"marshal", "", "marshal", marshal, 1, PromoteExactFold},
		{"get user data", "", "get user data", Definition{Name: "getUserData", Kind: "method"}, 1, PromoteExactFold},
		{"Marshal", "", "Marshal", marshal, TestWeight, PromoteExact * PromoteOutOfSourceShare}, // a test, not asked for: below source, above partial names
		{"Marshal", "", "Marshal", marshal, DocsWeight, PromoteExact},                           // docs still count
		{"Marshal", "", "Marshal", Definition{Name: "Marshal", Kind: "import"}, 1, 0},           // an import only names it
		{"json.Marshal", "json", "Marshal", marshal, 1, PromoteQualifiedPath},
		{"Bytes::new", "Bytes", "new", newBytes, 1, PromoteQualifiedSignature},
		{"Vec::new", "Vec", "new", newBytes, 1, PromoteQualifiedName},
		{"Bytes::new", "Bytes", "new", Definition{Name: "new", Kind: "method", Parent: "Bytes"}, 1, PromoteExact},
		{"Bytes::old", "Bytes", "old", newBytes, 1, 0},
		{"Dagger.Client", "Dagger", "Client", Definition{Name: "Client", Kind: "module", Path: "lib/dagger/gen/client.ex", Signature: "defmodule Dagger.Client"}, 1, PromoteExact},
		{"Dagger.Client", "Dagger", "Client", Definition{Name: "Client", Kind: "module", Path: "lib/dagger/core/client.ex", Signature: "defmodule Dagger.Core.Client"}, 1, PromoteQualifiedPath},
		{"A::B", "A", "B", Definition{Name: "B", Kind: "class", Path: "lib/x.rb", Signature: "class A::B < Base"}, 1, PromoteExact},
		{"Unmarshal", "", "Unmarshal", marshal, 1, 0},
	}
	for _, tt := range tests {
		if got := Promotion(tt.name, tt.qual, tt.last, tt.def, tt.weight); got != tt.want {
			t.Errorf("Promotion(%q, %q, %q, %+v, %v) = %v, want %v", tt.name, tt.qual, tt.last, tt.def, tt.weight, got, tt.want)
		}
	}
}

func TestQualifiedBonus(t *testing.T) {
	tests := []struct {
		parent, path, signature, qual string
		want                          float64
	}{
		{"TokenStream", "src/lib.rs", "pub fn new() -> Self", "TokenStream", PromoteExact},
		{"", "encoding/json/encode.go", "func Marshal(v any)", "json", PromoteQualifiedPath},
		{"", "src/Json.java", "", "json", PromoteQualifiedPath}, // the file, without extension, any case
		{"", "src/bytes.rs", "pub fn new() -> Bytes", "Bytes", PromoteQualifiedPath},
		{"", "src/lib.rs", "pub fn new() -> Bytes", "Bytes", PromoteQualifiedSignature},
		{"", "src/lib.rs", "pub fn new() -> CowBytes", "Bytes", PromoteQualifiedName},
		{"", "src/lib.rs", "", "Vec", PromoteQualifiedName},
	}
	for _, tt := range tests {
		if got := QualifiedBonus(tt.parent, tt.path, tt.signature, tt.qual); got != tt.want {
			t.Errorf("QualifiedBonus(%q, %q, %q, %q) = %v, want %v", tt.parent, tt.path, tt.signature, tt.qual, got, tt.want)
		}
	}
}

func TestContainsWord(t *testing.T) {
	tests := map[string]bool{"-> Bytes": true, "CowBytes<'a>": false, "Bytes": true, "BytesMut": false, "(b *Bytes) x": true, "": false}
	for s, want := range tests {
		if got := containsWord(s, "Bytes"); got != want {
			t.Errorf("containsWord(%q, Bytes) = %v, want %v", s, got, want)
		}
	}
}

func TestFilePromotions(t *testing.T) {
	tests := []struct {
		needle, path string
		name, stem   float64
	}{
		{"index.ts", "src/index.ts", PromoteFileExact, 0},
		{"search/mod.rs", "src/search/mod.rs", PromoteFileExact, 0},
		{"src/search/mod.rs", "src/search/mod.rs", PromoteFileExact, 0},
		{"arch/mod.rs", "src/search/mod.rs", 0, 0},
		{"userservice", "src/UserService.java", 0, PromoteFileStem},
		{"user_service", "src/UserService.java", 0, PromoteFileStem},
		{"user", "src/UserService.java", 0, 0},
	}
	for _, tt := range tests {
		if got := FileNamePromotion(tt.needle, tt.path); got != tt.name {
			t.Errorf("FileNamePromotion(%q, %q) = %v, want %v", tt.needle, tt.path, got, tt.name)
		}
		if got := FileStemPromotion(tt.needle, tt.path); got != tt.stem {
			t.Errorf("FileStemPromotion(%q, %q) = %v, want %v", tt.needle, tt.path, got, tt.stem)
		}
	}
}

func TestLineScore(t *testing.T) {
	tests := []struct {
		file             float64
		covered, needles int
		together         bool
		want             float64
	}{
		{8, 1, 1, false, 8},
		{8, 2, 2, true, 8 * PhraseLineBoost},
		{8, 1, 2, false, 2},
		{8, 0, 2, false, 0},
	}
	for _, tt := range tests {
		if got := LineScore(tt.file, tt.covered, tt.needles, tt.together); got != tt.want {
			t.Errorf("LineScore(%v, %d, %d, %v) = %v, want %v", tt.file, tt.covered, tt.needles, tt.together, got, tt.want)
		}
	}
}

func TestPathScore(t *testing.T) {
	tests := []struct {
		match     float64
		path      string
		class     PathClass
		keepTests bool
		want      float64
	}{
		{PathExactName, "a.go", Source, false, PathExactName - 4*PathLengthCost},
		{PathExactName, "a_test.go", Test, false, (PathExactName - 9*PathLengthCost) * TestWeight},
		{PathExactName, "a_test.go", Test, true, PathExactName - 9*PathLengthCost},
	}
	for _, tt := range tests {
		if got := PathScore(tt.match, tt.path, tt.class, tt.keepTests); got != tt.want {
			t.Errorf("PathScore(%v, %q, %s, %v) = %v, want %v", tt.match, tt.path, tt.class, tt.keepTests, got, tt.want)
		}
	}
	if !(PathExactName > PathExactPath && PathExactPath > PathNamePrefix && PathNamePrefix > PathStemMatch &&
		PathStemMatch > PathNameContains && PathNameContains > PathContains && PathContains > PathFragments) {
		t.Errorf("path match scores out of order")
	}
}

func TestPrior(t *testing.T) {
	// Each pair: the first is the definition more likely meant among those named alike.
	tests := []struct {
		why          string
		better, than Definition
	}{
		{"a type over its constructor",
			Definition{Name: "Entry", Kind: "interface", Parent: "Map", Path: "java/util/Map.java", Visibility: "public"},
			Definition{Name: "Entry", Kind: "constructor", Parent: "Entry", Path: "java/util/WeakHashMap.java", Visibility: "public"}},
		{"a function's definition over its prototype",
			Definition{Name: "sqlite3_open", Kind: "function", Path: "sqlite3.c"},
			Definition{Name: "sqlite3_open", Kind: "function", Path: "sqlite3.c", Declaration: true}},
		{"public over private",
			Definition{Name: "Entry", Kind: "interface", Parent: "Map", Path: "java/util/Map.java", Visibility: "public"},
			Definition{Name: "Entry", Kind: "class", Parent: "Hashtable", Path: "java/util/Hashtable.java", Visibility: "private"}},
		{"top level over nested",
			Definition{Name: "ListenAndServe", Kind: "function", Path: "net/http/server.go"},
			Definition{Name: "ListenAndServe", Kind: "method", Parent: "Server", Path: "net/http/server.go"}},
		{"a member of a type over a helper local to a function",
			Definition{Name: "send", Kind: "method", Parent: "Reply", ParentKind: "function", Path: "lib/reply.js"},
			Definition{Name: "send", Kind: "function", Parent: "sendTrailer", ParentKind: "function", Path: "lib/reply.js"}},
		{"shallower path",
			Definition{Name: "NewRequest", Kind: "function", Path: "net/http/request.go"},
			Definition{Name: "NewRequest", Kind: "function", Path: "net/http/httptest/httptest.go"}},
		{"file named after it",
			Definition{Name: "ctrl_c", Kind: "function", Path: "src/signal/ctrl_c.rs"},
			Definition{Name: "ctrl_c", Kind: "function", Path: "src/signal/windows.rs"}},
	}
	for _, tt := range tests {
		b, w := Prior(tt.better), Prior(tt.than)
		if b <= w || b > 1 || w <= 0 {
			t.Errorf("%s: Prior %v (%+v) not above %v (%+v), or out of (0, 1]", tt.why, b, tt.better, w, tt.than)
		}
	}
	// The prior orders within a promotion, never across two.
	if PriorSpread >= PromoteQualifiedPath-PromoteQualifiedSignature || PriorSpread >= PromoteExact-PromoteQualifiedPath {
		t.Errorf("PriorSpread %v is as large as the gap between two promotions", PriorSpread)
	}
}
