package resolve

// Function literals: a parameter of a function literal that encloses a use has the type its
// parameter list declares, so that c.Next() in engine.Use(func(c *Context) { c.Next() })
// (Go), c.next() in (c: Context) => c.next() (TypeScript) and in (Context c) -> c.next()
// (Java, C#) resolve to Context's member. A literal is not a symbol: it is read from the
// lines of the named function around it, the nearest literal that encloses the use first,
// and its parameter binds a name only inside it (before its body closes). A Python lambda
// declares no types; a nested def is a function of its own, whose signature says them.

import "strings"

// LiteralHead is the head of a function literal on a line: its parameter list (without
// the parentheses) and where its body starts (just after the { of a block, or after the
// => or -> of an expression body).
type LiteralHead struct {
	Params string
	Body   int
	Block  bool
}

// LiteralParam returns the type that the innermost function literal enclosing the use at
// line and col (0: the use's line is not read) inside fn declares for its parameter name;
// found reports that such a literal binds name (with typ "" when it declares no type, which
// hides any other binding of name).
func (r *Resolver) LiteralParam(f *File, fn *Def, name string, line, col int) (typ string, found bool, err error) {
	if !literalLanguage(f.Lang) || line < fn.Line {
		return "", false, nil
	}
	lines, err := r.Lines(f.Path)
	if err != nil {
		return "", false, err
	}
	for n := min(line, len(lines)); n >= fn.Line; n-- {
		text := lines[n-1]
		if n == line {
			if col <= 1 || col > len(text) {
				continue
			}
			text = text[:col-1]
		}
		if !strings.Contains(text, name) {
			continue
		}
		heads := LiteralHeads(text, f.Lang)
		for i := len(heads) - 1; i >= 0; i-- { // the nearest first
			h := heads[i]
			if !ParamNamed(h.Params, name, f.Lang) || !Encloses(lines, n, h.Body, line, col, h.Block) {
				continue
			}
			return ParamType("("+h.Params+")", name, f.Lang), true, nil
		}
	}
	return "", false, nil
}

// literalLanguage reports whether literalHeads reads lang's function literals.
func literalLanguage(lang string) bool {
	switch lang {
	case "go", "typescript", "tsx", "javascript", "jsx", "java", "csharp":
		return true
	}
	return false
}

// LiteralHeads returns the heads of the function literals whose parameter list is on the
// line text, left to right: func(...) [results] { in Go; (...) [: T] => and function
// [name](...) [: T] { in JavaScript and TypeScript; (...) -> in Java, (...) => in C#.
func LiteralHeads(text, lang string) []LiteralHead {
	var out []LiteralHead
	for i := 0; i < len(text); i++ {
		if text[i] != '(' {
			continue
		}
		end := CloseParen(text, i) // just past the )
		if end < 0 {
			continue // the list goes on to the next line
		}
		after := text[end:]
		params := text[i+1 : end-1]
		before := strings.TrimRight(text[:i], " \t")
		var h LiteralHead
		var ok bool
		switch lang {
		case "go":
			if strings.HasSuffix(text[:i], "func") && !precededByIdent(text, i-4) {
				h, ok = blockAfter(after, end, true)
			}
		case "java":
			h, ok = arrowAfter(after, end, "->")
		case "csharp":
			h, ok = arrowAfter(after, end, "=>")
		default: // JavaScript, TypeScript
			rest, at := after, end
			if t := strings.TrimLeft(rest, " \t"); strings.HasPrefix(t, ":") { // a result type
				k := strings.IndexAny(t, "{;,=") // where the body or the arrow starts
				if k < 0 {
					continue
				}
				at += len(rest) - len(t) + k
				rest = t[k:]
			}
			if h, ok = arrowAfter(rest, at, "=>"); !ok && isFunctionKeyword(before) {
				h, ok = blockAfter(rest, at, false)
			}
		}
		if ok {
			h.Params = params
			out = append(out, h)
		}
	}
	return out
}

// CloseParen returns the index just past the ) that closes the ( at s[i] (quoted text
// skipped), -1 when s does not close it.
func CloseParen(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1
			}
		case '"', '\'', '`':
			k := strings.IndexByte(s[j+1:], s[j])
			if k < 0 {
				return -1
			}
			j += k + 1
		}
	}
	return -1
}

// isFunctionKeyword reports whether before (the text before a parameter list) ends with
// function or function name.
func isFunctionKeyword(before string) bool {
	f := strings.Fields(before)
	if len(f) > 0 && IsIdent(f[len(f)-1]) && f[len(f)-1] != "function" {
		f = f[:len(f)-1]
	}
	return len(f) > 0 && strings.HasSuffix(f[len(f)-1], "function") && !precededByIdent(f[len(f)-1], len(f[len(f)-1])-8)
}

// precededByIdent reports whether the byte before s[i] is part of a name or closes a type
// ([]func(...){...} is a slice literal, not a function literal).
func precededByIdent(s string, i int) bool {
	return i > 0 && (IsIdentByte(s[i-1]) || s[i-1] == ']' || s[i-1] == '.')
}

// blockAfter finds the { that opens a body after a parameter list (Go's results between
// them: (int, error), *T, interface{}); at is rest's offset in the line.
func blockAfter(rest string, at int, goResults bool) (LiteralHead, bool) {
	depth := 0
	for j := 0; j < len(rest); j++ {
		switch c := rest[j]; c {
		case '(', '[':
			depth++
		case ')', ']':
			if depth--; depth < 0 {
				return LiteralHead{}, false
			}
		case '{':
			word := strings.TrimRight(rest[:j], " \t")
			if goResults && (strings.HasSuffix(word, "interface") || strings.HasSuffix(word, "struct")) {
				if j = strings.IndexByte(rest[j:], '}') + j; j < 0 {
					return LiteralHead{}, false
				}
				continue
			}
			if depth == 0 {
				return LiteralHead{Body: at + j + 1, Block: true}, true
			}
		case ';', '=', ',':
			if depth == 0 {
				return LiteralHead{}, false
			}
		}
	}
	return LiteralHead{}, false
}

// arrowAfter reads an arrow (=> or ->) right after a parameter list, and the block or
// expression body after it; at is rest's offset in the line.
func arrowAfter(rest string, at int, arrow string) (LiteralHead, bool) {
	t := strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(t, arrow) {
		return LiteralHead{}, false
	}
	at += len(rest) - len(t) + len(arrow)
	body := t[len(arrow):]
	if b := strings.TrimLeft(body, " \t"); strings.HasPrefix(b, "{") {
		return LiteralHead{Body: at + len(body) - len(b) + 1, Block: true}, true
	}
	return LiteralHead{Body: at}, true
}

// ParamNamed reports whether the parameter list params declares name.
func ParamNamed(params, name, lang string) bool {
	for _, p := range SplitTop(params, ',') {
		p = strings.TrimSpace(p)
		if i := AssignAt(p); i >= 0 {
			p = strings.TrimSpace(p[:i]) // a default value
		}
		var n string
		switch {
		case lang == "go":
			f := strings.Fields(p)
			if len(f) > 0 {
				n = f[0]
			}
		case ColonAt(p) >= 0: // name: T, name?: T
			n = strings.TrimSuffix(strings.TrimSpace(p[:ColonAt(p)]), "?")
		default: // T name, or name alone
			f := strings.Fields(p)
			if len(f) > 0 {
				n = f[len(f)-1]
			}
		}
		if strings.TrimLeft(n, ".") == name {
			return true
		}
	}
	return false
}

// Encloses reports whether the body that starts at byte body of line n (1-based) is still
// open at the use at line and col (0: anywhere on the line): no bracket opened before the
// body closes on the way there, and an expression body ends at the line's end or at a
// comma or semicolon.
func Encloses(lines []string, n, body, line, col int, block bool) bool {
	if !block && line != n {
		return false
	}
	depth := 0
	for k := n; k <= line && k <= len(lines); k++ {
		text := lines[k-1]
		from, to := 0, len(text)
		if k == n {
			from = body
		}
		if k == line && col > 0 {
			to = min(col-1, len(text))
		}
		for j := from; j < to; j++ {
			switch c := text[j]; c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth--; depth < 0 {
					return false
				}
			case ',', ';':
				if !block && depth == 0 {
					return false
				}
			case '"', '\'', '`':
				if e := strings.IndexByte(text[j+1:to], c); e >= 0 {
					j += e + 1
				} else {
					j = to
				}
			case '/':
				if j+1 < to && text[j+1] == '/' {
					j = to
				}
			}
		}
	}
	return true
}
