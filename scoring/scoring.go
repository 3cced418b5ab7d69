// Package scoring holds the ranking rules search applies after the full-text index has
// scored its candidates: the important-pattern boost of each language, the weight of a
// symbol's kind (by the categories of extract.Kind), exact and qualified name promotion,
// file promotions, how lines and paths score, the weights of the targets auto ranks
// together, and the priors of a path (tests, fixtures, vendored and generated code rank
// below source). Everything here is a pure function of its arguments; the weights are
// named constants so a ranking change shows in one place.
package scoring

import (
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/languages"
)

// Weights. A score is multiplied by them.
const (
	// ImportantPatternBoost rewards a definition whose signature holds one of its
	// language's important patterns (pub fn, export, public class ...), once.
	ImportantPatternBoost = 1.5
	// TestWeight, VendorWeight and GeneratedWeight scale results from such paths, unless
	// the query asks for them.
	TestWeight      = 0.35
	VendorWeight    = 0.3
	GeneratedWeight = 0.4
	// DocsWeight scales results from documentation (Markdown, text) slightly: code first.
	DocsWeight = 0.9
	// ExampleWeight scales definitions in documentation's code examples (a Markdown code
	// block): below the same definition in source, whose promotion they get only a share
	// of (PromoteOutOfSourceShare).
	ExampleWeight = 0.35
)

// Important reports whether signature holds one of the important patterns of lang (nil:
// none do).
func Important(lang *languages.Language, signature string) bool {
	if lang == nil || signature == "" {
		return false
	}
	for _, p := range lang.Scoring.ImportantPatterns {
		if strings.Contains(signature, p) {
			return true
		}
	}
	return false
}

// ImportantBoost returns ImportantPatternBoost when Important(lang, signature), else 1.
func ImportantBoost(lang *languages.Language, signature string) float64 {
	if Important(lang, signature) {
		return ImportantPatternBoost
	}
	return 1
}

// PathClass is what a path holds, as far as ranking cares.
type PathClass int

// Path classes.
const (
	Source    PathClass = iota
	Test                // tests, specs, test fixtures and test data
	Vendor              // vendored or third-party code
	Generated           // generated code
	Docs                // documentation
)

var pathClassNames = [...]string{Source: "source", Test: "test", Vendor: "vendor", Generated: "generated", Docs: "docs"}

func (c PathClass) String() string {
	if int(c) < len(pathClassNames) {
		return pathClassNames[c]
	}
	return "unknown"
}

// Directory names that mark what is below them.
var (
	testDirs   = map[string]bool{"test": true, "tests": true, "__tests__": true, "spec": true, "specs": true, "testdata": true, "fixtures": true, "__fixtures__": true, "testing": true, "e2e": true, "__mocks__": true, "mocks": true}
	vendorDirs = map[string]bool{"vendor": true, "third_party": true, "third-party": true, "thirdparty": true, "node_modules": true, "external": true, "extern": true, "deps": true, "bower_components": true}
)

// Classify returns the class of the workspace-relative POSIX path p. Vendored code wins
// over tests (a vendored library's tests are vendored code).
func Classify(p string) PathClass {
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		if vendorDirs[strings.ToLower(d)] {
			return Vendor
		}
	}
	base := path.Base(p)
	if extract.IsGeneratedName(base) {
		return Generated
	}
	if isTestFile(base) {
		return Test
	}
	for _, d := range dirs {
		if testDirs[strings.ToLower(d)] {
			return Test
		}
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".md", ".markdown", ".rst", ".txt", ".adoc":
		return Docs
	}
	return Source
}

// isTestFile reports whether a file name follows a test naming convention: foo_test.go,
// test_foo.py, foo_test.py, conftest.py, foo.test.ts, foo.spec.js, FooTest.java,
// FooTests.cs, foo_spec.rb, FooSpec.scala.
func isTestFile(base string) bool {
	stem := strings.TrimSuffix(base, path.Ext(base))
	lower := strings.ToLower(stem)
	switch {
	case strings.HasSuffix(lower, "_test"), strings.HasPrefix(lower, "test_"), lower == "conftest",
		strings.HasSuffix(lower, ".test"), strings.HasSuffix(lower, ".spec"), strings.HasSuffix(lower, "_spec"),
		strings.HasSuffix(lower, "_tests"):
		return true
	}
	for _, suffix := range []string{"Test", "Tests", "Spec", "IT"} {
		if len(stem) > len(suffix) && strings.HasSuffix(stem, suffix) {
			return true
		}
	}
	return false
}

// AboutTests reports whether a query asks for tests: one of its words is test, tests,
// testing, spec or specs, or starts with Test or test_ (TestServeHTTP, test_users).
func AboutTests(query string) bool {
	for _, w := range strings.FieldsFunc(query, func(r rune) bool { return !languages.IsWordRune(r) }) {
		lw := strings.ToLower(w)
		switch {
		case lw == "test", lw == "tests", lw == "testing", lw == "spec", lw == "specs",
			strings.HasPrefix(w, "Test") && len(w) > 4, strings.HasPrefix(lw, "test_"), strings.HasSuffix(lw, "_test"):
			return true
		}
	}
	return false
}

// PathWeight returns the weight of results from a path of class c: below 1 for tests,
// vendored, generated code and docs, unless keepTests says tests were asked for (the query
// is about tests, or the caller included them).
func PathWeight(c PathClass, keepTests bool) float64 {
	switch c {
	case Test:
		if keepTests {
			return 1
		}
		return TestWeight
	case Vendor:
		return VendorWeight
	case Generated:
		return GeneratedWeight
	case Docs:
		return DocsWeight
	}
	return 1
}

// NameMatch is how a symbol's name matches a query.
type NameMatch int

// Name matches, better ones greater.
const (
	NameNone      NameMatch = iota
	NameExactFold           // the same name but for case, _, - and spaces (get_user_data, getUserData, get user data)
	NameExact               // exactly the name
)

// MatchName returns how name matches query (an identifier, or words naming one).
func MatchName(query, name string) NameMatch {
	q := strings.TrimSpace(query)
	switch {
	case q == "" || name == "":
		return NameNone
	case q == name:
		return NameExact
	case Fold(q) == Fold(name):
		return NameExactFold
	}
	return NameNone
}

// Fold lower-cases s and drops the separators of naming conventions and words, so that
// getUserData, get_user_data, GET-USER-DATA and "get user data" are one name.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if r != '_' && r != '-' && r != ' ' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Kind weights: how well a definition of a kind answers "where is X defined".
const (
	// PrimaryKindWeight is the weight of types, containers, functions and methods.
	PrimaryKindWeight = 1
	// MemberKindWeight is the weight of the other definitions but values: constructors,
	// destructors, operators, delegates, constants, properties and events (a constructor
	// below the type it builds: ArrayList).
	MemberKindWeight = 0.9
	// ValueKindWeight is the weight of what merely holds a value: fields, enum members and
	// variables.
	ValueKindWeight = 0.75
	// OtherKindWeight is the weight of imports, exports and unknown kinds.
	OtherKindWeight = 0.5
)

// IsDefinitionKind reports whether the kind named kind is a kind of definition (not an
// import or export): exact name matches of these are promoted first.
func IsDefinitionKind(kind string) bool {
	k, _ := extract.KindNamed(kind)
	return k.IsDefinition()
}

// KindWeight ranks kinds that usually answer "where is X defined" above those that merely
// hold a value: a type or a function over a field or a local variable of the same name.
func KindWeight(kind string) float64 {
	k, _ := extract.KindNamed(kind)
	switch {
	case !k.IsDefinition():
		return OtherKindWeight
	case k.IsType() || k.IsContainer() || k == extract.Function || k == extract.Method:
		return PrimaryKindWeight
	case isValueKind(k):
		return ValueKindWeight
	}
	return MemberKindWeight
}

// isValueKind reports whether k merely holds a value: a field, an enum member or a
// variable (a constant or a property ranks above them).
func isValueKind(k extract.Kind) bool {
	return k == extract.Field || k == extract.EnumMember || k == extract.Variable
}
