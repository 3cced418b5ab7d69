// Package index writes a workspace's index: Writer is the one owner of consistency between
// the store (package store, the source of truth), the full-text index (package fulltext)
// and the symbol vectors (package vectors). Every change goes to the store first, in a
// transaction that logs the full-text documents it adds and deletes; the applier writes
// them to the full-text index in the background; a run that did not finish has its log
// replayed by the next, and a missing, stale or corrupt full-text index is rebuilt from the
// store.
package index
