// Package nav answers navigation questions from the store's rows, resolving uses to
// definitions when they are read: refs of a definition, callers and callees, children,
// implementations, goto's name resolved as if used at a place; with declared types, local
// bindings, function literals' parameters, Python re-exports and Go module imports.
package nav
