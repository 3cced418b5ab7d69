package main

// The service every command is a shell over, and the printing of its answers and failures.

import (
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// newService returns the agent-contract service of the current workspace, which draws the
// progress of an index run it starts on a terminal.
func newService(cmd *cobra.Command) (*tools.Service, error) {
	root, err := primaryRoot()
	if err != nil {
		return nil, err
	}
	svc, err := tools.NewService(root)
	if err != nil {
		return nil, err
	}
	var p *progress
	svc.OnIndexStart = func(e workspace.Entry) { p = newProgress(cmd.ErrOrStderr(), "indexing "+e.Name) }
	svc.Progress = func(pr workspace.Progress) { p.update(pr) }
	svc.OnIndexEnd = func() { p.finish() }
	return svc, nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonFailure prints the contract's failure envelope of err on stdout when the output is
// JSON, and returns err as the CLI reports it: the contract's input errors (bad query or
// value, unknown workspace, path outside the workspace, ...) are usage errors, exit code 2.
func jsonFailure(cmd *cobra.Command, jsonOut bool, err error) error {
	env := tools.Fail(err)
	var ue *usageError
	isUsage := errors.As(err, &ue)
	if isUsage && env.Error.Code == tools.CodeInternal {
		env.Error.Code = tools.CodeBadValue
	}
	if jsonOut {
		_ = writeJSON(cmd.OutOrStdout(), env)
	}
	switch env.Error.Code {
	case tools.CodeInternal, tools.CodeBusy, tools.CodeTimeout:
		return err
	}
	if isUsage {
		return err
	}
	return &usageError{cmd: cmd.CommandPath(), err: err}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
