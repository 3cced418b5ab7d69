// Package vectors keeps the symbol vectors of a store: refreshed at the end of every index
// run (learned from the workspace's own code by package embed, or made by an external
// OpenAI-compatible embedder), and searched for the symbols nearest a text.
package vectors
