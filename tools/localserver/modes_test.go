package localserver

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// The local server's directory, socket and lock are its owner's only, whatever the umask.
func TestLocalServerFilesArePrivate(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := tools.NewService(root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ls, err := Listen(s)
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	data := filepath.Join(root, workspace.DataDir)
	for p, want := range map[string]os.FileMode{
		data:                                    0o700,
		filepath.Join(data, SocketFile):         0o600,
		filepath.Join(data, SocketFile+".lock"): 0o600,
	} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
}
