package main

import (
	"fmt"
	"io"

	"github.com/quarrysearch/quarry/tools"
)

// A list cut short says so on standard error, in one form for every command, so that
// standard output keeps one result a line: what was shown of how many (when the count is
// known), and the flag that shows the rest.
//
//	(10 of 22 definitions shown; --limit 22 for all)
//	(first 10 results shown; --limit 20 for more)
//	(50 of 120 uses shown; --cursor 50 for the next page)
//	(10 results on this page; --cursor eyJv... for the next page)
//	(34 more uses of Next left unresolved; --unresolved lists them)

// printCut tells w that shown of total results (total <= shown: unknown, more exist) named
// noun were listed, and how to see the rest (more).
func printCut(w io.Writer, shown, total int, noun, more string) {
	if total > shown {
		fmt.Fprintf(w, "(%d of %d %s shown; %s)\n", shown, total, noun, more)
		return
	}
	fmt.Fprintf(w, "(first %d %s shown; %s)\n", shown, noun, more)
}

// moreByLimit is the --limit advice for a list cut at shown of total results (total <=
// shown: unknown).
func moreByLimit(shown, total int) string {
	switch {
	case total > shown && total <= tools.MaxLimit:
		return fmt.Sprintf("--limit %d for all", total)
	case total > shown || 2*shown > tools.MaxLimit:
		return fmt.Sprintf("--limit %d for more", tools.MaxLimit)
	}
	return fmt.Sprintf("--limit %d for more", 2*shown)
}

// printUnresolved tells w that n uses (noun: "use" or "call") of symbol were left out
// because no rule ties them to a definition, and what lists them.
func printUnresolved(w io.Writer, n int, noun, symbol, lists string) {
	if n <= 0 {
		return
	}
	if n != 1 {
		noun += "s"
	}
	fmt.Fprintf(w, "(%d more %s of %s left unresolved; %s lists them)\n", n, noun, symbol, lists)
}
