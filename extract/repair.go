package extract

import "unicode/utf8"

// Some grammars never finish parsing some half-written files: tree-sitter's error recovery
// loops at the end of the input inside an unclosed block (the Groovy grammar on
// `x { def f() { "`), until the parse times out and the file is lost. A language whose
// grammar does so registers a repair: a function that returns the source with what is left
// open at its end closed (a quote, brackets, braces), or the source itself when nothing is.
// The repaired source is parsed and walked; the spans that reach into the added text end at
// the end of the file instead.
var repairs = map[string]func(src []byte) []byte{}

// registerRepair adds a language's repair; it is called from the init of its lang_*.go file.
func registerRepair(lang string, fn func(src []byte) []byte) {
	if repairs[lang] != nil {
		panic("extract: two repairs for " + lang)
	}
	repairs[lang] = fn
}

// repair returns src as the repair of lang gives it, or src when lang has none.
func repair(lang string, src []byte) []byte {
	if fn := repairs[lang]; fn != nil {
		return fn(src)
	}
	return src
}

// clampSpans cuts the spans of f that end past the end of src (in text a repair added) back
// to the end of src.
func clampSpans(f *File, src []byte) {
	if len(f.Symbols) == 0 && len(f.Identifiers) == 0 {
		return
	}
	end := endOf(src)
	for i := range f.Symbols {
		clampSpan(&f.Symbols[i].Span, end)
	}
	for i := range f.Identifiers {
		clampSpan(&f.Identifiers[i].Span, end)
	}
}

// clampSpan cuts s back to end when it ends past it.
func clampSpan(s *Span, end Span) {
	if s.EndByte > end.EndByte {
		s.EndLine, s.EndColumn, s.EndByte = end.EndLine, end.EndColumn, end.EndByte
	}
}

// endOf returns the position just past the last character of src, in its end fields.
func endOf(src []byte) Span {
	line, lineStart := 1, 0
	for i, c := range src {
		if c == '\n' {
			line, lineStart = line+1, i+1
		}
	}
	return Span{EndLine: line, EndColumn: utf8.RuneCount(src[lineStart:]) + 1, EndByte: len(src)}
}
