// Package resolve decides which definition a use of a name means, when the use is read from
// the store's rows: the generic rules in order (scope, receiver, import, package, qualified,
// global-unique), the resolver with its caches, declared types, local bindings and function
// literals' parameters, and the Hooks through which a language's package adds its own rules
// in their places.
package resolve
