// Package python holds Python's rules of resolution, the Hooks of index/nav/resolve for
// Python: imports and the modules that re-export a name, a class body's names, and the
// types annotations, values, returns and callers' arguments give a qualifier.
package python
