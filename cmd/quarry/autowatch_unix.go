//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach runs c in a session of its own: the terminal's signals (Ctrl-C, its closing) are
// not its.
func detach(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
