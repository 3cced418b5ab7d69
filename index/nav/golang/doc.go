// Package golang holds Go's rules of resolution, the Hooks of index/nav/resolve for Go: a
// local or parameter hides the package's definitions, a package is its directory's files of
// one package clause, imports of the workspace's module by its go.mod, and the member Go
// selects in an expression's type.
package golang
