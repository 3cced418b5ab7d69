package query

import (
	"regexp/syntax"
	"strings"
	"unicode"
)

// NeedOp is how a Need combines its parts.
type NeedOp uint8

// Need operators. The zero Need (NeedNone) requires nothing.
const (
	NeedNone NeedOp = iota
	NeedLit         // the text holds Lit
	NeedAll         // every sub-need holds
	NeedAny         // some sub-need holds
)

// Need is what a text must hold for a regex to match in it: literal strings joined by AND
// and OR. Search uses it to pick candidate files from the index (each literal's words) and
// to skip files and lines cheaply before running the regex; it is a necessary condition,
// never a sufficient one.
type Need struct {
	Op   NeedOp
	Lit  string
	Fold bool // the literal matches ignoring case
	// OpenLeft and OpenRight say whether a word character may stand right before or after
	// the literal in a match: its first or last word is then possibly part of a longer word.
	OpenLeft, OpenRight bool
	// AtStart and AtEnd say whether the literal starts or ends the text of the part of the
	// regex analysed so far, so a neighbour of that part can close its edge.
	AtStart, AtEnd bool
	Subs           []Need
}

// RegexNeed returns what text matching re must hold. fold: re is matched ignoring case.
func RegexNeed(re string, fold bool) Need {
	flags := syntax.Perl
	if fold {
		flags |= syntax.FoldCase
	}
	r, err := syntax.Parse(re, flags)
	if err != nil {
		return Need{}
	}
	return simplifyNeed(needOf(r.Simplify()))
}

// needOf returns what r requires; literals' edges start open and are closed by their
// neighbours in a concatenation.
func needOf(r *syntax.Regexp) Need {
	switch r.Op {
	case syntax.OpLiteral:
		n := Need{Op: NeedLit, Lit: string(r.Rune), Fold: r.Flags&syntax.FoldCase != 0, OpenLeft: true, OpenRight: true, AtStart: true, AtEnd: true}
		if n.Fold {
			n.Lit = strings.ToLower(n.Lit)
		}
		return n
	case syntax.OpCapture:
		return needOf(r.Sub[0])
	case syntax.OpPlus:
		return openNeed(needOf(r.Sub[0]))
	case syntax.OpRepeat:
		if r.Min >= 1 {
			return openNeed(needOf(r.Sub[0]))
		}
	case syntax.OpAlternate:
		n := Need{Op: NeedAny, AtStart: true, AtEnd: true}
		for _, s := range r.Sub {
			sub := needOf(s)
			if sub.Op == NeedNone {
				return Need{}
			}
			n.Subs = append(n.Subs, sub)
		}
		return n
	case syntax.OpConcat:
		return concatNeed(r.Sub)
	}
	return Need{}
}

// concatNeed joins the needs of a concatenation: runs of literals become one literal, and
// a literal's edge is closed when its neighbour cannot be a word character there.
func concatNeed(subs []*syntax.Regexp) Need {
	subs = distribute(subs)
	n := Need{Op: NeedAll, AtStart: true, AtEnd: true}
	for i, s := range subs {
		sub := needOf(s)
		if sub.Op == NeedNone {
			continue
		}
		left := i > 0 && !edgeCanBeWord(subs[i-1], false)
		right := i+1 < len(subs) && !edgeCanBeWord(subs[i+1], true)
		closeNeed(&sub, left, right)
		markAt(&sub, i == 0, i == len(subs)-1)
		n.Subs = append(n.Subs, sub)
	}
	return n
}

// closeNeed closes the left edges of the literals that start n's text when left, and the
// right edges of those that end it when right; a literal's edge is closed anyway when its
// text starts or ends with a non-word character.
func closeNeed(n *Need, left, right bool) {
	switch n.Op {
	case NeedLit:
		if left && n.AtStart || !startsWord(n.Lit) {
			n.OpenLeft = false
		}
		if right && n.AtEnd || !endsWord(n.Lit) {
			n.OpenRight = false
		}
	case NeedAll, NeedAny:
		for i := range n.Subs {
			closeNeed(&n.Subs[i], left, right)
		}
	}
}

// markAt keeps the AtStart and AtEnd marks of n's literals only where n's part of a
// concatenation starts (start) or ends (end) the concatenation's text.
func markAt(n *Need, start, end bool) {
	n.AtStart = n.AtStart && start
	n.AtEnd = n.AtEnd && end
	for i := range n.Subs {
		markAt(&n.Subs[i], start, end)
	}
}

// distribute undoes the parser's factoring of common prefixes out of an alternation of
// literals (Exception|Error parses as E(?:xception|rror)): a literal followed by an
// alternation of literals becomes one alternation of whole literals, whose words the index
// knows.
func distribute(subs []*syntax.Regexp) []*syntax.Regexp {
	var out []*syntax.Regexp
	for i := 0; i < len(subs); i++ {
		s := subs[i]
		if s.Op == syntax.OpLiteral && i+1 < len(subs) && subs[i+1].Op == syntax.OpAlternate {
			alt := subs[i+1]
			ok := true
			for _, b := range alt.Sub {
				ok = ok && (b.Op == syntax.OpLiteral && b.Flags&syntax.FoldCase == s.Flags&syntax.FoldCase || b.Op == syntax.OpEmptyMatch)
			}
			if ok {
				na := &syntax.Regexp{Op: syntax.OpAlternate, Flags: alt.Flags}
				for _, b := range alt.Sub {
					lit := &syntax.Regexp{Op: syntax.OpLiteral, Flags: s.Flags, Rune: append(append([]rune{}, s.Rune...), b.Rune...)}
					na.Sub = append(na.Sub, lit)
				}
				out = append(out, na)
				i++
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// openNeed opens the edges of every literal of n (a repetition: the literal may sit next to
// itself).
func openNeed(n Need) Need {
	if n.Op == NeedLit {
		n.OpenLeft, n.OpenRight = true, true
		return n
	}
	subs := make([]Need, len(n.Subs))
	for i, s := range n.Subs {
		subs[i] = openNeed(s)
	}
	n.Subs = subs
	return n
}

// startsWord and endsWord report whether s starts or ends with a word character.
func startsWord(s string) bool {
	for _, r := range s {
		return isWordRune(r)
	}
	return false
}

func endsWord(s string) bool {
	r := []rune(s)
	return len(r) > 0 && isWordRune(r[len(r)-1])
}

// edgeCanBeWord reports whether the text r matches may start (first) or end (!first) with a
// word character; zero-width assertions other than \B say no (a boundary, a line's start or
// end), and anything unsure says yes.
func edgeCanBeWord(r *syntax.Regexp, first bool) bool {
	switch r.Op {
	case syntax.OpLiteral:
		if len(r.Rune) == 0 {
			return true
		}
		c := r.Rune[len(r.Rune)-1]
		if first {
			c = r.Rune[0]
		}
		return isWordRune(c) || r.Flags&syntax.FoldCase != 0 && isWordRune(unicode.SimpleFold(c))
	case syntax.OpCharClass:
		for i := 0; i+1 < len(r.Rune); i += 2 {
			lo, hi := r.Rune[i], r.Rune[i+1]
			if hi >= 0x80 || lo <= 'z' && hi >= '0' && rangeHasWord(lo, hi) {
				return true
			}
		}
		return false
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary:
		return false
	case syntax.OpCapture:
		return edgeCanBeWord(r.Sub[0], first)
	case syntax.OpPlus:
		return edgeCanBeWord(r.Sub[0], first)
	case syntax.OpRepeat:
		if r.Min >= 1 {
			return edgeCanBeWord(r.Sub[0], first)
		}
	case syntax.OpConcat:
		if len(r.Sub) == 0 {
			return true
		}
		if first {
			return edgeCanBeWord(r.Sub[0], true)
		}
		return edgeCanBeWord(r.Sub[len(r.Sub)-1], false)
	case syntax.OpAlternate:
		for _, s := range r.Sub {
			if edgeCanBeWord(s, first) {
				return true
			}
		}
		return false
	}
	return true
}

// rangeHasWord reports whether the ASCII range lo..hi holds a letter, digit or _.
func rangeHasWord(lo, hi rune) bool {
	for c := lo; c <= hi && c < 0x80; c++ {
		if isWordRune(c) {
			return true
		}
	}
	return false
}

// simplifyNeed drops empty parts and flattens single-part groups.
func simplifyNeed(n Need) Need {
	switch n.Op {
	case NeedAll:
		var subs []Need
		for _, s := range n.Subs {
			if s = simplifyNeed(s); s.Op != NeedNone {
				subs = append(subs, s)
			}
		}
		if len(subs) == 0 {
			return Need{}
		}
		if len(subs) == 1 {
			return subs[0]
		}
		n.Subs = subs
	case NeedAny:
		for i, s := range n.Subs {
			if s = simplifyNeed(s); s.Op == NeedNone {
				return Need{}
			} else {
				n.Subs[i] = s
			}
		}
		if len(n.Subs) == 1 {
			return n.Subs[0]
		}
	}
	return n
}

// Cover returns literals of which every match holds at least one (nil when n gives none):
// the literal of a NeedLit, the best cover of a NeedAll's parts, the union of a NeedAny's.
func (n Need) Cover() []Need {
	switch n.Op {
	case NeedLit:
		return []Need{n}
	case NeedAll:
		var best []Need
		for _, s := range n.Subs {
			if c := s.Cover(); c != nil && (best == nil || coverRank(c) > coverRank(best)) {
				best = c
			}
		}
		return best
	case NeedAny:
		var out []Need
		for _, s := range n.Subs {
			c := s.Cover()
			if c == nil {
				return nil
			}
			out = append(out, c...)
		}
		return out
	}
	return nil
}

// coverRank prefers covers of few, long, case-sensitive literals.
func coverRank(c []Need) int {
	shortest := 1 << 30
	for _, l := range c {
		n := len(l.Lit)
		if l.Fold {
			n--
		}
		shortest = min(shortest, n)
	}
	return shortest*4 - len(c)
}

// String prints n for debugging: "lit", AND(...), OR(...); * marks an open edge.
func (n Need) String() string {
	switch n.Op {
	case NeedLit:
		s := quote(n.Lit)
		if n.OpenLeft {
			s = "*" + s
		}
		if n.OpenRight {
			s += "*"
		}
		if n.Fold {
			s += "i"
		}
		return s
	case NeedAll, NeedAny:
		parts := make([]string, len(n.Subs))
		for i, s := range n.Subs {
			parts[i] = s.String()
		}
		op := "AND"
		if n.Op == NeedAny {
			op = "OR"
		}
		return op + "(" + strings.Join(parts, " ") + ")"
	}
	return "ANY"
}
