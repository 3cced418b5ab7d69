package extract

import (
	"bytes"
	"regexp"
	"strings"
)

func init() {
	register("protobuf", extractProtobuf)
	parseSources["protobuf"] = protoParseSource
}

// proto2Syntax matches a proto2 syntax statement, and protoRequired proto2's required label.
var (
	proto2Syntax  = regexp.MustCompile(`(?m)^\s*syntax\s*=\s*["']proto2["']`)
	protoRequired = regexp.MustCompile(`(?m)^(\s*)required(\s)`)
)

// protoParseSource lets the grammar, which knows only proto3, parse a proto2 file (most of
// Kubernetes' and protobuf's own) or an editions file (edition = "2023"): the syntax statement says proto3 to the parser and the
// required label reads optional, each the same length, so every offset stays the file's.
// Groups and extend blocks, which proto3 dropped, still fail to parse.
func protoParseSource(src []byte) []byte {
	if loc := protoEdition.FindSubmatchIndex(src); loc != nil && loc[3]-loc[2] >= len(protoEditionAs) {
		// edition = "2023"; (Protobuf Editions) reads as proto3, padded to its length.
		out := bytes.Clone(src)
		copy(out[loc[2]:loc[3]], protoEditionAs+strings.Repeat(" ", loc[3]-loc[2]-len(protoEditionAs)))
		return out
	}
	loc := proto2Syntax.FindIndex(src)
	if loc == nil {
		return src
	}
	out := bytes.Clone(src)
	copy(out[loc[1]-2:], "3")
	return protoRequired.ReplaceAll(out, []byte("${1}optional$2"))
}

// protoEdition matches an editions file's edition statement, which the parser reads as
// protoEditionAs.
var protoEdition = regexp.MustCompile(`(?m)^[ \t]*(edition[ \t]*=[ \t]*"[0-9]+"[ \t]*;)`)

const protoEditionAs = `syntax="proto3";`

// extractProtobuf walks a .proto file (proto2 or proto3). The kinds follow what each
// construct generates in the languages protoc targets:
//
//   - package: module, named by the full package (acme.inventory.v1);
//   - import: import of the quoted path (import public and weak are recorded in metadata);
//   - message: struct, with its fields (field, signature "type name = N"), its nested
//     messages and enums, and its oneofs (union, a tagged union of the fields in it) as
//     children;
//   - enum: enum, with its values as enum_member children;
//   - service: interface, with its rpcs as method children (signature
//     "rpc Name(Req) returns (Resp)").
//
// Options, reserved ranges and extensions declare nothing a developer goes to and are
// skipped. Every definition in a .proto file is visible to the files that import it, so all
// are public. Message and enum types named by fields and rpcs are recorded as type usages,
// qualified by their package (acme.common.v1.Money gives Money with qualifier acme.common.v1).
func extractProtobuf(w *walker, root *Node) {
	w.walk(root, protoNode)
}

// protoNode extracts one top-level or message-level declaration.
func protoNode(w *walker, n *Node) {
	switch n.Type() {
	case "package":
		sym := w.addNamed(n, w.text(childOfType(n, "full_ident")), Module)
		protoFinish(w, sym, n, int(n.EndByte()))
	case "import":
		protoImport(w, n)
	case "message":
		protoMessage(w, n)
	case "enum":
		protoEnum(w, n)
	case "service":
		protoService(w, n)
	case "field", "map_field", "oneof_field":
		protoField(w, n)
	case "oneof":
		protoOneof(w, n)
	case "ERROR":
		w.walk(n, protoNode) // a half-written file: keep what parsed inside the error
	}
}

// protoFinish makes sym public and sets its signature to the source of n from its start to
// end, without the final ";".
func protoFinish(w *walker, sym *Symbol, n *Node, end int) {
	if sym == nil {
		return
	}
	sym.Visibility = Public
	sym.Signature = strings.TrimSpace(strings.TrimSuffix(w.signatureRange(int(n.StartByte()), end), ";"))
}

// protoImport records import "path"; (public and weak imports say so in metadata).
func protoImport(w *walker, n *Node) {
	path := field(n, "path")
	if path == nil {
		path = childOfType(n, "string")
	}
	if path == nil {
		return
	}
	sym := w.importName(n, path, w.text(path))
	for _, mod := range []string{"public", "weak"} {
		if w.hasChild(n, mod) {
			meta(sym, "modifier", mod)
		}
	}
	if sym != nil {
		sym.Signature = strings.TrimSuffix(sym.Signature, ";")
	}
}

// protoNamed adds a definition whose name is the identifier inside its child of type
// nameType (message_name, enum_name, service_name, rpc_name), with the signature up to
// that name ("message Item").
func protoNamed(w *walker, n *Node, nameType string, kind Kind) *Symbol {
	name := childOfType(n, nameType)
	if name == nil {
		return nil
	}
	sym := w.add(n, name, kind)
	protoFinish(w, sym, n, int(name.EndByte()))
	return sym
}

// protoMessage extracts a message and, as its children, its fields, oneofs and nested
// messages and enums.
func protoMessage(w *walker, n *Node) {
	sym := protoNamed(w, n, "message_name", Struct)
	if sym == nil {
		return
	}
	w.within(sym, func() { w.walk(childOfType(n, "message_body"), protoNode) })
}

// protoOneof extracts a oneof as a union of the fields in it.
func protoOneof(w *walker, n *Node) {
	sym := w.add(n, childOfType(n, "identifier"), Union)
	if sym == nil {
		return
	}
	end := int(n.EndByte())
	if open := protoToken(n, "{"); open != nil {
		end = int(open.StartByte())
	}
	protoFinish(w, sym, n, end)
	w.within(sym, func() { w.walk(n, protoNode) })
}

// protoField extracts a field of a message or oneof: its signature is the declaration
// without options ("repeated string tags = 3", "map<string, int64> counts = 7").
func protoField(w *walker, n *Node) {
	name := childOfType(n, "identifier")
	sym := w.add(n, name, Field)
	if sym == nil {
		return
	}
	end := int(n.EndByte())
	if num := childOfType(n, "field_number"); num != nil {
		end = int(num.EndByte())
	}
	protoFinish(w, sym, n, end)
	// The declared type is the source before the name, label included: "repeated string",
	// "map<string, int64>", "acme.common.v1.Money".
	if typ := w.signatureRange(int(n.StartByte()), int(name.StartByte())); typ != "" {
		w.f.Types = append(w.f.Types, TypeInfo{SymbolID: sym.ID, Role: "declared", Type: typ})
	}
	w.within(sym, func() {
		for _, t := range childrenOfType(n, "type") {
			protoTypeRef(w, childOfType(t, "message_or_enum_type"))
		}
	})
}

// protoTypeRef records a type usage of the message or enum type n names: the last name,
// qualified by the package before it.
func protoTypeRef(w *walker, n *Node) {
	ids := childrenOfType(n, "identifier")
	if len(ids) == 0 {
		return
	}
	w.member(ids[len(ids)-1], n, TypeUsage)
}

// protoEnum extracts an enum and its values.
func protoEnum(w *walker, n *Node) {
	sym := protoNamed(w, n, "enum_name", Enum)
	if sym == nil {
		return
	}
	w.within(sym, func() {
		for _, v := range childrenOfType(childOfType(n, "enum_body"), "enum_field") {
			val := w.add(v, childOfType(v, "identifier"), EnumMember)
			end := int(v.EndByte())
			if num := childOfType(v, "int_lit"); num != nil {
				end = int(num.EndByte())
			}
			protoFinish(w, val, v, end)
		}
	})
}

// protoService extracts a service as an interface of its rpcs.
func protoService(w *walker, n *Node) {
	sym := protoNamed(w, n, "service_name", Interface)
	if sym == nil {
		return
	}
	w.within(sym, func() {
		for _, r := range childrenOfType(n, "rpc") {
			protoRPC(w, r)
		}
	})
}

// protoRPC extracts an rpc as a method: its signature ends after the response type, before
// any options block.
func protoRPC(w *walker, n *Node) {
	name := childOfType(n, "rpc_name")
	if name == nil {
		return
	}
	sym := w.add(n, name, Method)
	if sym == nil {
		return
	}
	end := int(n.EndByte())
	if open := protoToken(n, "{"); open != nil {
		end = int(open.StartByte())
	}
	protoFinish(w, sym, n, end)
	types := childrenOfType(n, "message_or_enum_type")
	if len(types) == 2 {
		w.typeInfo(sym, "return", types[1])
	}
	w.within(sym, func() {
		for _, t := range types {
			protoTypeRef(w, t)
		}
	})
}

// protoToken returns the first anonymous child of n spelled tok, or nil.
func protoToken(n *Node, tok string) *Node {
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); !c.IsNamed() && c.Type() == tok {
			return c
		}
	}
	return nil
}
