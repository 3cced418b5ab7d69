package extract

import (
	"bytes"
	"regexp"
)

func init() {
	parseSources["typescript"] = tsParseSource
}

// tsGenericCallLine matches an indented line that opens a generic call signature, a type
// member such as `<T>(fn: T): T` or `<K = any, V extends X>(`.
var tsGenericCallLine = regexp.MustCompile(`^[ \t]+<[A-Za-z_$][\w$]*\s*(?:extends\b|[,=>])`)

// tsParseSource lets tree-sitter-typescript parse the generic call signatures of an
// interface or type literal written one a line without semicolons, as TypeScript does:
//
//	interface IActionFactory {
//	    <T>(fn: T): T
//	    <T>(name: string, fn: T): T
//	}
//
// The grammar reads the second `<T>` as type arguments of the first member's type `T`, and
// the rest of the file (mobx's action.ts, computed.ts, flow.ts) becomes an error without
// symbols or uses. The whitespace just before such a `<` becomes a `;` when the previous
// line of code ends what could be a member (a name, a closing bracket, a quote): every
// offset stays the source's.
func tsParseSource(src []byte) []byte {
	var out []byte  // a copy, made at the first change
	var prev []byte // the previous line of code, its trailing comment cut, trimmed
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		if tsGenericCallLine.Match(line) && bytes.IndexByte(line, '(') >= 0 && tsEndsMember(prev) {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[start+bytes.IndexByte(line, '<')-1] = ';'
		}
		if code := tsCodeOf(line); len(code) > 0 {
			prev = code
		}
		start = end + 1
	}
	if out == nil {
		return src
	}
	return out
}

// tsCodeOf returns line trimmed, without a trailing // comment; nothing for a blank line or
// one that is a comment (or inside a block comment, starting with *).
func tsCodeOf(line []byte) []byte {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] == '*' || bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("/*")) {
		return nil
	}
	for i := 1; i+1 < len(t); i++ {
		if t[i] == '/' && t[i+1] == '/' && (t[i-1] == ' ' || t[i-1] == '\t') {
			return bytes.TrimSpace(t[:i])
		}
	}
	return t
}

// tsEndsMember reports whether a line of code ending so can end a type member: a name, a
// closing bracket, a literal, and not an arrow (whose body would follow).
func tsEndsMember(code []byte) bool {
	if len(code) == 0 || bytes.HasSuffix(code, []byte("=>")) {
		return false
	}
	c := code[len(code)-1]
	switch {
	case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		return true
	}
	return bytes.IndexByte([]byte(")]}>'\"`"), c) >= 0
}
