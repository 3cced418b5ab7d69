// Command navcheck measures Quarry's navigation (refs and callers) against compiler-grade
// oracles (bench/nav.sh, bench/nav/README.md). Standard library only.
//
//	navcheck compare -root REPO -oracle FILE.jsonl [-quarry BIN] [-lang L -repo R] [-v]
//	navcheck oracle-go -root DIR [-n 150] [-seed S]
//
// compare runs quarry refs (and quarry callers for callables) on every definition of an
// oracle's JSON lines and prints one markdown table row of recall, precision and silent
// share at line granularity. oracle-go is the Go oracle: go/types over a GOPATH-layout
// package tree, printing the JSON lines compare reads.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "compare":
		return runCompare(args[1:], stdout, stderr)
	case "oracle-go":
		return runOracleGo(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "navcheck: unknown command %q (want compare or oracle-go)\n%s\n", args[0], usage)
	return 2
}

const usage = `usage:
  navcheck compare -root REPO -oracle FILE.jsonl [-quarry BIN] [-lang L] [-repo R] [-j 2] [-v] [-top 15] [-header] [-misses FILE]
  navcheck oracle-go -root DIR [-n 150] [-seed quarry-nav]`
