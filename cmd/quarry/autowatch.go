package main

// The watcher a search starts. A command that answers from the index itself (no quarry mcp,
// serve or watch of the workspace runs) has compared the whole workspace with the index
// first, a stat of every file: on a large tree that is most of its time. So it leaves a
// watcher behind (quarry watch --idle-exit), which the next commands ask instead: it knows
// what changed from the file system's events. The watcher stops once no command has asked
// it anything for the idle time. QUARRY_AUTOWATCH sets that time (a duration, like 30m),
// or turns this off (0, off, false, no).

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarrysearch/quarry/tools"
)

// autoWatchIdle is how long a watcher a command started waits for the next command.
const autoWatchIdle = 10 * time.Minute

// autoWatchCommands are the commands that start one: those that read the index.
var autoWatchCommands = map[string]bool{
	"search": true, "goto": true, "refs": true, "callers": true, "callees": true,
	"explain": true, "symbols": true, "q": true,
}

// cliService is the service the running command made (newService), and cliForwarded says
// whether it handed an operation to the workspace's server.
var (
	cliService   *tools.Service
	cliForwarded atomic.Bool
)

// autoWatchSetting reads QUARRY_AUTOWATCH: the idle time, or 0 when it is off.
func autoWatchSetting() (time.Duration, error) {
	v := strings.TrimSpace(os.Getenv("QUARRY_AUTOWATCH"))
	switch strings.ToLower(v) {
	case "":
		return autoWatchIdle, nil
	case "0", "off", "false", "no":
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("QUARRY_AUTOWATCH=%q: want a duration (like 30m) or 0 to never start a watcher", v)
	}
	return d, nil
}

// maybeAutoWatch starts a watcher of the workspace after cmd answered from the index itself.
func maybeAutoWatch(cmd *cobra.Command) {
	svc := cliService
	if svc == nil || cliForwarded.Load() || !svc.Forwarding() || !autoWatchCommands[cmd.Name()] || !svc.Indexed() {
		return // a server answered, or a cluster, or nothing was read from the index
	}
	idle, err := autoWatchSetting()
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "quarry: %v\n", err)
		return
	}
	if idle == 0 {
		return
	}
	exe, err := os.Executable()
	if err != nil || strings.HasSuffix(exe, ".test") {
		return // a test binary never starts itself
	}
	pid, err := startWatcher(exe, svc.Root(), idle)
	if !isTerminal(cmd.ErrOrStderr()) {
		return // a script's or an agent's output stays the command's own
	}
	if err != nil { // a read-only .quarry/, say: the next commands compare the workspace themselves
		fmt.Fprintf(cmd.ErrOrStderr(), "quarry: could not start a watcher for the next searches: %v\n", err)
		return
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "quarry: started a watcher (process %d) so the next searches skip the scan of the workspace; it stops after %v without one (QUARRY_AUTOWATCH=0: never start one)\n", pid, idle)
}

// startWatcher starts quarry watch --idle-exit idle for the workspace at root in a session
// of its own, its output appended to .quarry/logs/watch.log, and returns its process id.
func startWatcher(exe, root string, idle time.Duration) (int, error) {
	logs := filepath.Join(root, tools.DataDir, "logs")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		return 0, err
	}
	log, err := os.OpenFile(filepath.Join(logs, "watch.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, err
	}
	defer log.Close()
	c := exec.Command(exe, "watch", "--idle-exit", idle.String(), "--root", root)
	c.Dir, c.Stdout, c.Stderr = root, log, log
	c.Env = append(os.Environ(), "QUARRY_AUTOWATCH=0")
	detach(c)
	if err := c.Start(); err != nil {
		return 0, err
	}
	pid := c.Process.Pid
	return pid, c.Process.Release()
}
