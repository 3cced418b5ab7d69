// Package vectors keeps the symbol vectors of a store: refreshed at the end of every index
// run (made by Quarry's built-in code model, package codemodel, whose weights ship in the
// binary, or by an external OpenAI-compatible embedder), and searched for the symbols
// nearest a text.
package vectors
