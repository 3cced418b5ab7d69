// Command quarry indexes a workspace of source code and searches it: definitions, text, files
// and references, for people on the command line and for AI agents over MCP.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/quarrysearch/quarry/tools"
)

// Exit codes.
const (
	exitOK       = 0 // found, or done
	exitNotFound = 1 // ran fine, nothing found
	exitUsage    = 2 // bad flags, arguments or input
	exitInternal = 3 // anything else
)

// defaultMemoryLimit is the soft limit of the Go heap (see runtime/debug.SetMemoryLimit)
// unless GOMEMLIMIT sets another. Indexing allocates far more than it keeps (the analysis of
// a full-text batch is garbage once its segment is built); without a limit the heap grows to
// twice its live size between collections. Measured on corpus.sh full (292 MB, 2 cores):
// peak RSS 1.68 GB without it, 1.35 GB with it, at no cost in wall time.
const defaultMemoryLimit = 1 << 30

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(report(err, os.Stderr))
}

// report prints err (if any) and returns the process exit code for it.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	if code != exitNotFound || !errors.Is(err, errNothingFound) {
		fmt.Fprintf(stderr, "quarry: %v\n", err)
	}
	if code == exitUsage {
		var ue *usageError
		if errors.As(err, &ue) && ue.cmd != "" {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", ue.cmd)
		}
	}
	return code
}

// exitCode maps an error to the exit code the documentation promises.
func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errNothingFound):
		return exitNotFound
	case errors.As(err, &ue), requestError(err):
		return exitUsage
	default:
		return exitInternal
	}
}

// requestError reports whether err is an error of the agent contract about the request (a
// bad value, an unknown workspace, a missing file, ...) rather than a failure of Quarry or
// its environment.
func requestError(err error) bool {
	var e *tools.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case tools.CodeInternal, tools.CodeBusy, tools.CodeTimeout:
		return false
	}
	return true
}

// errNothingFound ends a command that ran fine but found nothing.
var errNothingFound = errors.New("nothing found")

// usageError is a mistake in the command line or its input; cmd names the command whose help
// explains the right form.
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, args...)}
}
