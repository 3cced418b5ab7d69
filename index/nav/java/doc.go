// Package java holds Java's and C#'s rules of resolution, the Hooks of index/nav/resolve for
// them: names bound as javac binds them (scopes, nested and imported types, members of an
// expression's type, overloads picked by a call's arguments), C#'s namespaces, usings,
// partial types and attributes.
package java
