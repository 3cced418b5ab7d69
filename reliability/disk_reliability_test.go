package reliability

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quarrysearch/quarry/workspace"
)

// nobody is the user the read-only case runs quarry as when the test runs as root, for whom
// permissions do not bind.
const nobody = 65534

// quarryAs runs quarry with args in root as cred's user (nil: the test's), under a file size
// limit of fsize bytes (0: none). It returns stdout, stderr and the error of the run.
func quarryAs(cred *syscall.Credential, fsize int64, root string, args ...string) (stdout, stderr []byte, err error) {
	argv := append([]string{quarryBin}, args...)
	if fsize > 0 {
		if prlimit, lerr := exec.LookPath("prlimit"); lerr == nil {
			argv = append([]string{prlimit, "--fsize=" + strconv.FormatInt(fsize, 10)}, argv...)
		} else { // the shell's ulimit counts 512-byte blocks
			argv = append([]string{"/bin/sh", "-c", fmt.Sprintf(`ulimit -f %d && exec "$0" "$@"`, fsize/512)}, argv...)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = root
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// answers returns, for each name, the first definition quarry search finds as cred's user
// ("path:line name"), or why it found none.
func answers(t *testing.T, cred *syscall.Credential, root string, names []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range names {
		stdout, stderr, err := quarryAs(cred, 0, root, "search", "--json", "--target", "definitions", "--limit", "1", name)
		var res struct {
			Results []struct {
				Path string `json:"path"`
				Line int    `json:"line"`
				Name string `json:"name"`
			} `json:"results"`
		}
		switch {
		case err != nil:
			out[name] = fmt.Sprintf("error: %v: %s", err, bytes.TrimSpace(stderr))
		case json.Unmarshal(stdout, &res) != nil || len(res.Results) == 0:
			out[name] = "no answer: " + string(stdout)
		default:
			h := res.Results[0]
			out[name] = fmt.Sprintf("%s:%d %s", h.Path, h.Line, h.Name)
		}
	}
	return out
}

// health returns quarry health --json as cred's user.
func health(t *testing.T, cred *syscall.Credential, root string) (*workspace.Health, error) {
	t.Helper()
	stdout, stderr, err := quarryAs(cred, 0, root, "health", "--json")
	var ans struct { // manage_workspace health's answer
		Health *workspace.Health `json:"health"`
	}
	if jerr := json.Unmarshal(stdout, &ans); jerr != nil || ans.Health == nil {
		return nil, fmt.Errorf("quarry health: %v (%v): %s%s", err, jerr, stdout, stderr)
	}
	return ans.Health, nil
}

// checkServing reports an error unless the old index answers as it did (before) and its
// health report finds it neither corrupt nor missing.
func checkServing(t *testing.T, cred *syscall.Credential, root, after string, names []string, before map[string]string) {
	t.Helper()
	now := answers(t, cred, root, names)
	var differ []string
	for _, name := range names {
		if now[name] != before[name] {
			differ = append(differ, name)
		}
	}
	if len(differ) > 0 {
		t.Errorf("after %s, %d of %d searches answer otherwise than before it; search %s answers %q, before it %q",
			after, len(differ), len(names), differ[0], now[differ[0]], before[differ[0]])
	}
	h, err := health(t, cred, root)
	if err != nil {
		t.Errorf("after %s: %v", after, err)
		return
	}
	for _, p := range h.Problems {
		if strings.Contains(p.What, "cannot be opened") || h.Fulltext.Status == workspace.FulltextCorrupt || h.Fulltext.Status == workspace.FulltextMissing {
			t.Errorf("after %s, quarry health: %s: %s (action: %s)", after, h.Status, p.What, p.Action)
		}
	}
}

// failedClearly reports an error unless an index run that could not write ended by itself
// (no signal, no panic) with a failure exit status and a message holding one of want.
func failedClearly(t *testing.T, what string, err error, stderr []byte, want ...string) {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		t.Errorf("%s: quarry index succeeded", what)
	case !errors.As(err, &ee):
		t.Errorf("%s: %v", what, err)
	case !ee.Exited():
		t.Errorf("%s: quarry index was killed by a signal (%v): %s", what, err, stderr)
	case bytes.Contains(stderr, []byte("panic")) || bytes.Contains(stderr, []byte("goroutine ")):
		t.Errorf("%s: quarry index crashed: %s", what, stderr)
	case !slices.ContainsFunc(want, func(w string) bool { return bytes.Contains(bytes.ToLower(stderr), []byte(w)) }):
		t.Errorf("%s: quarry index failed (%v) without saying why (want one of %q): %s", what, err, want, stderr)
	}
}

// diskTree writes 300 Go files (p00 to p14, 20 each) and returns names defined in p10 and
// above, which the cases never change, and in p00, which they do.
func diskTree(t *testing.T, root string) (kept, changed []string) {
	files := map[string]string{}
	for i := range 300 {
		pkg := fmt.Sprintf("p%02d", i/20)
		files[fmt.Sprintf("%s/f%03d.go", pkg, i)] = goFile(pkg, fmt.Sprintf("Disk%03d_", i), 20)
	}
	writeTree(t, root, files)
	for _, i := range []int{200, 215, 230, 245, 260, 275, 290, 299} {
		kept = append(kept, fmt.Sprintf("Disk%03d_%d", i, i%20))
	}
	return kept, []string{"Disk003_5", "Disk017_19"}
}

// changeTree rewrites the files of p00 to p04 (their functions keep their names and lines)
// and adds 20 files in a new directory, so that an index run has work to write.
func changeTree(t *testing.T, root string, round int) {
	files := map[string]string{}
	for i := range 100 {
		pkg := fmt.Sprintf("p%02d", i/20)
		files[fmt.Sprintf("%s/f%03d.go", pkg, i)] = strings.ReplaceAll(goFile(pkg, fmt.Sprintf("Disk%03d_", i), 20), "return x +", fmt.Sprintf("return %d*x +", round+2))
	}
	for i := range 20 {
		files[fmt.Sprintf("round%d/f%d.go", round, i)] = goFile("r", fmt.Sprintf("Round%d_%d_", round, i), 20)
	}
	writeTree(t, root, files)
}

// setModes sets the mode of every directory and file under dir.
func setModes(t *testing.T, dir string, dirMode, fileMode os.FileMode) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, dirMode)
		}
		if d.Type().IsRegular() {
			return os.Chmod(p, fileMode)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An index that cannot be written and a disk that is full fail an index run cleanly and
// cost nothing else: the run ends by itself with a failure exit status and a message that
// says what failed (no panic, no signal), the old index keeps answering searches as before
// it, quarry health finds it neither corrupt nor missing, and once the cause is gone an
// index run succeeds and equals a fresh index of the tree. A tree of 300 Go files is
// indexed, then changed (100 files rewritten, 20 added) before each failing run.
//
// Read-only: .quarry/ is made read-only (directories 0555, files 0444). Root ignores
// permissions, so as root the case runs every quarry process as the user nobody, who owns
// the index and is bound by them. Full disk: quarry index runs under a file size limit
// (prlimit --fsize, RLIMIT_FSIZE), so that its writes past the limit fail with EFBIG as on
// a full disk (the Go runtime does not die of the SIGXFSZ that comes with them); three
// limits, 64 KiB, 1 MiB and 4 MiB, stop it at different points of the run.
func TestReadOnlyAndFullDisk(t *testing.T) {
	t.Run("read-only index", testReadOnly)
	t.Run("full disk", testFullDisk)
}

func testReadOnly(t *testing.T) {
	var cred *syscall.Credential
	root := t.TempDir()
	if os.Geteuid() == 0 {
		t.Logf("running as root: quarry runs as uid %d, for whom a read-only .quarry/ is read-only", nobody)
		cred = &syscall.Credential{Uid: nobody, Gid: nobody}
		// nobody must reach the binary and the tree, and owns the workspace's directory
		// (where quarry creates .quarry/).
		for _, d := range []string{filepath.Dir(quarryBin), filepath.Dir(root), root} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chown(root, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Dir(quarryBin), 0o700) })
	}
	kept, changed := diskTree(t, root)
	names := append(slices.Clone(kept), changed...)
	if _, stderr, err := quarryAs(cred, 0, root, "index"); err != nil {
		t.Fatalf("first index: %v\n%s", err, stderr)
	}
	before := answers(t, cred, root, names)
	changeTree(t, root, 0)
	dataDir := filepath.Join(root, workspace.DataDir)
	setModes(t, dataDir, 0o555, 0o444)
	t.Cleanup(func() { setModes(t, dataDir, 0o755, 0o644) }) // before t.TempDir's removal
	start := time.Now()
	_, stderr, err := quarryAs(cred, 0, root, "index")
	took := time.Since(start)
	failedClearly(t, "a read-only .quarry/", err, stderr, "permission denied", "read-only", "readonly")
	t.Logf("quarry index with a read-only .quarry/: %v after %v: %s", err, took.Round(time.Millisecond), bytes.TrimSpace(stderr))
	// Searches in files that changed answer from the old index (marked stale): the
	// refresh they ask for cannot write either.
	checkServing(t, cred, root, "the failed run", names, before)
	setModes(t, dataDir, 0o755, 0o644)
	start = time.Now()
	if _, stderr, err := quarryAs(cred, 0, root, "index"); err != nil {
		t.Fatalf("index once .quarry/ is writable again: %v\n%s", err, stderr)
	}
	t.Logf("writable again: quarry index succeeded in %v", time.Since(start).Round(time.Millisecond))
	compareFresh(t, "once writable", inspect(t, root, names), root, "", names)
}

func testFullDisk(t *testing.T) {
	root := t.TempDir()
	kept, _ := diskTree(t, root)
	if _, stderr, err := quarryAs(nil, 0, root, "index"); err != nil {
		t.Fatalf("first index: %v\n%s", err, stderr)
	}
	// Only names in files that do not change: a search answering from a changed file would
	// refresh it, with no limit.
	before := answers(t, nil, root, kept)
	failed := 0
	for round, limit := range []int64{64 << 10, 1 << 20, 4 << 20} {
		changeTree(t, root, round)
		start := time.Now()
		_, stderr, err := quarryAs(nil, limit, root, "index")
		took := time.Since(start)
		if err == nil {
			t.Logf("limit %d KiB: the run fit under it (%v)", limit>>10, took.Round(time.Millisecond))
		} else {
			failed++
			failedClearly(t, fmt.Sprintf("limit %d KiB", limit>>10), err, stderr, "file too large", "disk is full", "no space")
			t.Logf("limit %d KiB: %v after %v: %s", limit>>10, err, took.Round(time.Millisecond), bytes.TrimSpace(stderr))
		}
		checkServing(t, nil, root, fmt.Sprintf("the run limited to %d KiB", limit>>10), kept, before)
		if h, err := health(t, nil, root); err == nil {
			t.Logf("  health after it: %s, full-text %s, %d files, %d symbols, %d full-text changes pending", h.Status, h.Fulltext.Status, h.Store.Counts.Files, h.Store.Counts.Symbols, h.Store.Counts.Pending)
		}
	}
	if failed == 0 {
		t.Error("no run failed under a file size limit: the case proves nothing")
	}
	start := time.Now()
	if _, stderr, err := quarryAs(nil, 0, root, "index"); err != nil {
		t.Fatalf("index without a limit: %v\n%s", err, stderr)
	}
	t.Logf("without the limit: quarry index succeeded in %v", time.Since(start).Round(time.Millisecond))
	compareFresh(t, "without the limit", inspect(t, root, kept), root, "", kept)
}
