// Package cfamily holds C's and C++'s rules of resolution, the Hooks of index/nav/resolve for
// them: locals hide globals, what a file and the headers it includes define, prototypes,
// macros renaming functions, fields through declared types, C++ namespaces, and the
// overloads a C++ call can call.
package cfamily
