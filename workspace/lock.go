package workspace

// The index lock. An index run holds flock(2) on indexDir/index.lock for as long as it
// writes: the kernel drops the lock when the holder's descriptors close, so a process that
// dies (killed, and even not yet reaped: a zombie has no descriptors) leaves no lock behind.
// The holder writes its pid into the file for messages only; whether the lock is held is
// never told by the pid. The holder removes the file when it finishes; a run that locked
// a file another run removed meanwhile (it opened the file before the removal) finds the
// path naming another file, or none, and tries again.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarrysearch/quarry/index/store"
)

// lockFile marks an index directory that an Index run is writing.
const lockFile = "index.lock"

// lockAttempts bounds the tries of lock when the lock file is removed under it.
const lockAttempts = 10

// probeRetries and probePause are how often and after how long lock tries again when the
// lock is held, which may be only by a probe (isLocked).
const (
	probeRetries = 3
	probePause   = 5 * time.Millisecond
)

// ErrLocked is returned when another live process is indexing the same workspace.
var ErrLocked = errors.New("another quarry index run is writing this index")

// errWouldBlock is returned by tryLock when another open file holds the lock.
var errWouldBlock = errors.New("lock held")

// held holds the index directories whose lock this process holds.
var held sync.Map // indexDir -> struct{}

// lock takes the index directory's lock; unlock releases it.
func lock(indexDir string) (unlock func(), err error) {
	if err := os.MkdirAll(indexDir, store.DirMode); err != nil {
		if store.NotWritable(err) {
			return nil, fmt.Errorf("workspace: %s: %w: %v", indexDir, store.ErrNotWritable, err)
		}
		return nil, fmt.Errorf("workspace: %w", err)
	}
	p := filepath.Join(indexDir, lockFile)
	for range lockAttempts {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, store.FileMode)
		if err != nil {
			if store.NotWritable(err) {
				return nil, fmt.Errorf("workspace: %s: %w: %v", indexDir, store.ErrNotWritable, err)
			}
			return nil, fmt.Errorf("workspace: lock %s: %w", p, err)
		}
		if err := tryLockProbed(f); err != nil {
			f.Close()
			if !errors.Is(err, errWouldBlock) {
				return nil, fmt.Errorf("workspace: lock %s: %w", p, err)
			}
			return nil, lockedError(p)
		}
		if !sameFile(f, p) { // removed by the run that held it before us
			f.Close()
			continue
		}
		_ = f.Truncate(0)
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		held.Store(indexDir, struct{}{})
		return func() {
			held.Delete(indexDir)
			os.Remove(p) // before the lock is released: a waiting run then opens a new file
			f.Close()
		}, nil
	}
	return nil, fmt.Errorf("workspace: lock %s: %w", p, ErrLocked)
}

// tryLockProbed is tryLock, trying again a few times shortly after: isLocked of another
// process holds the lock for a moment to test it.
func tryLockProbed(f *os.File) error {
	err := tryLock(f)
	for i := 0; i < probeRetries && errors.Is(err, errWouldBlock); i++ {
		time.Sleep(probePause)
		err = tryLock(f)
	}
	return err
}

// lockedError is ErrLocked naming the holder of the lock file p when it wrote its pid.
func lockedError(p string) error {
	if pid := lockOwner(p); pid > 0 {
		return fmt.Errorf("workspace: %w (pid %d; %s)", ErrLocked, pid, p)
	}
	return fmt.Errorf("workspace: %w (%s)", ErrLocked, p)
}

// sameFile reports whether f is the file at path p.
func sameFile(f *os.File, p string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(p)
	return err == nil && os.SameFile(a, b)
}

// isLocked reports whether another process holds the lock of indexDir.
func isLocked(indexDir string) bool {
	if _, ok := held.Load(indexDir); ok {
		return false
	}
	f, err := os.Open(filepath.Join(indexDir, lockFile))
	if err != nil {
		return false
	}
	defer f.Close()
	return errors.Is(tryLock(f), errWouldBlock) // a lock taken here is dropped by Close
}

// lockOwner returns the pid the holder of the lock file p wrote, or 0.
func lockOwner(p string) int {
	data, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}
