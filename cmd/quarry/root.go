package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/quarrysearch/quarry/tools"
)

// version is the release version; the agent contract has its own version.
var version = "0.1.0-dev"

// run builds the command tree and executes args.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	started := false
	for _, c := range root.Commands() {
		wrapRun(c, &started)
	}
	stopProfile := func() {}
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		var err error
		stopProfile, err = startProfile(cpuProfile, memProfile)
		return err
	}
	err := root.ExecuteContext(ctx)
	stopProfile()
	if err != nil && !started {
		// Cobra's own errors (unknown command, bad flag, wrong argument count) come before
		// any command runs: all of them are usage errors.
		if _, ok := err.(*usageError); !ok {
			return &usageError{cmd: commandPath(root, args), err: oneLine(err)}
		}
	}
	return err
}

// wrapRun marks, for each command below c, when its RunE starts.
func wrapRun(c *cobra.Command, started *bool) {
	if c.RunE != nil {
		inner := c.RunE
		c.RunE = func(cmd *cobra.Command, args []string) error {
			*started = true
			err := inner(cmd, args)
			maybeAutoWatch(cmd)
			return err
		}
	}
	for _, sub := range c.Commands() {
		wrapRun(sub, started)
	}
}

// commandPath names the deepest command that args reach, for the "Run ... --help" hint.
func commandPath(root *cobra.Command, args []string) string {
	c, _, err := root.Find(args)
	if err != nil || c == nil {
		return root.Name()
	}
	return c.CommandPath()
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "quarry",
		Short: "Code-aware symbol and content search for a workspace",
		Long: fmt.Sprintf(`Quarry indexes a workspace of source code (symbols, identifiers, relationships and
file content, in %s languages) and finds definitions, text, files and references in
milliseconds, for people on the command line and for AI agents over MCP.`, languageCount()),
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.PersistentFlags().StringVar(&rootFlag, "root", "", "the workspace root (default: found from the current directory)")
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to this file")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentFlags().StringVar(&memProfile, "memprofile", "", "write a heap profile, taken when the live heap was largest, to this file")
	_ = root.PersistentFlags().MarkHidden("memprofile")
	root.AddCommand(newTokensCmd(), newSymbolsCmd(), newOutlineCmd(), newIndexCmd(), newWorkspaceCmd(), newHealthCmd(), newSearchCmd(), newGotoCmd(), newRefsCmd(), newCallsCmd(tools.CallsCallers), newCallsCmd(tools.CallsCallees), newExplainCmd(), newSchemaCmd(), newDescribeCmd(), newCapabilitiesCmd(), newAgentVersionCmd(), newMCPCmd(), newWatchCmd(), newQueryHelpTopic(), newBatchCmd(), newServeCmd(), newNodeCmd(), newClusterCmd())
	for _, c := range root.Commands() {
		if clusterCommands[c.Name()] {
			new(clusterFlags).add(c, false)
		}
	}
	return root
}

// languageCount is the number of languages of the language files, for the help text.
func languageCount() string {
	c, err := tools.GetCapabilities()
	if err != nil {
		return "many"
	}
	return strconv.Itoa(len(c.Languages))
}

var unknownFlagRE = regexp.MustCompile(`unknown (?:shorthand )?flag: '?-*([^' ]+)'?`)

// flagError turns a flag parsing error into a usage error with a "did you mean" suggestion.
func flagError(cmd *cobra.Command, err error) error {
	m := unknownFlagRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	var names []string
	add := func(f *pflag.Flag) {
		if !f.Hidden { // the profiling flags are for developers, not offered
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	// Once each: the command's flags include the inherited ones it has parsed.
	sort.Strings(names)
	names = slices.Compact(names)
	msg := err.Error()
	if s := tools.Suggest(m[1], names); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean --%s?", strings.Join(s, " or --"))
	} else {
		msg += "; known flags: --" + strings.Join(names, ", --")
	}
	return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("%s", msg)}
}

// oneLine folds cobra's multi-line messages ("unknown command ...\n\nDid you mean this?\n\tx")
// into one line.
func oneLine(err error) error {
	msg := strings.TrimSpace(err.Error())
	msg = strings.ReplaceAll(msg, "\n\nDid you mean this?\n\t", "; did you mean ")
	msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n\t", " or ")), " ")
	if strings.Contains(msg, "did you mean") {
		msg += "?"
	}
	return errors.New(msg)
}

// cpuProfile and memProfile are the hidden --cpuprofile and --memprofile flags: where to write
// pprof CPU and heap profiles.
var cpuProfile, memProfile string

// startProfile starts CPU profiling into cpuPath and heap watching for memPath ("" does
// nothing) and returns their stop.
func startProfile(cpuPath, memPath string) (func(), error) {
	stopCPU, err := startCPUProfile(cpuPath)
	if err != nil {
		return nil, err
	}
	stopMem := startHeapWatch(memPath)
	return func() { stopMem(); stopCPU() }, nil
}

func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// startHeapWatch samples the live heap every half second and, each time it is 10% above the
// largest seen so far, writes a heap profile to path: what the profile shows is the heap at
// (close to) its peak.
func startHeapWatch(path string) func() {
	if path == "" {
		return func() {}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); live > peak+peak/10 {
				peak = live
				if f, err := os.Create(path); err == nil {
					_ = pprof.Lookup("heap").WriteTo(f, 0)
					f.Close()
				}
			}
		}
	}()
	return func() { close(stop); <-done }
}
