package main

// The service every command is a shell over, and the printing of its answers and failures.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/tools/clusterops"
	"github.com/quarrysearch/quarry/tools/localserver"
)

// newService returns the agent-contract service of the current workspace, which draws the
// progress of an index run it starts on a terminal, and answers from the cluster the
// command's --cluster names, if any.
func newService(cmd *cobra.Command) (*tools.Service, error) { return serviceFor(cmd, true) }

// serviceFor is newService; with routed false the service never answers from a cluster (a
// node serves shards on the connection it opens itself).
func serviceFor(cmd *cobra.Command, routed bool) (*tools.Service, error) {
	root, err := primaryRoot()
	if err != nil {
		return nil, err
	}
	svc, err := tools.NewService(root)
	if err != nil {
		return nil, err
	}
	svc.SetForwarder(localserver.Client{}) // forwarding, when set, reaches the workspace's server
	// Operations on the index go to the workspace's server when one runs: it answers
	// while it writes, where this process would find the index busy.
	svc.SetForward(true)
	cliService = svc
	cliForwarded.Store(false)
	svc.OnServer = func(op string, pid int) {
		cliForwarded.Store(true)
		if op == "index" || op == "workspace" {
			fmt.Fprintf(cmd.ErrOrStderr(), "quarry: handing %s to quarry process %d, which serves this workspace\n", op, pid)
		}
	}
	if !routed {
		svc.SetForward(false)
	} else if err := attachCluster(cmd, svc); err != nil {
		return nil, err
	}
	var p *progress
	svc.OnIndexStart = func(e tools.Entry) { p = newProgress(cmd.ErrOrStderr(), "indexing "+e.Name) }
	svc.Progress = func(pr tools.Progress) { p.update(pr) }
	svc.OnIndexEnd = func() { p.finish() }
	return svc, nil
}

// attachCluster makes svc answer from the cluster the command's --cluster names, if any:
// nothing is forwarded to a local server then, and the connection lives as long as the
// process.
func attachCluster(cmd *cobra.Command, svc *tools.Service) error {
	f := cmd.Flags().Lookup("cluster")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	creds := ""
	if cf := cmd.Flags().Lookup("nats-creds"); cf != nil {
		creds = cf.Value.String()
	}
	if err := clusterops.AttachTo(cmd.Context(), svc, clusterops.Connection{URL: f.Value.String(), CredsFile: creds, Name: "quarry " + cmd.Name()}); err != nil {
		return err
	}
	svc.SetForward(false)
	return nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonFailure prints the contract's failure envelope of err on stdout when the output is
// JSON, and returns err as the CLI reports it: the contract's input errors (bad query or
// value, unknown workspace, path outside the workspace, ...) are usage errors, exit code 2;
// a symbol that names no definition is nothing found, exit code 1.
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
	if env.Error.Code == tools.CodeNotFound && env.Error.Path == "symbol" {
		// No such definition: the request was right and found nothing (exit 1, as goto).
		if !jsonOut {
			fmt.Fprintf(cmd.ErrOrStderr(), "quarry: %v\n", err)
		}
		return errNothingFound
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

// serveWorkspace makes svc the local server of its workspace (tools.Service.Listen) for as
// long as the command runs: other quarry processes ask it instead of finding the index busy.
// It returns the server (nil when svc does not serve) and, when another process serves the
// workspace already, that process's id.
func serveWorkspace(cmd *cobra.Command, svc *tools.Service) (*localserver.LocalServer, int) {
	ls, err := localserver.Listen(svc)
	var running *localserver.ServerRunningError
	switch {
	case errors.As(err, &running):
		return nil, max(running.PID, 1)
	case err != nil:
		fmt.Fprintf(cmd.ErrOrStderr(), "quarry: not serving other quarry processes: %v\n", err)
		return nil, 0
	}
	svc.SetForward(false) // it is the server
	return ls, 0
}
