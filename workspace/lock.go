package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/quarrysearch/quarry/index"
)

// lockFile marks an index directory that an Index run is writing.
const lockFile = "index.lock"

// ErrLocked is returned when another live process is indexing the same workspace.
var ErrLocked = errors.New("another quarry index run is writing this index")

// lock takes the index directory's lock, replacing one left by a process that died.
func lock(indexDir string) (unlock func(), err error) {
	if err := os.MkdirAll(indexDir, index.DirMode); err != nil {
		if index.NotWritable(err) {
			return nil, fmt.Errorf("workspace: %s: %w: %v", indexDir, index.ErrNotWritable, err)
		}
		return nil, fmt.Errorf("workspace: %w", err)
	}
	p := filepath.Join(indexDir, lockFile)
	for range 2 {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, index.FileMode)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if index.NotWritable(err) {
			return nil, fmt.Errorf("workspace: %s: %w: %v", indexDir, index.ErrNotWritable, err)
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("workspace: lock %s: %w", p, err)
		}
		if pid := lockOwner(p); pid > 0 && processAlive(pid) {
			return nil, fmt.Errorf("workspace: %w (pid %d; %s)", ErrLocked, pid, p)
		}
		os.Remove(p) // left by a process that died
	}
	return nil, fmt.Errorf("workspace: lock %s: %w", p, ErrLocked)
}

// isLocked reports whether a live process holds the lock of indexDir.
func isLocked(indexDir string) bool {
	pid := lockOwner(filepath.Join(indexDir, lockFile))
	return pid > 0 && pid != os.Getpid() && processAlive(pid)
}

func lockOwner(p string) int {
	data, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

func processAlive(pid int) bool {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return proc.Signal(syscall.Signal(0)) == nil
}
