package nav

// How languages name what a use refers to: module paths of Python, JS/TS and Rust
// imports, named imports, Go receivers, a symbol's metadata.

import (
	"encoding/json"
	"path"
	"strings"
)

func IsUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

func LastSegment(s, sep string) string {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[i+len(sep):]
	}
	return s
}

// goReceiver returns the receiver name and type (without * and type parameters) of a Go
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

// pyModulePath turns a Python module (a.b, .b, ..b) into a path (a/b), relative imports
// against the directory of the importing file.
func pyModulePath(module, from string) string {
	if module == "" {
		return ""
	}
	dots := len(module) - len(strings.TrimLeft(module, "."))
	rest := strings.ReplaceAll(module[dots:], ".", "/")
	if dots == 0 {
		return rest
	}
	dir := path.Dir(from)
	for range dots - 1 {
		dir = path.Dir(dir)
	}
	return path.Join(dir, rest)
}

// jsModulePath turns a relative JS/TS import source ("./x", "../y/z") into a workspace path
// without extension; a package import ("react") gives "" (not in the workspace).
func jsModulePath(src, from string) string {
	if !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
		return ""
	}
	p := path.Join(path.Dir(from), src)
	return strings.TrimSuffix(p, path.Ext(p))
}

// jsNamesImport reports whether the named imports "a, b as c" bind name.
func jsNamesImport(names, name string) bool {
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		orig, alias, ok := strings.Cut(n, " as ")
		if ok && strings.TrimSpace(alias) == name || !ok && orig == name {
			return true
		}
	}
	return false
}

// jsNamesImported reports whether the named imports "a, b as c" import the name (a or b).
func jsNamesImported(names, name string) bool {
	for _, n := range strings.Split(names, ",") {
		orig, _, _ := strings.Cut(strings.TrimSpace(n), " as ")
		if strings.TrimSpace(orig) == name {
			return true
		}
	}
	return false
}

// rustModulePath turns a Rust path (crate::a::b, super::x, a::b) into a path suffix a/b.
func rustModulePath(p string) string {
	var parts []string
	for _, s := range strings.Split(p, "::") {
		switch s {
		case "crate", "self", "super", "":
			continue
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "/")
}

// metaMap decodes a symbol's metadata JSON object ("" is none).
func MetaMap(s string) map[string]string {
	m := map[string]string{}
	if s == "" {
		return m
	}
	_ = json.Unmarshal([]byte(s), &m)
	return m
}
