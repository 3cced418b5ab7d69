package extract

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// The few declarations of tree-sitter's API (api.h of the go-tree-sitter version in go.mod)
// that flatten needs; the functions are compiled into the binary by go-tree-sitter.
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSNode {
	uint32_t context[4];
	const void *id;
	const TSTree *tree;
} TSNode;
typedef struct TSTreeCursor {
	const void *tree;
	const void *id;
	uint32_t context[3];
} TSTreeCursor;

TSNode ts_tree_root_node(const TSTree *self);
const TSLanguage *ts_tree_language(const TSTree *self);
uint32_t ts_node_descendant_count(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
TSSymbol ts_node_symbol(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_extra(TSNode self);
bool ts_node_has_error(TSNode self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
uint32_t ts_language_field_count(const TSLanguage *self);
const char *ts_language_field_name_for_id(const TSLanguage *self, TSFieldId id);

enum { QN_NAMED = 1, QN_MISSING = 2, QN_EXTRA = 4, QN_HAS_ERROR = 8 };

typedef struct {
	uint32_t start, end;
	int32_t parent;
	uint16_t symbol, field;
	uint8_t flags;
} qnode;

// quarry_flatten writes the tree's nodes in pre-order to out, up to cap of them, and returns
// how many there are: a caller whose cap was short calls again with room for all.
static uint32_t quarry_flatten(const TSTree *tree, qnode *out, uint32_t cap) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	uint32_t n = 0;
	int32_t parent = -1;
	for (;;) {
		if (n < cap) {
			TSNode node = ts_tree_cursor_current_node(&c);
			qnode *q = &out[n];
			q->start = ts_node_start_byte(node);
			q->end = ts_node_end_byte(node);
			q->parent = parent;
			q->symbol = ts_node_symbol(node);
			q->field = ts_tree_cursor_current_field_id(&c);
			q->flags = (ts_node_is_named(node) ? QN_NAMED : 0) | (ts_node_is_missing(node) ? QN_MISSING : 0) |
				(ts_node_is_extra(node) ? QN_EXTRA : 0) | (ts_node_has_error(node) ? QN_HAS_ERROR : 0);
		}
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			parent = (int32_t)(n - 1);
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			parent = parent >= 0 && (uint32_t)parent < cap ? out[parent].parent : -1;
		}
	}
}

static uint32_t quarry_descendants(const TSTree *tree) {
	return ts_node_descendant_count(ts_tree_root_node(tree));
}
*/
import "C"

import (
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Node flags, as quarry_flatten sets them.
const (
	flagNamed    = 1
	flagMissing  = 2
	flagExtra    = 4
	flagHasError = 8
)

// qnode is a node as quarry_flatten writes it.
type qnode = C.qnode

// errorSymbol is tree-sitter's symbol of an ERROR node (ts_builtin_sym_error).
const errorSymbol = 0xFFFF

// grammarNames are one grammar's symbol and field names, read once.
type grammarNames struct {
	symbols map[uint16]string // the names of the symbols above the grammar's count (ERROR)
	table   []string          // symbol -> name
	fields  []string          // field id -> name
	fieldID map[string]uint16
}

var grammarNameCache sync.Map // *C.TSLanguage -> *grammarNames

func namesOf(lang *C.TSLanguage) *grammarNames {
	if g, ok := grammarNameCache.Load(lang); ok {
		return g.(*grammarNames)
	}
	g := &grammarNames{symbols: map[uint16]string{}, fieldID: map[string]uint16{}}
	count := uint32(C.ts_language_symbol_count(lang))
	g.table = make([]string, count)
	for i := range count {
		g.table[i] = C.GoString(C.ts_language_symbol_name(lang, C.TSSymbol(i)))
	}
	for _, s := range []uint16{errorSymbol, errorSymbol - 1} {
		g.symbols[s] = C.GoString(C.ts_language_symbol_name(lang, C.TSSymbol(s)))
	}
	fields := uint32(C.ts_language_field_count(lang))
	g.fields = make([]string, fields+1)
	for i := uint32(1); i <= fields; i++ {
		name := C.GoString(C.ts_language_field_name_for_id(lang, C.TSFieldId(i)))
		g.fields[i] = name
		if _, dup := g.fieldID[name]; !dup {
			g.fieldID[name] = uint16(i)
		}
	}
	actual, _ := grammarNameCache.LoadOrStore(lang, g)
	return actual.(*grammarNames)
}

func (g *grammarNames) symbolName(s uint16) string {
	if int(s) < len(g.table) {
		return g.table[s]
	}
	return g.symbols[s]
}

// cTree is the C tree of a go-tree-sitter tree: the first field of its BaseTree, which the
// package does not export. TestFlattenMatchesTreeSitter fails if a new version moves it.
func cTree(t *sitter.Tree) *C.TSTree {
	return *(**C.TSTree)(unsafe.Pointer(t.BaseTree))
}

// maxPooledNodes is the most nodes a tree returned to treePool may have room for: a pooled
// tree keeps its arrays (about 64 bytes a node), and one huge file must not keep its
// hundreds of MB for the rest of a run.
const maxPooledNodes = 1 << 18

// treePool holds syntax trees whose arrays the next flatten reuses: an index run would
// otherwise allocate, and collect, about 25 bytes of nodes for each byte of source.
var treePool sync.Pool

// release returns t to treePool. No node of t may be used after.
func (t *syntaxTree) release() {
	if cap(t.nodes) > maxPooledNodes {
		return
	}
	t.src, t.names, t.lines = nil, nil, t.lines[:0]
	treePool.Put(t)
}

// grow returns s with length n, reusing its array when it has room.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// flatten copies the syntax tree t, parsed from src, into Go memory in one call into C, so
// that walking it costs no call into C per node (that was half of an extraction's time).
// t may be closed once flatten returns; the tree's root is returned, and the tree should be
// released once nothing walks it.
func flatten(t *sitter.Tree, src []byte) *Node {
	ct := cTree(t)
	tree, _ := treePool.Get().(*syntaxTree)
	if tree == nil {
		tree = &syntaxTree{}
	}
	n := max(uint32(C.quarry_descendants(ct)), 1)
	for {
		tree.buf = grow(tree.buf, int(n))
		got := uint32(C.quarry_flatten(ct, unsafe.SliceData(tree.buf), C.uint32_t(len(tree.buf))))
		if got <= uint32(len(tree.buf)) {
			tree.buf = tree.buf[:got]
			break
		}
		n = got
	}
	buf := tree.buf
	tree.src, tree.names = src, namesOf(C.ts_tree_language(ct))
	tree.nodes = grow(tree.nodes, len(buf))
	tree.counts = grow(tree.counts, len(buf))
	tree.named = grow(tree.named, len(buf))
	counts, named := tree.counts, tree.named
	clear(counts)
	clear(named)
	for i := range buf {
		q := &buf[i]
		tree.nodes[i] = Node{
			t: tree, start: uint32(q.start), end: uint32(q.end), parent: int32(q.parent),
			symbol: uint16(q.symbol), field: uint16(q.field), flags: uint16(q.flags),
		}
		if p := q.parent; p >= 0 {
			counts[p]++
			if q.flags&flagNamed != 0 {
				named[p]++
			}
		}
	}
	// Each node's children, then its named children, are a run of tree.kids.
	total := uint32(0)
	for i := range tree.nodes {
		nd := &tree.nodes[i]
		nd.kids, nd.nkids = total, counts[i]
		total += counts[i]
		nd.named, nd.nnamed = total, named[i]
		total += named[i]
		counts[i], named[i] = 0, 0
	}
	tree.kids = grow(tree.kids, int(total))
	for i := range tree.nodes {
		nd := &tree.nodes[i]
		if nd.parent < 0 {
			continue
		}
		p := &tree.nodes[nd.parent]
		nd.index = counts[nd.parent]
		tree.kids[p.kids+nd.index] = int32(i)
		counts[nd.parent]++
		if nd.flags&flagNamed != 0 {
			nd.namedIndex = named[nd.parent]
			tree.kids[p.named+nd.namedIndex] = int32(i)
			named[nd.parent]++
		}
	}
	return &tree.nodes[0]
}
