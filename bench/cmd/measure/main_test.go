package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestParseStatPPID(t *testing.T) {
	for _, tc := range []struct {
		stat string
		ppid int
		ok   bool
	}{
		{"1234 (quarry) S 42 1234 1234 0 -1 4194560 1 0 0 0", 42, true},
		// A command name with spaces and a ')' of its own: fields count from the last ')'.
		{"77 (a) b (c)) R 5 77 77 0 -1 0", 5, true},
		{"9 (kworker/0:1-events) I 2 0 0 0 -1", 2, true},
		{"garbage", 0, false},
		{"12 (x) S", 0, false},
		{"12 (x) S notanumber 1", 0, false},
	} {
		ppid, ok := parseStatPPID([]byte(tc.stat))
		if ppid != tc.ppid || ok != tc.ok {
			t.Errorf("parseStatPPID(%q) = %d, %v; want %d, %v", tc.stat, ppid, ok, tc.ppid, tc.ok)
		}
	}
}

func TestParseVmRSS(t *testing.T) {
	status := "Name:\tquarry\nState:\tS (sleeping)\nVmPeak:\t  999999 kB\nVmHWM:\t   88888 kB\nVmRSS:\t   12345 kB\nRssAnon:\t 100 kB\n"
	if got, ok := parseVmRSS([]byte(status)); !ok || got != 12345*1024 {
		t.Errorf("parseVmRSS = %d, %v; want %d, true", got, ok, 12345*1024)
	}
	// A zombie's (or a kernel thread's) status has no VmRSS line.
	if got, ok := parseVmRSS([]byte("Name:\tdefunct\nState:\tZ (zombie)\n")); ok {
		t.Errorf("parseVmRSS of a zombie = %d, true; want false", got)
	}
	if _, ok := parseVmRSS([]byte("VmRSS:\tlots kB\n")); ok {
		t.Error("parseVmRSS accepted a non-number")
	}
}

func TestDescendants(t *testing.T) {
	parents := map[int]int{
		1:  0,
		10: 1, // root
		11: 10,
		12: 10,
		13: 11,
		14: 13,
		20: 1, // not in the tree
		21: 20,
		30: 30, // its own parent: must not loop
	}
	got := descendants(parents, 10)
	want := []int{10, 11, 12, 13, 14}
	if !slices.Equal(got, want) {
		t.Errorf("descendants(10) = %v, want %v", got, want)
	}
	if got := descendants(parents, 99); !slices.Equal(got, []int{99}) {
		t.Errorf("descendants of an unknown pid = %v, want [99]", got)
	}
}

// TestTreeRSSFake sums VmRSS over a fake /proc: the root and its descendants count, other
// processes and entries that are not processes do not, and a zombie adds nothing.
func TestTreeRSSFake(t *testing.T) {
	proc := t.TempDir()
	write := func(pid, ppid int, rssKB string) {
		dir := filepath.Join(proc, strconv.Itoa(pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		stat := strconv.Itoa(pid) + " (p " + strconv.Itoa(pid) + ") S " + strconv.Itoa(ppid) + " 0 0 0\n"
		status := "Name:\tp\n"
		if rssKB != "" {
			status += "VmRSS:\t" + rssKB + " kB\n"
		}
		if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "status"), []byte(status), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(100, 1, "1000")
	write(101, 100, "200")
	write(102, 101, "30")
	write(103, 100, "") // zombie
	write(200, 1, "99999")
	if err := os.MkdirAll(filepath.Join(proc, "self"), 0o755); err != nil {
		t.Fatal(err)
	}
	tr := newTracker(proc)
	got, err := tr.treeRSS(100)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(1230 * 1024); got != want {
		t.Errorf("treeRSS = %d, want %d", got, want)
	}
	if _, err := tr.treeRSS(555); err == nil {
		t.Error("treeRSS of a pid that does not exist: want an error")
	}

	// A new grandchild shows up, and a child exits: the next sample sees both.
	write(104, 102, "4")
	if err := os.RemoveAll(filepath.Join(proc, "103")); err != nil {
		t.Fatal(err)
	}
	if got, err := tr.treeRSS(100); err != nil || got != 1234*1024 {
		t.Errorf("after a new process: treeRSS = %d, %v; want %d", got, err, 1234*1024)
	}
	if _, ok := tr.parents[103]; ok {
		t.Error("the tracker still knows pid 103 after it left the listing")
	}
	// A pid whose stat cannot be read is left out, not fatal.
	if err := os.MkdirAll(filepath.Join(proc, "300"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := tr.treeRSS(100); err != nil || got != 1234*1024 {
		t.Errorf("with an unreadable pid: treeRSS = %d, %v; want %d", got, err, 1234*1024)
	}
}

// TestTreeRSSReal finds a real child and grandchild in /proc.
func TestTreeRSSReal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	// sh runs sleep in the background and waits, so sleep is sh's child.
	cmd := exec.Command(sh, "-c", "sleep 5 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var tree []int
	tr := newTracker("/proc")
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := tr.refresh(); err != nil {
			t.Fatal(err)
		}
		if tree = descendants(tr.parents, cmd.Process.Pid); len(tree) >= 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(tree) < 2 {
		t.Fatalf("tree of sh = %v, want sh and sleep", tree)
	}
	rss, err := tr.treeRSS(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if rss <= 0 {
		t.Errorf("treeRSS = %d, want > 0", rss)
	}
}

// TestRun measures a shell that writes a file with a child process and exits 3.
func TestRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux rusage")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	// dd writes 4 MiB and syncs, so the bytes reach the storage layer; the exit status 3
	// must come back.
	script := "dd if=/dev/zero of=" + out + " bs=1M count=4 conv=fsync 2>/dev/null; exit 3"
	res, err := run([]string{"sh", "-c", script}, 5*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 {
		t.Errorf("exit_code = %d, want 3", res.ExitCode)
	}
	if res.WallS <= 0 || res.CPUS < 0 || res.CPUS != res.UserS+res.SysS {
		t.Errorf("times: wall %v cpu %v user %v sys %v", res.WallS, res.CPUS, res.UserS, res.SysS)
	}
	if res.MaxRSSBytes <= 0 {
		t.Errorf("maxrss_bytes = %d, want > 0", res.MaxRSSBytes)
	}
	// Task I/O accounting may be off or the file system may not account (tmpfs): only
	// check the figure when the kernel accounts writes for this directory at all.
	if res.WrittenBytes != 0 && res.WrittenBytes < 4<<20 {
		t.Errorf("written_bytes = %d, want >= 4 MiB (dd's child write, counted through wait4)", res.WrittenBytes)
	}
	t.Logf("%+v", res)

	res, err = run([]string{"sh", "-c", "kill -TERM $$"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Signal != "terminated" || signalNumber(res) != 15 {
		t.Errorf("signal = %q (%d), want terminated (15)", res.Signal, signalNumber(res))
	}
	if res.Samples != 0 {
		t.Errorf("samples = %d with interval 0, want 0", res.Samples)
	}
}
