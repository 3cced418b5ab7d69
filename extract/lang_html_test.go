package extract

import (
	"testing"
)

func TestHTMLSymbols(t *testing.T) {
	f := extractString(t, "page.html", `<html><body>
<div id="app">
  <form id="login"><input id="user"></form>
  <div id="{{ dynamic }}"></div>
  <todo-list></todo-list>
</div>
<script type="application/json" id="data">{"function": "f() {}"}</script>
<script type="text/template"><div id="tpl">function notCode() {}</div></script>
<script lang="ts">
function start(el: HTMLElement): void { el.focus() }
</script>
</body></html>
`)
	checkSymbols(t, f, []symWant{
		{"app", Constant, Public, "", ""},
		{"login", Constant, Public, "", "app"},
		{"user", Constant, Public, "", "login"},
		{"start", Function, "", "", ""},
	})
	syms := symbolsByName(f)
	if len(f.Symbols) != 4 {
		t.Errorf("%d symbols, want 4 (no dynamic id, nothing from data or template scripts): %+v", len(f.Symbols), f.Symbols)
	}
	if s := syms["start"]; s.Language != "typescript" || s.StartLine != 10 || s.StartColumn != 1 {
		t.Errorf("start: %s at %d:%d, want typescript at 10:1", s.Language, s.StartLine, s.StartColumn)
	}
	if syms["login"].Metadata["tag"] != "form" {
		t.Errorf("login's tag = %q, want form", syms["login"].Metadata["tag"])
	}
	if !hasIdent(f, "todo-list", TypeUsage) || !hasIdent(f, "focus", Call) {
		t.Errorf("missing the custom element's type usage or the script's call: %+v", f.Identifiers)
	}
}

func TestVueComponent(t *testing.T) {
	f := extractString(t, "src/components/TodoItem.vue", "<template>\n  <li id=\"item\">{{ text }}</li>\n</template>\n\n<script setup>\nconst props = defineProps(['text'])\nfunction remove() { emit('remove') }\n</script>\n")
	checkSymbols(t, f, []symWant{
		{"TodoItem", Class, Public, "", ""},
		{"item", Constant, Public, "", "TodoItem"},
		{"props", Constant, "", "", "TodoItem"},
		{"remove", Function, "", "", "TodoItem"},
	})
	syms := symbolsByName(f)
	if s := syms["remove"]; s.Language != "javascript" || s.StartLine != 7 || s.Signature != "function remove()" {
		t.Errorf("remove: %s at line %d, signature %q; want javascript at line 7, function remove()", s.Language, s.StartLine, s.Signature)
	}
	if s := syms["TodoItem"]; s.StartLine != 1 || s.EndLine != 9 || s.Signature != "<script setup>" {
		t.Errorf("TodoItem spans %d-%d with signature %q, want the whole file and its script's tag", s.StartLine, s.EndLine, s.Signature)
	}
}

func TestMarkdownExamples(t *testing.T) {
	f := extractString(t, "README.md", "# Use\n\n```ts\nexport function connect(url: string) {}\n```\n\n```html\n<div id=\"inner\"><script>function nested() {}</script></div>\n```\n\n```unknown-lang\nfunction nope() {}\n```\n\n    function indented() {}\n")
	checkSymbols(t, f, []symWant{
		{"Use", Namespace, "", "", ""},
		{"connect", Function, Public, "", "Use"},
		{"inner", Constant, Public, "", "Use"},
	})
	if len(f.Symbols) != 3 {
		t.Errorf("%d symbols, want 3 (embedding is one level deep; unknown and indented blocks are left alone): %+v", len(f.Symbols), f.Symbols)
	}
	for _, s := range f.Symbols[1:] {
		if s.Metadata["example"] != "true" {
			t.Errorf("%s is not marked as an example: %v", s.Name, s.Metadata)
		}
	}
	if s := symbolsByName(f)["connect"]; s.Language != "typescript" || s.StartLine != 4 {
		t.Errorf("connect: %s at line %d, want typescript at line 4", s.Language, s.StartLine)
	}
}

// TestEmbeddedParsersKeepWholeFiles: a parser that extracted an embedded region is not
// handed to a whole file (its included ranges would hide the rest of the file).
func TestEmbeddedParsersKeepWholeFiles(t *testing.T) {
	page := "<p>x</p>\n<script>function inPage() {}</script>\n"
	script := "function a() {}\n\n\n\n\n\n\n\n\n\nfunction b() {}\n"
	for range 3 {
		extractString(t, "p.html", page)
		f := extractString(t, "s.js", script)
		if syms := symbolsByName(f); syms["a"].Name == "" || syms["b"].Name == "" {
			t.Fatalf("a whole file after an embedded region lost symbols: %+v", f.Symbols)
		}
	}
}

// TestVueOptionsAPI: a component defined by options (export default {...}, defineComponent)
// gives its methods, watchers, computed properties and props as members of the component,
// and the locals of its methods stay locals.
func TestVueOptionsAPI(t *testing.T) {
	f := extractString(t, "Chips.vue", `<template><div/></template>
<script>
import { defineComponent } from 'vue'
export default defineComponent({
  props: ['modelValue', 'max'],
  data() { return { focused: false } },
  computed: {
    isFull() { return this.modelValue.length >= this.max },
    label: { get() { return 'x' }, set(v) {} },
  },
  watch: { modelValue(v) { const previous = v } },
  methods: {
    addItem(item) { const values = [...this.modelValue]; this.$emit('add', item) },
    removeItem: function (i) { let removed = 1 },
  },
})
</script>
`)
	checkSymbols(t, f, []symWant{
		{"Chips", Class, Public, "", ""},
		{"modelValue", Property, Public, "", "Chips"},
		{"max", Property, Public, "", "Chips"},
		{"data", Method, Public, "", "Chips"},
		{"isFull", Property, Public, "", "Chips"},
		{"label", Property, Public, "", "Chips"},
		{"addItem", Method, Public, "", "Chips"},
		{"removeItem", Method, Public, "", "Chips"},
	})
	for _, local := range []string{"values", "removed", "previous", "focused"} {
		if _, ok := symbolsByName(f)[local]; ok {
			t.Errorf("the local %s is a symbol", local)
		}
	}
	if !hasIdent(f, "$emit", Call) || !hasIdent(f, "defineComponent", Call) {
		t.Errorf("the calls in the options are lost: %+v", f.Identifiers)
	}
}

// TestObjectMethodLocals: what an object literal's methods declare is local to them.
func TestObjectMethodLocals(t *testing.T) {
	f := extractString(t, "h.js", "const handler = {\n  onClick() { const inner = 1 },\n  onKey: (e) => { let key = e.key },\n}\nconst top = 2\n")
	syms := symbolsByName(f)
	if _, ok := syms["inner"]; ok {
		t.Errorf("inner, a local of an object's method, is a symbol")
	}
	if _, ok := syms["key"]; ok {
		t.Errorf("key, a local of an object's arrow function, is a symbol")
	}
	if syms["handler"].Kind != Constant || syms["top"].Kind != Constant {
		t.Errorf("module constants lost: %+v", f.Symbols)
	}
}

func TestSvelteComponent(t *testing.T) {
	f := extractString(t, "src/routes/+page.svelte", "<script context=\"module\">\n  export const prerender = true;\n</script>\n<script lang=\"ts\">\n  export let data: string;\n  $: upper = data.toUpperCase();\n</script>\n{#if data}\n  <p id=\"greeting\">{upper}</p>\n{/if}\n")
	checkSymbols(t, f, []symWant{
		{"page", Class, Public, "", ""},
		{"prerender", Constant, Public, "", "page"},
		{"data", Variable, Public, "", "page"},
		{"upper", Variable, "", "", "page"},
		{"greeting", Constant, Public, "", "page"},
	})
	syms := symbolsByName(f)
	if s := syms["upper"]; s.Metadata["reactive"] != "true" || s.Signature != "$: upper = data.toUpperCase()" || s.Language != "typescript" {
		t.Errorf("upper: %+v", s)
	}
	if s := syms["prerender"]; s.Language != "javascript" || s.StartLine != 2 {
		t.Errorf("prerender: %s at line %d, want javascript at line 2", s.Language, s.StartLine)
	}
}

// TestSvelte5Tags: snippets and {@render}, {@const}, newer than the grammar, parse.
func TestSvelte5Tags(t *testing.T) {
	f := extractString(t, "List.svelte", "<script lang=\"ts\">\n  let { items, row } = $props();\n</script>\n{#snippet empty(label: string)}\n  <p id=\"empty\">{label}</p>\n{/snippet}\n{#each items as item}\n  {@const size = item.size}\n  {@render row(item, size)}\n{/each}\n<ul id=\"list\"></ul>\n")
	if f.ParseErrors != 0 {
		t.Errorf("%d parse errors", f.ParseErrors)
	}
	syms := symbolsByName(f)
	if syms["empty"].StartLine != 5 || syms["list"].StartLine != 11 {
		t.Errorf("ids at lines %d and %d, want 5 and 11: %+v", syms["empty"].StartLine, syms["list"].StartLine, f.Symbols)
	}
}
