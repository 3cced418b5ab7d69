package resolve

// How languages name what a use refers to: qualified names, Go receivers, a symbol's
// metadata.

import (
	"encoding/json"
	"strings"
)

func IsUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

func LastSegment(s, sep string) string {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[i+len(sep):]
	}
	return s
}

// GoReceiver returns the receiver name and type (without * and type parameters) of a Go
// method's signature: s, Server for func (s *Server[T]) Name(...).
func GoReceiver(sig string) (name, typ string) {
	rest, ok := strings.CutPrefix(sig, "func (")
	if !ok {
		return "", ""
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return "", ""
	}
	f := strings.Fields(rest[:end])
	switch len(f) {
	case 1:
		typ = f[0]
	case 2:
		name, typ = f[0], f[1]
	default:
		return "", ""
	}
	typ = strings.TrimPrefix(typ, "*")
	if i := strings.IndexByte(typ, '['); i >= 0 {
		typ = typ[:i]
	}
	return name, typ
}

// MetaMap decodes a symbol's metadata JSON object ("" is none).
func MetaMap(s string) map[string]string {
	m := map[string]string{}
	if s == "" {
		return m
	}
	_ = json.Unmarshal([]byte(s), &m)
	return m
}
