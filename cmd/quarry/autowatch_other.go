//go:build !unix

package main

import "os/exec"

// detach: elsewhere the watcher stays in the command's process group.
func detach(*exec.Cmd) {}
