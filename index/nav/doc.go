// Package nav answers navigation questions from the store's rows, resolving uses to
// definitions when they are read: refs of a definition, callers and callees, children,
// implementations, goto's name resolved as if used at a place. Resolution is
// index/nav/resolve's, with the rules of each language's package (golang, python, java, js,
// rust, cfamily) registered here as its hooks.
package nav
