//go:build linux

package workspace

import (
	"io/fs"
	"syscall"
)

// fileKey is registryKey of the file st describes.
func fileKey(st fs.FileInfo) (registryKey, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return registryKey{}, false
	}
	return registryKey{ino: int64(sys.Ino), size: st.Size(), mtime: st.ModTime().UnixNano(), ctime: sys.Ctim.Nano()}, true
}
