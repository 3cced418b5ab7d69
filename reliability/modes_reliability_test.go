package reliability

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/tools/localserver"
	"github.com/quarrysearch/quarry/workspace"
)

// modesSecret is the content of the tree's secrets.env, which only its owner may read.
const modesSecret = "QUARRY_MODES_TOKEN=hunter2"

// socketWait bounds how long quarry mcp takes to create its socket.
const socketWait = 30 * time.Second

// wideModes lists every path under dir that the group or other users may use, with its mode;
// n is how many paths there are.
func wideModes(t *testing.T, dir string) (wide []string, n int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone since its directory was listed (a temporary file renamed)
		}
		if err != nil {
			return err
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // a running server's registry.json.tmp, renamed in place meanwhile
		}
		if err != nil {
			return err
		}
		n++
		if info.Mode().Perm()&0o077 != 0 {
			rel, _ := filepath.Rel(dir, p)
			wide = append(wide, rel+" "+info.Mode().String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return wide, n
}

// checkPrivate fails when anything under the workspace's .quarry/ is open to the group or
// other users.
func checkPrivate(t *testing.T, root, after string) {
	t.Helper()
	data := filepath.Join(root, workspace.DataDir)
	wide, n := wideModes(t, data)
	if len(wide) > 0 {
		t.Errorf("after %s, %d of %d paths under .quarry/ are open to other users:\n  %s", after, len(wide), n, strings.Join(wide, "\n  "))
	} else {
		t.Logf("after %s: all %d paths under .quarry/ are private", after, n)
	}
}

// An index holds the content of every file it indexed, so it is as private as the most
// private of them. Under umask 0022, quarry index of a tree with a 0600 secrets.env leaves
// nothing under .quarry/ that the group or other users may read, and neither does a running
// quarry mcp (its socket, the store's -wal and -shm). An index an older Quarry made (every
// directory 0755, every file 0644) is private again after a quarry search and after a
// quarry index.
func TestIndexFileModes(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	root := t.TempDir()
	writeTree(t, root, map[string]string{"app/main.go": goFile("main", "Serve", 3)})
	if err := os.WriteFile(filepath.Join(root, "secrets.env"), []byte(modesSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := quarryAs(nil, 0, root, "index"); err != nil {
		t.Fatalf("quarry index: %v\n%s", err, stderr)
	}
	// The secret is in the index, so its files are what must be private.
	if out, stderr, err := quarryAs(nil, 0, root, "search", "hunter2"); err != nil || !bytes.Contains(out, []byte("secrets.env")) {
		t.Fatalf("quarry search hunter2: %v\n%s%s; want secrets.env", err, out, stderr)
	}
	checkPrivate(t, root, "a fresh quarry index")
	mcpRunning(t, root)

	data := filepath.Join(root, workspace.DataDir)
	setModes(t, data, 0o755, 0o644)
	if wide, _ := wideModes(t, data); len(wide) == 0 {
		t.Fatal("setModes left .quarry/ private; the upgrade case tests nothing")
	}
	if _, stderr, err := quarryAs(nil, 0, root, "search", "x"); err != nil && !isExit(err, 1) {
		t.Fatalf("quarry search x: %v\n%s", err, stderr)
	}
	checkPrivate(t, root, "quarry search over an index an older quarry made")

	setModes(t, data, 0o755, 0o644)
	if _, stderr, err := quarryAs(nil, 0, root, "index"); err != nil {
		t.Fatalf("quarry index over an index an older quarry made: %v\n%s", err, stderr)
	}
	checkPrivate(t, root, "quarry index over an index an older quarry made")
}

// mcpRunning starts quarry mcp in root, checks .quarry/ while it serves (its socket exists),
// and stops it.
func mcpRunning(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command(quarryBin, "mcp")
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close() // the end of its input stops it
		if err := cmd.Wait(); err != nil {
			t.Errorf("quarry mcp: %v\n%s", err, stderr.Bytes())
		}
	}()
	sock := filepath.Join(root, workspace.DataDir, localserver.SocketFile)
	for deadline := time.Now().Add(socketWait); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("quarry mcp made no socket %s in %v:\n%s", sock, socketWait, stderr.Bytes())
			return
		}
	}
	// A search through the server opens the store: its -wal and -shm files exist.
	if _, errOut, err := quarryAs(nil, 0, root, "search", "hunter2"); err != nil {
		t.Errorf("quarry search while quarry mcp serves: %v\n%s", err, errOut)
	}
	checkPrivate(t, root, "a search while quarry mcp serves")
}

// isExit reports whether err is an exit with status code.
func isExit(err error, code int) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == code
}
