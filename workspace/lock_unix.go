//go:build unix

package workspace

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes flock(2) on f without waiting; errWouldBlock when another open file holds it.
// The kernel releases it when f's last descriptor closes, as it does when the process dies.
func tryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errWouldBlock
	}
	return err
}
