package scoring

import (
	"math"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/quarrysearch/quarry/languages"
)

// Promotions: how far an exact name match of a definition kind lifts a result. In the
// definitions target they sort first; in auto they add to a score normalized to at most 1.
const (
	// PromoteExact promotes a definition named exactly as asked for, and one named like
	// the last part of a qualified name whose parent is named like the qualifier.
	PromoteExact = 2
	// PromoteExactFold promotes a definition named as asked for but for case and the
	// separators of names (get_user_data for getUserData).
	PromoteExactFold = 1.5
	// PromoteQualifiedPath, PromoteQualifiedSignature and PromoteQualifiedName are the
	// promotions of the last part of a qualified name (Marshal of json.Marshal) by where
	// the qualifier points (see QualifiedBonus): the path, the signature, nowhere.
	PromoteQualifiedPath      = 1.9
	PromoteQualifiedSignature = 1.6
	PromoteQualifiedName      = 1
)

// PromoteOutOfSourceShare is the share of its promotion an exact match keeps from a path
// weighed down below docs (tests, examples, vendored and generated code, unless asked
// for): below the same match in source, above every definition that only holds the
// query's words.
const PromoteOutOfSourceShare = 0.5

// PromoteOutOfCodeShare is the share of its promotion a match keeps in documentation or
// configuration (a Markdown heading, a TOML or YAML key): below every match promoted in
// code, tests included (the least: PromoteQualifiedName x PromoteOutOfSourceShare), even
// with the most a prior adds (PriorSpread); above every definition that only holds the
// query's words.
const PromoteOutOfCodeShare = 0.2

// Definition is what the promotion and the prior of a definition depend on.
type Definition struct {
	Name, Kind string
	Parent     string // the name of the enclosing symbol, if any
	ParentKind string // the kind of the enclosing symbol, if any
	Path       string // workspace-relative, POSIX
	Signature  string
	Visibility string // as extract records it ("" when the language has none)
	// Category is what its language's files hold: code, docs or config ("": code).
	Category languages.Category
	// Declaration says the definition is only declared here (a C prototype), its body
	// elsewhere.
	Declaration bool
}

// Promotion returns the promotion of the definition d for a query: name is the query's
// words (an identifier, or words naming one), qual and last its qualifier and last part
// when it is a qualified name (json and Marshal of json.Marshal; qual is empty
// otherwise), pathWeight the PathWeight of d's path. Only definition kinds are promoted,
// and only from paths not weighed down below docs (tests are, unless asked for) and from
// code (a heading or a config key keeps a share).
func Promotion(name, qual, last string, d Definition, pathWeight float64) float64 {
	if !IsDefinitionKind(d.Kind) {
		return 0
	}
	share := 1.0
	if pathWeight < DocsWeight {
		share = PromoteOutOfSourceShare
	}
	if d.Category == languages.Docs || d.Category == languages.Config {
		share = min(share, PromoteOutOfCodeShare)
	}
	switch MatchName(name, d.Name) {
	case NameExact:
		return PromoteExact * share
	case NameExactFold:
		return PromoteExactFold * share
	}
	// json.Marshal, Vec::new: the name is the last part, the qualifier a hint. A
	// definition that spells the whole qualified name (defmodule Dagger.Client,
	// class A::B) is the one asked for.
	if qual != "" && MatchName(last, d.Name) == NameExact {
		if containsWord(d.Signature, qual+"."+last) || containsWord(d.Signature, qual+"::"+last) {
			return PromoteExact * share
		}
		return QualifiedBonus(d.Parent, d.Path, d.Signature, qual) * share
	}
	return 0
}

// QualifiedBonus returns the promotion of a definition named like the last part of a
// qualified query, by how well the qualifier qual points at it: its parent is named so
// (TokenStream for TokenStream::new), a directory of its path or its file is (json for
// encoding/json/encode.go), its signature names it (a receiver or return type: Bytes for
// Bytes::new), or nothing does.
func QualifiedBonus(parent, p, signature, qual string) float64 {
	if parent == qual {
		return PromoteExact
	}
	lq := strings.ToLower(qual)
	for _, seg := range strings.Split(strings.ToLower(p), "/") {
		if seg == lq || strings.TrimSuffix(seg, path.Ext(seg)) == lq {
			return PromoteQualifiedPath
		}
	}
	if containsWord(signature, qual) {
		return PromoteQualifiedSignature
	}
	return PromoteQualifiedName
}

// containsWord reports whether w occurs in s as a whole word (Bytes in "-> Bytes", not in
// "CowBytes").
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (start == 0 || !languages.IsWordRune(before)) && (end == len(s) || !languages.IsWordRune(after)) {
			return true
		}
		i = start + 1
	}
}

// Priors: what makes one of several definitions the one meant, whatever the query. A
// prior is a product of these weights, at most 1.
const (
	// DeclarationWeight: a declaration whose body is elsewhere (a C prototype, a macro
	// alias is a constant and weighed by its kind) below the definition.
	DeclarationWeight = 0.5
	// NonPublicWeight: private, file-private, package-private and internal (Rust's
	// pub(crate), C# and Kotlin internal) definitions below public API (protected is API
	// to subclasses).
	NonPublicWeight = 0.85
	// NestedWeight: a member of another definition below a top-level one (ListenAndServe the
	// function over Server.ListenAndServe, EMPTY the constant over Ready::EMPTY).
	NestedWeight = 0.9
	// LocalWeight: a definition inside a function or method (a helper local to it, not a
	// member such as a constructor function's prototype method) below
	// a member of a type, object or module (the nested function send of reply.js's
	// sendTrailer below Reply.prototype.send).
	LocalWeight = 0.8
	// DepthWeight, per directory of the path: the shallower of two definitions is more
	// likely the main one (http/request.go over http/httptest/httptest.go).
	DepthWeight = 0.97
	// UnnamedFileWeight: a definition in a file not named after it below one in a file that
	// is (ctrl_c in signal/ctrl_c.rs).
	UnnamedFileWeight = 0.92
	// PriorSpread is how much of a promotion the prior may add: less than the gap between
	// two promotions, so it orders definitions within one.
	PriorSpread = 0.05
)

// Prior returns how likely d is the definition meant among those matching alike, in (0,
// 1]: its kind's weight (KindWeight) times its Placement.
func Prior(d Definition) float64 { return KindWeight(d.Kind) * Placement(d) }

// callableKinds are the kinds whose definitions' own definitions are local to a body.
var callableKinds = map[string]bool{"function": true, "method": true, "constructor": true, "destructor": true, "operator": true}

// memberKinds are the kinds of a member: under a function (a JavaScript constructor
// function's prototype methods) they are its members, not helpers local to its body.
var memberKinds = map[string]bool{"method": true, "property": true, "field": true, "constructor": true}

// Placement returns the part of d's prior that is not its kind, in (0, 1]: whether it is
// only a declaration, its visibility, whether it is nested, the depth of its path and
// whether its file is named after it.
func Placement(d Definition) float64 {
	w := 1.0
	if d.Declaration {
		w *= DeclarationWeight
	}
	switch d.Visibility {
	case "private", "fileprivate", "package", "internal":
		w *= NonPublicWeight
	}
	switch {
	case d.Parent != "" && callableKinds[d.ParentKind] && !memberKinds[d.Kind]:
		w *= LocalWeight
	case d.Parent != "":
		w *= NestedWeight
	}
	w *= math.Pow(DepthWeight, float64(strings.Count(d.Path, "/")))
	base := path.Base(d.Path)
	if stem := strings.TrimSuffix(base, path.Ext(base)); Fold(stem) != Fold(d.Name) {
		w *= UnnamedFileWeight
	}
	return w
}
