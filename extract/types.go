package extract

import (
	"fmt"
)

// Kind is the kind of a symbol, from one closed vocabulary shared by every language.
type Kind uint8

// Symbol kinds.
const (
	KindUnknown Kind = iota
	Class
	Interface
	Function
	Method
	Variable
	Constant
	Property
	Enum
	EnumMember
	Module
	Namespace
	Type
	Trait
	Struct
	Union
	Field
	Constructor
	Destructor
	Operator
	Import
	Export
	Event
	Delegate
)

var kindNames = [...]string{
	KindUnknown: "unknown", Class: "class", Interface: "interface", Function: "function",
	Method: "method", Variable: "variable", Constant: "constant", Property: "property",
	Enum: "enum", EnumMember: "enum_member", Module: "module", Namespace: "namespace",
	Type: "type", Trait: "trait", Struct: "struct", Union: "union", Field: "field",
	Constructor: "constructor", Destructor: "destructor", Operator: "operator",
	Import: "import", Export: "export", Event: "event", Delegate: "delegate",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Kinds returns the names of every symbol kind, in vocabulary order.
func Kinds() []string { return append([]string(nil), kindNames[1:]...) }

// ParseKind returns the kind named s.
func ParseKind(s string) (Kind, error) {
	if k, ok := KindNamed(s); ok {
		return k, nil
	}
	return KindUnknown, fmt.Errorf("unknown symbol kind %q", s)
}

// MarshalText encodes k as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a kind name.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	*k = v
	return err
}

// Visibility is who may use a symbol, by the rules of its language.
type Visibility string

// Visibilities. An empty Visibility means the language says nothing (a local).
const (
	Public      Visibility = "public"
	Protected   Visibility = "protected"
	Internal    Visibility = "internal"    // C# internal, Kotlin internal, Swift internal, Rust pub(crate)
	Package     Visibility = "package"     // Java package-private
	FilePrivate Visibility = "fileprivate" // Swift fileprivate, C static
	Private     Visibility = "private"
)

// IdentKind is the kind of a use of a name.
type IdentKind uint8

// Identifier kinds.
const (
	Call IdentKind = iota + 1
	VariableRef
	TypeUsage
	MemberAccess
	ImportRef
)

var identKindNames = [...]string{Call: "call", VariableRef: "variable_ref", TypeUsage: "type_usage", MemberAccess: "member_access", ImportRef: "import"}

func (k IdentKind) String() string {
	if k > 0 && int(k) < len(identKindNames) {
		return identKindNames[k]
	}
	return fmt.Sprintf("ident_kind(%d)", k)
}

// MarshalText encodes k as its name.
func (k IdentKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes an identifier kind name.
func (k *IdentKind) UnmarshalText(b []byte) error {
	for i, name := range identKindNames {
		if i > 0 && name == string(b) {
			*k = IdentKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown identifier kind %q", b)
}

// RelKind is the kind of a relationship between two symbols.
type RelKind uint8

// Relationship kinds.
const (
	Extends RelKind = iota + 1
	Implements
	Calls
	Imports
	Overrides
	Contains
	Uses
)

var relKindNames = [...]string{Extends: "extends", Implements: "implements", Calls: "calls", Imports: "imports", Overrides: "overrides", Contains: "contains", Uses: "uses"}

func (k RelKind) String() string {
	if k > 0 && int(k) < len(relKindNames) {
		return relKindNames[k]
	}
	return fmt.Sprintf("rel_kind(%d)", k)
}

// MarshalText encodes k as its name.
func (k RelKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a relationship kind name.
func (k *RelKind) UnmarshalText(b []byte) error {
	for i, name := range relKindNames {
		if i > 0 && name == string(b) {
			*k = RelKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown relationship kind %q", b)
}

// Span is where a piece of source sits: 1-based lines and columns (columns count characters,
// not bytes), and the byte range. The end column and end byte are just past the last
// character.
type Span struct {
	StartLine   int `json:"start_line"`
	StartColumn int `json:"start_column"`
	EndLine     int `json:"end_line"`
	EndColumn   int `json:"end_column"`
	StartByte   int `json:"start_byte"`
	EndByte     int `json:"end_byte"`
}

// Symbol is one definition.
type Symbol struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Kind     Kind   `json:"kind"`
	Language string `json:"language"`
	Path     string `json:"path"`
	Span
	Signature  string            `json:"signature,omitempty"`
	DocComment string            `json:"doc_comment,omitempty"`
	Visibility Visibility        `json:"visibility,omitempty"`
	ParentID   string            `json:"parent_id,omitempty"`
	Metadata   map[string]string `json:"metadata,omitempty"`
}

// Identifier is one use of a name inside a file.
type Identifier struct {
	Name string    `json:"name"`
	Kind IdentKind `json:"kind"`
	Span
	ContainingSymbolID string `json:"containing_symbol_id,omitempty"`
	// Qualifier is what the name is looked up in, as written before it: the package of
	// pkg.F, the receiver of s.Close(), self of self.save(), the path a::b:: of a::b::c()
	// (a path keeps its :: apart from a value's field). "" for a bare name.
	Qualifier string `json:"qualifier,omitempty"`
}

// Relationship links a symbol to a name: the target is resolved to a symbol later, across
// files.
type Relationship struct {
	FromID   string  `json:"from_id"`
	FromName string  `json:"from_name"`
	To       string  `json:"to"`
	Kind     RelKind `json:"kind"`
	Line     int     `json:"line"`
}

// TypeInfo is a type the source states for a symbol.
type TypeInfo struct {
	SymbolID string `json:"symbol_id"`
	Role     string `json:"role"` // "declared" (variable, field, property), "return", "alias"
	Type     string `json:"type"`
}

// File is everything extracted from one source file.
type File struct {
	Path          string         `json:"path"`
	Language      string         `json:"language,omitempty"`
	Symbols       []Symbol       `json:"symbols"`
	Identifiers   []Identifier   `json:"identifiers"`
	Relationships []Relationship `json:"relationships"`
	Types         []TypeInfo     `json:"types"`
	// ParseErrors counts the regions tree-sitter could not parse; the symbols outside them
	// are still extracted.
	ParseErrors int `json:"parse_errors,omitempty"`
	// Skipped says why no extraction was done (too large, unknown language, binary).
	Skipped SkipReason `json:"skipped,omitempty"`
}
