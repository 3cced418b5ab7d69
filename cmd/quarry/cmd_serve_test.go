package main

import (
	"strings"
	"testing"
)

// TestServeRefusesRemote: quarry serve listens on loopback only unless --allow-remote, and
// says so.
func TestServeRefusesRemote(t *testing.T) {
	root := exprRoot(t)
	code, _, errOut := quarry(t, "", "--root", root, "serve", "--addr", "0.0.0.0:7777")
	if code == exitOK || !strings.Contains(errOut, "--addr 0.0.0.0:7777 would listen beyond this machine") {
		t.Errorf("serve on 0.0.0.0: exit %d, %s", code, errOut)
	}
	code, _, errOut = quarry(t, "", "--root", root, "serve", "--addr", "nonsense")
	if code == exitOK || !strings.Contains(errOut, "give HOST:PORT") {
		t.Errorf("serve on nonsense: exit %d, %s", code, errOut)
	}
}
