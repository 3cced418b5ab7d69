// Command train builds Quarry's code-search model (package codemodel) from public source:
//
//	go run ./train pairs -src DIR -out PAIRS   documented definitions as (doc comment, code) pairs
//	go run ./train fit -pairs PAIRS -out MODEL -seed N [-dim 128 -epochs 3 -batch 512]
//	go run ./train eval -model MODEL -src DIR [-n 1000 -seed 1 -query first -code name,sig,body]
//	go run ./train rerank -ws DIR -out RERANKER [-queries FILE,...]   the learned reranker (rerank.go)
//
// pairs walks a source tree with the workspace's rules, extracts every file with Quarry's
// extractors and writes one JSON line per documented definition (pairs.go); fit trains a
// neural bag of words on them with in-batch negatives and writes the model file (fit.go);
// eval measures a model on the documented definitions of a tree it was not trained on,
// against BM25 and fused with it (eval.go).
// All three are deterministic: the same input and seed give the same bytes (eval: the same
// MRRs, its timing aside).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// Exit codes.
const (
	exitOK       = 0
	exitUsage    = 2
	exitInternal = 3
)

const usage = `usage:
  train pairs -src DIR -out FILE [-exclude PREFIX,...]
  train fit -pairs FILE[,FILE...] -out MODEL [-seed N -dim 128 -epochs 3 -batch 512 ...]
  train eval -model MODEL -src DIR [-n 1000 -seed 1 -query first|doc -code name,sig,body -strip-name -out FILE]
  train rerank -ws DIR -out RERANKER [-queries FILE,... -synthetic 400 -seed 1 -trees 300 -leaves 12 -lr 0.05]`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	switch {
	case err == nil:
		os.Exit(exitOK)
	case errors.Is(err, flag.ErrHelp), errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, err)
		os.Exit(exitUsage)
	default:
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(exitInternal)
	}
}

// usageError is a command line that cannot be run.
type usageError string

func (e usageError) Error() string { return string(e) }

// run runs the subcommand args[0].
func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return usageError(usage)
	}
	switch args[0] {
	case "pairs":
		return runPairs(ctx, args[1:], out)
	case "fit":
		return runFit(ctx, args[1:], out)
	case "eval":
		return runEval(ctx, args[1:], out)
	case "rerank":
		return runRerank(ctx, args[1:], out)
	}
	return usageError(fmt.Sprintf("unknown command %q\n%s", args[0], usage))
}

// parseFlags parses args into fs, turning its errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return usageError(fmt.Sprintf("%s: %v\n%s", fs.Name(), err, usage))
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("%s: unexpected arguments %q\n%s", fs.Name(), fs.Args(), usage))
	}
	return nil
}
