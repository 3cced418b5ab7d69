package store

// What the external tests of this package use of its internals.
var (
	EncodeIdents  = encodeIdents
	EncodeRels    = encodeRels
	EncodeTypes   = encodeTypes
	PackContent   = packContent
	UnpackContent = unpackContent
	SQLiteDriver  = sqliteDriver
)
