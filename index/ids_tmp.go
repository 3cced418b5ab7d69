package index

// SymbolDocID is the full-text document id of a symbol.
func SymbolDocID(symbolID string) string { return "s:" + symbolID }

// FileDocID is the full-text document id of a file.
func FileDocID(path string) string { return "f:" + path }
