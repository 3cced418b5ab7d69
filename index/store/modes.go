package store

// File modes. An index holds the content of every file it indexed, so it is as private as
// the most private of them: every directory Quarry creates is DirMode and every file
// FileMode, whatever the umask. What a library creates with modes of its own (bleve's
// index_meta.json is 0666 less the umask) and what an older Quarry left (0755 and 0644) is
// made private by Tighten.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DirMode is the mode of every directory Quarry creates: its owner's only.
const DirMode os.FileMode = 0o700

// FileMode is the mode of every file Quarry creates: its owner's only.
const FileMode os.FileMode = 0o600

// privateBits are the permission bits Tighten removes: the group's and everyone else's.
const privateBits os.FileMode = 0o077

// Tighten removes the group's and other users' permissions from dir and everything under it.
// Symbolic links are left alone (a chmod would change their target). A file that vanishes
// meanwhile (a segment merged away) is skipped, and so is one this process may not change
// (another user's, a read-only file system): it stays as it is, to be read or refused by
// the open that follows.
func Tighten(dir string) error {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return nil
			}
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		mode := info.Mode().Perm()
		if mode&privateBits == 0 {
			return nil
		}
		err = os.Chmod(p, mode&^privateBits)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !NotWritable(err) {
			return err
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("index: make %s private: %w", dir, err)
	}
	return nil
}
