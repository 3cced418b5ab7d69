package extract

import (
	"bytes"
	"sort"

	sitter "github.com/smacker/go-tree-sitter"
)

// syntaxTree is a tree-sitter syntax tree copied into Go memory by flatten: its nodes in
// pre-order, each node's children a run of kids.
type syntaxTree struct {
	src   []byte
	names *grammarNames
	nodes []Node
	kids  []int32
	lines []uint32 // offsets where lines start, computed when a point is first asked for

	// flatten's work arrays, kept for the next tree (treePool)
	buf           []qnode
	counts, named []uint32
}

// Node is a node of a syntax tree, with the methods of go-tree-sitter's Node that the
// extractors use, answered from Go memory. Two *Node of one tree are equal exactly when they
// are the same node.
type Node struct {
	t                    *syntaxTree
	start, end           uint32
	parent               int32
	kids, nkids          uint32 // the children: t.kids[kids:kids+nkids]
	named, nnamed        uint32 // the named children: t.kids[named:named+nnamed]
	index, namedIndex    uint32 // the node's place among its parent's (named) children
	symbol, field, flags uint16
}

func (n *Node) node(i int32) *Node { return &n.t.nodes[i] }

// Type is the node's type: the grammar's name of its symbol.
func (n *Node) Type() string { return n.t.names.symbolName(n.symbol) }

func (n *Node) StartByte() uint32 { return n.start }
func (n *Node) EndByte() uint32   { return n.end }

// StartPoint is where the node starts: row and byte column, counted from 0 as tree-sitter does
// (a row ends at '\n').
func (n *Node) StartPoint() sitter.Point { return n.t.point(n.start) }
func (n *Node) EndPoint() sitter.Point   { return n.t.point(n.end) }

func (n *Node) IsNamed() bool   { return n.flags&flagNamed != 0 }
func (n *Node) IsMissing() bool { return n.flags&flagMissing != 0 }
func (n *Node) IsExtra() bool   { return n.flags&flagExtra != 0 }
func (n *Node) HasError() bool  { return n.flags&flagHasError != 0 }
func (n *Node) IsError() bool   { return n.symbol == errorSymbol }

// Equal reports whether n and o are the same node.
func (n *Node) Equal(o *Node) bool { return n == o }

func (n *Node) Parent() *Node {
	if n.parent < 0 {
		return nil
	}
	return n.node(n.parent)
}

func (n *Node) ChildCount() uint32      { return n.nkids }
func (n *Node) NamedChildCount() uint32 { return n.nnamed }

// Child is the i-th child of n, or nil.
func (n *Node) Child(i int) *Node {
	if i < 0 || uint32(i) >= n.nkids {
		return nil
	}
	return n.node(n.t.kids[n.kids+uint32(i)])
}

// NamedChild is the i-th named child of n, or nil.
func (n *Node) NamedChild(i int) *Node {
	if i < 0 || uint32(i) >= n.nnamed {
		return nil
	}
	return n.node(n.t.kids[n.named+uint32(i)])
}

// ChildByFieldName is n's first child in field name, or nil. As in tree-sitter, an ERROR
// node has no fields, though the parts of what it swallowed are named (FieldNameForChild).
func (n *Node) ChildByFieldName(name string) *Node {
	id, ok := n.t.names.fieldID[name]
	if !ok || n.symbol == errorSymbol {
		return nil
	}
	for _, k := range n.t.kids[n.kids : n.kids+n.nkids] {
		if c := n.node(k); c.field == id {
			return c
		}
	}
	return nil
}

// FieldNameForChild is the field of n's i-th child, or "".
func (n *Node) FieldNameForChild(i int) string {
	c := n.Child(i)
	if c == nil || int(c.field) >= len(n.t.names.fields) {
		return ""
	}
	return n.t.names.fields[c.field]
}

// sibling is the child of n's parent d places from n, or nil.
func (n *Node) sibling(d int) *Node {
	p := n.Parent()
	if p == nil {
		return nil
	}
	return p.Child(int(n.index) + d)
}

// namedSibling is the named child of n's parent d named places from n, or nil. For an
// unnamed n it is the nearest named child on that side.
func (n *Node) namedSibling(d int) *Node {
	p := n.Parent()
	if p == nil {
		return nil
	}
	if n.IsNamed() {
		return p.NamedChild(int(n.namedIndex) + d)
	}
	for i := int(n.index) + d; i >= 0 && uint32(i) < p.nkids; i += d {
		if c := p.Child(i); c.IsNamed() {
			return c
		}
	}
	return nil
}

func (n *Node) NextSibling() *Node      { return n.sibling(1) }
func (n *Node) PrevSibling() *Node      { return n.sibling(-1) }
func (n *Node) NextNamedSibling() *Node { return n.namedSibling(1) }
func (n *Node) PrevNamedSibling() *Node { return n.namedSibling(-1) }

// point is the row and byte column of offset off.
func (t *syntaxTree) point(off uint32) sitter.Point {
	if len(t.lines) == 0 {
		t.lines = append(t.lines, 0)
		for i := 0; ; {
			j := bytes.IndexByte(t.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			t.lines = append(t.lines, uint32(i))
		}
	}
	row := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	return sitter.Point{Row: uint32(row), Column: off - t.lines[row]}
}

// children is the nodes t.kids[from:from+count] (nil for none).
func (n *Node) children(from, count uint32) []*Node {
	if count == 0 {
		return nil
	}
	out := make([]*Node, count)
	for i, k := range n.t.kids[from : from+count] {
		out[i] = n.node(k)
	}
	return out
}
