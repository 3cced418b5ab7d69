package extract

import (
	"bytes"
	"path"
	"strings"
	"unicode"
)

func init() {
	register("html", extractHTML)
	register("vue", extractVue)
	register("svelte", extractSvelte)
	parseSources["svelte"] = svelteParseSource
}

// svelteNewTags are the tags Svelte 4 and 5 added that the grammar predates, each with a
// tag of the same length it parses alike: a snippet is a block ({#snippet row(item)} …
// {/snippet}, read as an {#if}), and {@render x()} and {@const y = z} are tags holding an
// expression (read as {@html}).
var svelteNewTags = strings.NewReplacer(
	"{#snippet", "{#if     ", "{/snippet}", "{/if     }", "{@render", "{@html  ", "{@const", "{@html ",
)

// svelteParseSource lets the grammar parse a component using tags newer than it, keeping
// every offset.
func svelteParseSource(src []byte) []byte {
	if !bytes.Contains(src, []byte("{#snippet")) && !bytes.Contains(src, []byte("{@")) {
		return src
	}
	return []byte(svelteNewTags.Replace(string(src)))
}

// extractHTML walks an HTML page or fragment:
//
//   - an element with an id is a constant named by the id (what CSS rules, scripts and
//     #fragment links point at), with its start tag as signature and the elements with an
//     id inside it as children; its tag is in the metadata;
//   - a <script> is extracted as JavaScript (TypeScript for lang="ts" or a TypeScript
//     type), unless its type says it holds data or a template (application/json,
//     importmap, text/template); a <script src> is an import of its source;
//   - a <style> is extracted as CSS, and a <link rel="stylesheet" href> is an import;
//   - a custom element (<user-card>) is a type usage of its tag.
//
// The scripts and styles go through the shared mechanism of embed.go: their symbols are
// the guest language's, at their place in the page.
func extractHTML(w *walker, root *Node) {
	markupNodes(w, root, nil)
}

// extractVue walks a Vue single-file component: the component is a class named after the
// file (UserCard for UserCard.vue), spanning it, and the parent of everything else: the
// <script> and <script setup> blocks (JavaScript, or TypeScript with lang="ts"), the <style>
// blocks (CSS), and the template's elements with an id, as in HTML. A PascalCase tag in the
// template (<UserCard>) is a type usage of that component.
func extractVue(w *walker, root *Node) {
	markupNodes(w, root, markupComponent(w, root))
}

// extractSvelte walks a Svelte component as extractVue does a Vue one: the component is a
// class named after the file, the parent of its scripts' symbols (the instance script and
// the module script, <script context="module"> or <script module>), its styles' and its
// markup's elements with an id.
func extractSvelte(w *walker, root *Node) {
	markupNodes(w, root, markupComponent(w, root))
}

// markupComponent adds the component a Vue or Svelte file defines, named after the file:
// UserCard for UserCard.vue, page for SvelteKit's +page.svelte.
func markupComponent(w *walker, root *Node) *Symbol {
	base := path.Base(w.f.Path)
	name := strings.TrimPrefix(strings.TrimSuffix(base, path.Ext(base)), "+")
	sym := w.addNamed(root, name, Class)
	if sym == nil {
		return nil
	}
	sym.Visibility, sym.Signature, sym.DocComment = Public, "", ""
	if script := markupFirst(root, "script_element"); script != nil {
		sym.Signature = oneLine(w.text(markupStartTag(script)), maxSignatureRunes)
	}
	return sym
}

// markupNodes extracts the elements, scripts and styles under n; parent is the innermost
// enclosing symbol (an element with an id, or the component).
func markupNodes(w *walker, n *Node, parent *Symbol) {
	for _, c := range namedChildren(n) {
		switch c.Type() {
		case "element":
			markupElement(w, c, parent)
		case "script_element":
			markupScript(w, c, parent)
		case "style_element":
			markupStyle(w, c, parent)
		case "start_tag", "end_tag", "self_closing_tag", "text", "comment", "doctype", "raw_text",
			"expression", "raw_text_expr", "entity", "erroneous_end_tag":
		default:
			// ERROR nodes of a half-written page, and the blocks of Svelte's markup
			// ({#if}, {#each}, {#await}) hold elements too.
			markupNodes(w, c, parent)
		}
	}
}

// markupElement extracts an element: a constant when it has an id, the type usage of a
// component or custom element tag, a stylesheet link, then its children.
func markupElement(w *walker, n *Node, parent *Symbol) {
	tag := markupStartTag(n)
	tagName := childOfType(tag, "tag_name")
	name := w.text(tagName)
	if isComponentTag(name) {
		w.within(parent, func() { w.ident(tagName, TypeUsage) })
	}
	attrs := markupAttrs(w, tag)
	if strings.EqualFold(name, "link") && strings.EqualFold(attrs["rel"].value, "stylesheet") && attrs["href"].node != nil {
		w.within(parent, func() { w.importName(n, attrs["href"].node, attrs["href"].value) })
	}
	inner := parent
	if id := attrs["id"]; id.node != nil && markupName(id.value) {
		w.within(parent, func() { inner = w.addNamed(n, id.value, Constant) })
		if inner != nil {
			inner.Visibility = Public
			inner.Signature = oneLine(w.text(tag), maxSignatureRunes)
			meta(inner, "tag", strings.ToLower(name))
		} else {
			inner = parent
		}
	}
	markupNodes(w, n, inner)
}

// markupScript extracts a <script>: an import of its src, or its text as JavaScript or
// TypeScript.
func markupScript(w *walker, n *Node, parent *Symbol) {
	attrs := markupAttrs(w, markupStartTag(n))
	if src := attrs["src"]; src.node != nil {
		w.within(parent, func() { w.importName(n, src.node, src.value) })
		return
	}
	lang := scriptLanguage(attrs["lang"].value, attrs["type"].value)
	w.embed(lang, parent, false, childOfType(n, "raw_text"))
}

// scriptLanguage returns the language of a script with the lang and type attributes given,
// or "" for a script that holds no code (JSON data, an import map, a template).
func scriptLanguage(lang, typ string) string {
	switch strings.ToLower(strings.TrimSpace(lang)) {
	case "ts", "typescript":
		return "typescript"
	case "tsx":
		return "tsx"
	case "jsx":
		return "javascript"
	}
	switch t := strings.ToLower(strings.TrimSpace(typ)); t {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript", "text/babel", "text/jsx":
		return "javascript"
	case "text/typescript", "application/typescript":
		return "typescript"
	}
	return ""
}

// markupStyle extracts a <style> as CSS. SCSS and Less are parsed as CSS too: their rules
// and selectors are CSS's, and what CSS cannot parse (nesting, mixins) counts as a parse
// error.
func markupStyle(w *walker, n *Node, parent *Symbol) {
	attrs := markupAttrs(w, markupStartTag(n))
	switch strings.ToLower(attrs["lang"].value) {
	case "", "css", "postcss", "scss", "less":
		w.embed("css", parent, false, childOfType(n, "raw_text"))
	}
}

// markupAttr is an attribute's value and the node that holds it.
type markupAttr struct {
	value string
	node  *Node
}

// markupAttrs returns the attributes of a start tag by lower-case name. A value is unquoted;
// an attribute without a value has none.
func markupAttrs(w *walker, tag *Node) map[string]markupAttr {
	attrs := map[string]markupAttr{}
	for _, a := range childrenOfType(tag, "attribute") {
		name := strings.ToLower(w.text(childOfType(a, "attribute_name")))
		val := childOfType(a, "attribute_value", "quoted_attribute_value")
		if val != nil && val.Type() == "quoted_attribute_value" {
			if inner := childOfType(val, "attribute_value"); inner != nil {
				val = inner
			} else {
				val = nil // ""
			}
		}
		if _, seen := attrs[name]; !seen && name != "" {
			attrs[name] = markupAttr{strings.TrimSpace(w.text(val)), val}
		}
	}
	return attrs
}

// markupStartTag returns the start tag of an element (or its self-closing tag).
func markupStartTag(n *Node) *Node {
	return childOfType(n, "start_tag", "self_closing_tag")
}

// markupFirst returns the first child of n of type t, or nil.
func markupFirst(n *Node, t string) *Node {
	for _, c := range namedChildren(n) {
		if c.Type() == t {
			return c
		}
	}
	return nil
}

// isComponentTag reports whether a tag names a component or a custom element: PascalCase
// (UserCard, a Vue or Svelte component) or with a hyphen (user-card, a custom element).
func isComponentTag(tag string) bool {
	if tag == "" {
		return false
	}
	first := []rune(tag)[0]
	return unicode.IsUpper(first) || strings.Contains(tag, "-")
}

// markupName reports whether an id is a name one looks up: not empty, and no template
// expression ({{ id }}, {id}, ${id}) or white space in it.
func markupName(id string) bool {
	return id != "" && !strings.ContainsAny(id, "{}$ \t\n<>")
}
