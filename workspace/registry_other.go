//go:build !linux

package workspace

import "io/fs"

// fileKey: elsewhere (no change time read here) the registry is read every time.
func fileKey(fs.FileInfo) (registryKey, bool) { return registryKey{}, false }
