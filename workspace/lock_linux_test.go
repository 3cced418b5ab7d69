package workspace

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// lockHolderEnv makes TestLockHolderProcess, run as a subprocess, take the lock of the
// index directory it names and wait to be killed.
const lockHolderEnv = "QUARRY_TEST_LOCK_HOLDER"

// TestLockHolderProcess is the subprocess of TestLockDiesWithItsProcess; run as a test, it
// does nothing.
func TestLockHolderProcess(t *testing.T) {
	dir := os.Getenv(lockHolderEnv)
	if dir == "" {
		return
	}
	if _, err := lock(dir); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Hour)
}

// A process killed while it holds the index lock, and not yet reaped by its parent (a
// zombie, whose pid still answers kill -0), holds the lock no more: the next run takes it
// at once, where the lock used to count the zombie as a live writer.
func TestLockDiesWithItsProcess(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "locked" {
		t.Logf("holder: %s", sc.Text())
	}

	// Held: a second run is refused, naming the holder.
	_, err = lock(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(pid)) {
		t.Fatalf("lock while pid %d holds it: %v, want ErrLocked naming the pid", pid, err)
	}
	if !isLocked(dir) {
		t.Errorf("isLocked while pid %d holds the lock = false", pid)
	}

	// Killed and not reaped: a zombie.
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitZombie(t, pid)
	if isLocked(dir) {
		t.Errorf("isLocked with the holder a zombie = true")
	}
	unlock, err := lock(dir)
	if err != nil {
		t.Fatalf("lock with the holder a zombie: %v", err)
	}
	if got := lockOwner(dir + "/" + lockFile); got != os.Getpid() {
		t.Errorf("lock file names pid %d, want this process's %d", got, os.Getpid())
	}
	unlock()
	if _, err := os.Stat(dir + "/" + lockFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after unlock: %v, want it removed", err)
	}
}

// waitZombie waits until process pid has died, its every thread gone, and is not reaped:
// waitid(2) with WNOWAIT returns when the child is waitable and leaves it a zombie.
func waitZombie(t *testing.T, pid int) {
	t.Helper()
	const pPID = 1     // idtype_t P_PID
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			t.Fatalf("waitid %d: %v", pid, e)
		}
		break
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("process %d: %v", pid, err)
	}
	// pid (comm) state ...: comm may hold spaces and parentheses; the state follows the last ')'.
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i < 0 || !strings.HasPrefix(s[i+1:], " Z") {
		t.Fatalf("process %d after SIGKILL: %s, want a zombie (state Z)", pid, s)
	}
}

// Two locks in one process exclude each other too, and isLocked does not count this
// process's own lock as another writer's.
func TestLockInOneProcess(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("second lock in one process: %v, want ErrLocked", err)
	}
	if isLocked(dir) {
		t.Errorf("isLocked of this process's own lock = true")
	}
	unlock()
	unlock2, err := lock(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}
