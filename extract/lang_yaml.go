package extract

import (
	"bytes"
	"strings"
)

func init() { register("yaml", extractYAML) }

// YAML has no definitions of its own: its symbols are the keys of mappings, which is what
// people look up in configuration ("where is runs-on set", "the web service"). Each
// document of a stream (documents separated by ---) is extracted alike:
//
//   - A Kubernetes object (a document with kind and metadata.name) is one class named by
//     metadata.name, with the signature "Kind name": the object is what a manifest defines,
//     and its keys (spec, template, containers) repeat in every manifest.
//   - Otherwise the keys form a tree down to yamlMaxDepth: every key is a property, a child
//     of the key whose mapping holds it. Mappings inside sequences have no key of their own
//     and are skipped, but for the well-known shapes below.
//   - A GitHub Actions workflow (top-level on and jobs): each job of jobs is a function (a
//     unit of work run by name, needs: refers to it), and each step of its steps that has a
//     name (or else an id) is a method of the job.
//   - A Docker Compose file (top-level services): each service is a class (a container
//     definition that replicas are instances of).
//
// Merge keys (<<) and anchors are not symbols.

// yamlMaxDepth is how deep the key tree goes: top-level keys are at depth 1.
const yamlMaxDepth = 3

// yamlMaxValueLen is the longest scalar value kept in a key's signature.
const yamlMaxValueLen = 60

// yamlMergeKey is the key that merges an aliased mapping (<<: *defaults).
const yamlMergeKey = "<<"

// yamlRole is what the keys of a mapping are in a well-known file shape.
type yamlRole int

const (
	yamlPlain    yamlRole = iota // keys are properties
	yamlJobs                     // the jobs of a workflow: functions
	yamlJob                      // the keys of one job: steps holds methods
	yamlServices                 // the services of a Compose file: classes
)

// extractYAML walks every document of a YAML stream.
func extractYAML(w *walker, root *Node) {
	for _, doc := range childrenOfType(root, "document") {
		var m *Node
		for _, c := range namedChildren(doc) {
			if m = yamlMapping(c); m != nil {
				break
			}
		}
		if m == nil || yamlKubernetes(w, m) {
			continue
		}
		workflow := yamlLookup(w, m, "on") != nil && yamlLookup(w, m, "jobs") != nil
		yamlKeys(w, m, 1, yamlPlain, workflow)
	}
}

// yamlKeys adds the keys of the mapping m at depth (1 for the top level) and, down to
// yamlMaxDepth, the keys of the mappings they hold.
func yamlKeys(w *walker, m *Node, depth int, role yamlRole, workflow bool) {
	for _, pair := range yamlPairs(m) {
		name := yamlKeyName(w, pair)
		if name == "" || name == yamlMergeKey {
			continue
		}
		kind := Property
		switch role {
		case yamlJobs:
			kind = Function
		case yamlServices:
			kind = Class
		}
		sym := yamlAdd(w, pair, name, kind)
		value := field(pair, "value")
		if kind == Function {
			meta(sym, "name", yamlScalar(w, yamlLookup(w, yamlMapping(value), "name")))
		}
		if role == yamlJob && name == "steps" {
			yamlSteps(w, value) // children of the job, the container here
		}
		child := yamlPlain
		switch {
		case depth == 1 && name == "jobs" && workflow:
			child = yamlJobs
		case depth == 1 && name == "services":
			child = yamlServices
		case role == yamlJobs:
			child = yamlJob
		}
		if cm := yamlMapping(value); cm != nil && depth < yamlMaxDepth && sym != nil {
			w.within(sym, func() { yamlKeys(w, cm, depth+1, child, workflow) })
		}
	}
}

// yamlSteps adds a method for each step of a job's steps sequence named by name or id.
func yamlSteps(w *walker, value *Node) {
	for _, item := range yamlItems(value) {
		m := yamlMapping(item)
		id := yamlScalar(w, yamlLookup(w, m, "id"))
		pair := yamlPair(w, m, "name")
		if yamlScalar(w, field(pair, "value")) == "" {
			pair = yamlPair(w, m, "id")
		}
		sym := w.addNamed(item, yamlScalar(w, field(pair, "value")), Method)
		if sym == nil {
			continue
		}
		sym.Signature = "- " + yamlSignature(w, pair)
		sym.DocComment = yamlDoc(w, item)
		meta(sym, "id", id)
		meta(sym, "uses", yamlScalar(w, yamlLookup(w, m, "uses")))
	}
}

// yamlKubernetes adds the object a Kubernetes document m defines and reports whether m is
// one.
func yamlKubernetes(w *walker, m *Node) bool {
	kind := yamlScalar(w, yamlLookup(w, m, "kind"))
	metadata := yamlMapping(yamlLookup(w, m, "metadata"))
	name := yamlScalar(w, yamlLookup(w, metadata, "name"))
	if kind == "" || name == "" {
		return false
	}
	sym := w.addNamed(m, name, Class)
	if sym == nil {
		return false
	}
	sym.Signature = oneLine(kind+" "+name, maxSignatureRunes)
	sym.DocComment = yamlDoc(w, m)
	meta(sym, "kind", kind)
	meta(sym, "apiVersion", yamlScalar(w, yamlLookup(w, m, "apiVersion")))
	meta(sym, "namespace", yamlScalar(w, yamlLookup(w, metadata, "namespace")))
	return true
}

// yamlAdd adds the symbol of the key name of pair.
func yamlAdd(w *walker, pair *Node, name string, kind Kind) *Symbol {
	sym := w.addNamed(pair, name, kind)
	if sym != nil {
		sym.Signature = yamlSignature(w, pair)
		sym.DocComment = yamlDoc(w, pair)
	}
	return sym
}

// yamlSignature returns "key: value" for a short scalar value, and the key (with its
// anchor, if any) for a collection, a block scalar or a long value.
func yamlSignature(w *walker, pair *Node) string {
	key, value := field(pair, "key"), field(pair, "value")
	if key == nil || value == nil {
		return w.signatureRange(int(pair.StartByte()), int(pair.EndByte()))
	}
	text := w.text(value)
	if value.Type() == "flow_node" && !strings.Contains(text, "\n") && len(text) <= yamlMaxValueLen {
		return w.signatureRange(int(pair.StartByte()), int(value.EndByte()))
	}
	if anchor := childOfType(value, "anchor"); anchor != nil {
		return w.signatureRange(int(key.StartByte()), int(key.EndByte())) + ": " + w.text(anchor)
	}
	return w.signatureRange(int(key.StartByte()), int(key.EndByte()))
}

// yamlDoc returns the comment lines right above the line n starts on, cleaned. The grammar
// puts a comment above a key inside the pair of the enclosing key, so comments are found by
// line, not among siblings.
func yamlDoc(w *walker, n *Node) string {
	end := int(n.StartByte()) - int(n.StartPoint().Column) // start of n's line
	var lines []string
	for end > 0 {
		start := bytes.LastIndexByte(w.src[:end-1], '\n') + 1
		line := strings.TrimSpace(string(w.src[start : end-1]))
		if !strings.HasPrefix(line, "#") {
			break
		}
		lines = append([]string{line}, lines...)
		end = start
	}
	return cleanComment(strings.Join(lines, "\n"))
}

// yamlMapping returns the mapping n (a block or flow node) holds, or nil.
func yamlMapping(n *Node) *Node {
	if n == nil {
		return nil
	}
	if n.Type() == "block_mapping" || n.Type() == "flow_mapping" {
		return n
	}
	return childOfType(n, "block_mapping", "flow_mapping")
}

// yamlItems returns the nodes of the items of the sequence n (a block or flow node) holds.
func yamlItems(n *Node) []*Node {
	seq := childOfType(n, "block_sequence", "flow_sequence")
	if seq == nil {
		return nil
	}
	if seq.Type() == "flow_sequence" {
		return childrenOfType(seq, "flow_node")
	}
	var out []*Node
	for _, item := range childrenOfType(seq, "block_sequence_item") {
		if c := childOfType(item, "block_node", "flow_node"); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// yamlPairs returns the key-value pairs of the mapping m.
func yamlPairs(m *Node) []*Node {
	return childrenOfType(m, "block_mapping_pair", "flow_pair")
}

// yamlKeyName returns the key of pair as a string, without quotes.
func yamlKeyName(w *walker, pair *Node) string {
	key := field(pair, "key")
	if s := yamlScalar(w, key); s != "" {
		return s
	}
	return strings.TrimSpace(w.text(key))
}

// yamlPair returns the pair of key in the mapping m, or nil.
func yamlPair(w *walker, m *Node, key string) *Node {
	for _, pair := range yamlPairs(m) {
		if yamlKeyName(w, pair) == key {
			return pair
		}
	}
	return nil
}

// yamlLookup returns the value of key in the mapping m, or nil.
func yamlLookup(w *walker, m *Node, key string) *Node {
	return field(yamlPair(w, m, key), "value")
}

// yamlScalarNode returns the plain or quoted scalar the flow node n holds, or nil.
func yamlScalarNode(n *Node) *Node {
	return childOfType(n, "plain_scalar", "double_quote_scalar", "single_quote_scalar")
}

// yamlScalar returns the value of the scalar n holds without quotes, or "".
func yamlScalar(w *walker, n *Node) string {
	s := yamlScalarNode(n)
	if s == nil {
		return ""
	}
	text := strings.TrimSpace(w.text(s))
	switch s.Type() {
	case "double_quote_scalar":
		text = strings.TrimSuffix(strings.TrimPrefix(text, `"`), `"`)
	case "single_quote_scalar":
		text = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(text, "'"), "'"), "''", "'")
	}
	return text
}
