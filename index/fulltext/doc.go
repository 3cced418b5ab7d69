// Package fulltext is the bleve full-text index built from the store's records: its mapping
// and analyzers, the documents of files and symbols, the queries compiled from what a
// search asks (plain words or a query-language expression, within a Filter), the bulk fill
// of a first load, the measured field lengths BM25 scores with, and the terms of a field
// kept in memory. It is the only package that imports bleve.
package fulltext
