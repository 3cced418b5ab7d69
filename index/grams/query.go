package grams

import (
	"slices"
	"strconv"
	"strings"
)

// fold maps a byte of text or of a query to the byte its trigrams and 4-grams use: ASCII A-Z
// lower-cased, every other byte (UTF-8 bytes >= 0x80 too) as it is.
var fold = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// gramKey is the key of the trigram a b c (already folded): a<<16 | b<<8 | c.
func gramKey(a, b, c byte) uint32 { return uint32(a)<<16 | uint32(b)<<8 | uint32(c) }

// gram4Key is the key of the folded 4-gram g = b0<<24 | b1<<16 | b2<<8 | b3: gram4Flag | the
// top 24 bits of g times 0x9E3779B1 (Knuth's multiplicative hash).
func gram4Key(g uint32) uint32 { return gram4Flag | (g*0x9E3779B1)>>8 }

// gram4Flag is set in 4-gram keys, and in no trigram key.
const gram4Flag = 1 << 24

// wordByte tells the bytes of identifiers, folded: a-z, 0-9 and _. Only 4-grams of four
// such bytes are indexed: identifiers and words are what literals made of common trigrams
// are (useState, serializer), and 4-grams holding punctuation or spaces would triple the
// index for little. Measured on GOROOT's Go sources: every 4-gram made the segments 67% of
// the text, word 4-grams 25.5% (trigrams alone 22%), with the same candidates for
// identifiers; "if x == nil" keeps 140 candidates instead of 38.
var wordByte = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_'
	}
	return t
}()

// queryGrams returns the keys a literal constrains, sorted and distinct: those of its folded
// trigrams and of its 4-grams of identifier bytes (wordByte), without trigrams holding a
// byte >= 0x80 (Unicode case folding of the text may change such bytes, so they constrain
// nothing). It is nil for a literal shorter
// than 3 bytes; a literal of 3 gives its trigram alone.
func queryGrams(s string) []uint32 {
	if len(s) < 3 {
		return nil
	}
	keys := make([]uint32, 0, 2*len(s)-5)
	for i := 0; i+3 <= len(s); i++ {
		a, b, c := fold[s[i]], fold[s[i+1]], fold[s[i+2]]
		if (a|b|c)&0x80 != 0 {
			continue
		}
		keys = append(keys, gramKey(a, b, c))
		if i+4 <= len(s) && wordByte[a] && wordByte[b] && wordByte[c] && wordByte[fold[s[i+3]]] {
			keys = append(keys, gram4Key(gramKey(a, b, c)<<8|uint32(fold[s[i+3]])))
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// op is what a Query node does.
type op uint8

const (
	opAll  op = iota // matches every document
	opNone           // matches no document
	opLit            // a literal: every one of its keys
	opAnd            // every sub-query
	opOr             // some sub-query
)

// Query is what Match and Candidates look for: literals combined with And and Or. It is
// built by Literal, And, Or and Everything, which simplify as they build (a nested And is
// flattened into its parent, an And drops its match-everything parts, an Or holding one
// matches everything, a node of one part is that part), so String shows the simplified
// tree. A Query is immutable and safe for concurrent use.
type Query struct {
	op    op
	lit   string   // opLit: the literal as given
	grams []uint32 // opLit: queryGrams(lit), non-empty
	subs  []*Query // opAnd, opOr: at least two
}

var (
	everything = &Query{op: opAll}
	nothing    = &Query{op: opNone}
)

// Everything returns the query every document satisfies.
func Everything() *Query { return everything }

// Literal returns the query of documents that may hold s, compared with ASCII case folding:
// those holding every trigram and 4-gram of s (see the package comment). A literal that
// gives no usable trigram (shorter than 3 bytes, or each of its trigrams holding a byte
// >= 0x80) constrains nothing: it is Everything.
func Literal(s string) *Query {
	g := queryGrams(s)
	if len(g) == 0 {
		return everything
	}
	return &Query{op: opLit, lit: s, grams: g}
}

// And returns the query of documents that satisfy every one of qs. An And of nothing
// matches everything; an And holding a query that matches nothing matches nothing.
func And(qs ...*Query) *Query {
	var subs []*Query
	for _, q := range qs {
		switch q.op {
		case opAll:
		case opNone:
			return nothing
		case opAnd:
			subs = append(subs, q.subs...)
		default:
			subs = append(subs, q)
		}
	}
	switch len(subs) {
	case 0:
		return everything
	case 1:
		return subs[0]
	}
	return &Query{op: opAnd, subs: subs}
}

// Or returns the query of documents that satisfy at least one of qs. An Or of nothing
// matches nothing; an Or holding a query that matches everything matches everything.
func Or(qs ...*Query) *Query {
	var subs []*Query
	for _, q := range qs {
		switch q.op {
		case opAll:
			return everything
		case opNone:
		case opOr:
			subs = append(subs, q.subs...)
		default:
			subs = append(subs, q)
		}
	}
	switch len(subs) {
	case 0:
		return nothing
	case 1:
		return subs[0]
	}
	return &Query{op: opOr, subs: subs}
}

// MatchesAll reports whether q constrains nothing: every document is a candidate.
func (q *Query) MatchesAll() bool { return q.op == opAll }

// MatchesNone reports whether no document can satisfy q (an Or of nothing).
func (q *Query) MatchesNone() bool { return q.op == opNone }

// String returns q readably, for --debug-query: all, none, lit("retry"), and(...), or(...),
// e.g. and(lit("retry"), or(lit("foo"), lit("bar"))).
func (q *Query) String() string {
	var sb strings.Builder
	q.write(&sb)
	return sb.String()
}

func (q *Query) write(sb *strings.Builder) {
	switch q.op {
	case opAll:
		sb.WriteString("all")
	case opNone:
		sb.WriteString("none")
	case opLit:
		sb.WriteString("lit(")
		sb.WriteString(strconv.Quote(q.lit))
		sb.WriteByte(')')
	case opAnd, opOr:
		if q.op == opAnd {
			sb.WriteString("and(")
		} else {
			sb.WriteString("or(")
		}
		for i, s := range q.subs {
			if i > 0 {
				sb.WriteString(", ")
			}
			s.write(sb)
		}
		sb.WriteByte(')')
	}
}
