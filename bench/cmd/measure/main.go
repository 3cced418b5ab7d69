// Command measure runs a command and prints one JSON line about what it cost: wall time,
// CPU time, peak memory of its whole process tree, and bytes written to storage.
//
//	measure [-o FILE] [-tag KEY=VALUE ...] [-interval 20ms] -- COMMAND [ARG...]
//
// The command inherits measure's standard input, output and error. The JSON line goes to
// standard output, or is appended to FILE with -o. Its fields:
//
//   - wall_s: from starting the command to its exit, in seconds.
//   - user_s, sys_s, cpu_s: the command's user and system CPU time and their sum, from the
//     rusage that wait4 returns. It includes the CPU of every descendant the command (or a
//     descendant) waited for; a descendant left running or never waited for is not counted.
//   - peak_rss_tree_bytes: the highest sum of VmRSS over the command and all its
//     descendants, sampled from /proc every -interval (0: no sampling, the field is 0).
//     A spike shorter than the interval can be missed. Pages shared between processes
//     (a shared library, a shared mapping) count once per process.
//   - maxrss_bytes: rusage's ru_maxrss: the peak RSS of the largest single process among
//     the command and its waited-for descendants (not a sum).
//   - written_bytes, read_bytes: rusage's ru_oublock and ru_inblock times 512. Linux fills
//     them from task I/O accounting (write_bytes and read_bytes of /proc/PID/io): bytes the
//     tree caused to be written to (read from) the storage layer, counted when a page cache
//     page is dirtied, so a page dirtied again after writeback counts again and a file
//     deleted before writeback still counts. Reads served from the page cache count 0.
//   - samples: how many /proc samples were taken.
//   - exit_code: the command's exit status; signal: the signal that ended it, if any.
//   - tags: the -tag KEY=VALUE pairs, as strings; argv: the command; start: when it began.
//
// measure exits with the command's exit status (128+N when signal N ended it), and 125 when
// it cannot run the command at all. It uses the standard library only, and works on Linux.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// tagList is a repeatable -tag KEY=VALUE flag.
type tagList map[string]string

func (t tagList) String() string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+t[k])
	}
	return strings.Join(parts, ",")
}

func (t tagList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", s)
	}
	t[k] = v
	return nil
}

// Result is the JSON line measure prints.
type Result struct {
	Tags             map[string]string `json:"tags,omitempty"`
	Argv             []string          `json:"argv"`
	Start            string            `json:"start"`
	WallS            float64           `json:"wall_s"`
	UserS            float64           `json:"user_s"`
	SysS             float64           `json:"sys_s"`
	CPUS             float64           `json:"cpu_s"`
	PeakRSSTreeBytes int64             `json:"peak_rss_tree_bytes"`
	MaxRSSBytes      int64             `json:"maxrss_bytes"`
	WrittenBytes     int64             `json:"written_bytes"`
	ReadBytes        int64             `json:"read_bytes"`
	Samples          int               `json:"samples"`
	ExitCode         int               `json:"exit_code"`
	Signal           string            `json:"signal,omitempty"`
}

func main() {
	tags := tagList{}
	out := flag.String("o", "", "append the JSON line to this file instead of printing it")
	interval := flag.Duration("interval", 20*time.Millisecond, "how often to sample the process tree's RSS from /proc (0: never)")
	flag.Var(tags, "tag", "KEY=VALUE to copy into the JSON line's tags (repeatable)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: measure [flags] -- COMMAND [ARG...]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(125)
	}
	res, err := run(flag.Args(), *interval)
	if err != nil {
		fmt.Fprintf(os.Stderr, "measure: %v\n", err)
		os.Exit(125)
	}
	if len(tags) > 0 {
		res.Tags = tags
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // one line, ending in a newline
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		fmt.Fprintf(os.Stderr, "measure: %v\n", err)
		os.Exit(125)
	}
	line := buf.Bytes()
	if *out == "" {
		_, err = os.Stdout.Write(line)
	} else {
		err = appendFile(*out, line)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "measure: %v\n", err)
		os.Exit(125)
	}
	switch {
	case res.Signal != "":
		os.Exit(128 + signalNumber(res))
	case res.ExitCode != 0:
		os.Exit(res.ExitCode)
	}
}

func appendFile(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// signalNumber is the number of the signal that ended the command.
func signalNumber(r *Result) int {
	for n := 1; n < 65; n++ {
		if syscall.Signal(n).String() == r.Signal {
			return n
		}
	}
	return 0
}

// run starts argv, samples its tree until it exits, and fills a Result from wait4's rusage.
func run(argv []string, interval time.Duration) (*Result, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr

	// Interrupts from a terminal reach the command too (same process group); measure
	// itself waits for it to exit. A TERM or HUP sent to measure alone is passed on.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pid := cmd.Process.Pid

	done := make(chan struct{})
	var wg sync.WaitGroup
	var peak int64
	samples := 0
	if interval > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(interval)
			defer t.Stop()
			tr := newTracker("/proc")
			// Listing /proc costs more than reading the tree's status files: look for new
			// processes about every 100 ms only (a process that lives less than that may
			// be missed), and sample the known tree every interval.
			tr.rescanEvery = max(1, int(100*time.Millisecond/interval))
			for {
				if rss, err := tr.treeRSS(pid); err == nil {
					samples++
					peak = max(peak, rss)
				}
				select {
				case <-done:
					return
				case <-t.C:
				}
			}
		}()
	}
	go func() {
		for s := range sigs {
			if s != os.Interrupt {
				_ = cmd.Process.Signal(s)
			}
		}
	}()

	err := cmd.Wait()
	wall := time.Since(start)
	close(done)
	wg.Wait()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return nil, err
	}

	st := cmd.ProcessState
	ru, _ := st.SysUsage().(*syscall.Rusage)
	res := &Result{
		Argv:             argv,
		Start:            start.UTC().Format(time.RFC3339Nano),
		WallS:            wall.Seconds(),
		PeakRSSTreeBytes: peak,
		Samples:          samples,
	}
	if ru != nil {
		res.UserS = timevalSeconds(ru.Utime)
		res.SysS = timevalSeconds(ru.Stime)
		res.CPUS = res.UserS + res.SysS
		res.MaxRSSBytes = ru.Maxrss * 1024 // kilobytes on Linux
		res.WrittenBytes = ru.Oublock * 512
		res.ReadBytes = ru.Inblock * 512
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.Signal = ws.Signal().String()
		res.ExitCode = -1
	} else {
		res.ExitCode = st.ExitCode()
	}
	return res, nil
}

func timevalSeconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}

// tracker knows the parent of every process of proc (normally /proc). Reading the stat
// file of each of a few hundred processes every 20 ms costs measure a sixth of a core, so
// it reads the stat of a process only when its pid first shows up in proc's listing, and
// forgets a pid when it leaves the listing; and it lists proc only every rescanEvery
// samples. A parent changes only when the parent exits
// (the child goes to init or a subreaper); such a process keeps its first parent here, so a
// descendant that outlives its parent still counts while it lives.
type tracker struct {
	proc        string
	parents     map[int]int
	rescanEvery int // list proc on every rescanEvery-th call of treeRSS (1: on each)
	calls       int
}

func newTracker(proc string) *tracker {
	return &tracker{proc: proc, parents: map[int]int{}, rescanEvery: 1}
}

// refresh lists proc and reads the parent of each new pid.
func (t *tracker) refresh() error {
	d, err := os.Open(t.proc)
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	live := make(map[int]bool, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 0 {
			continue
		}
		live[pid] = true
		if _, ok := t.parents[pid]; ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(t.proc, name, "stat"))
		if err != nil {
			delete(live, pid) // gone already
			continue
		}
		if ppid, ok := parseStatPPID(data); ok {
			t.parents[pid] = ppid
		}
	}
	for pid := range t.parents {
		if !live[pid] {
			delete(t.parents, pid)
		}
	}
	return nil
}

// treeRSS sums VmRSS over root and all its descendants. Processes that exit while it reads
// are skipped.
func (t *tracker) treeRSS(root int) (int64, error) {
	if t.calls%max(1, t.rescanEvery) == 0 {
		if err := t.refresh(); err != nil {
			return 0, err
		}
	}
	t.calls++
	var sum int64
	found := false
	for _, pid := range descendants(t.parents, root) {
		data, err := os.ReadFile(filepath.Join(t.proc, strconv.Itoa(pid), "status"))
		if err != nil {
			continue // gone
		}
		rss, ok := parseVmRSS(data)
		if !ok {
			continue // a zombie has no VmRSS
		}
		sum += rss
		found = true
	}
	if !found {
		return 0, fmt.Errorf("no live process in the tree of %d", root)
	}
	return sum, nil
}

// parseStatPPID reads the parent pid from the contents of /proc/PID/stat: "PID (COMM)
// STATE PPID ...". COMM may hold spaces and parentheses, so the fields are counted from the
// last ')'.
func parseStatPPID(stat []byte) (int, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, false
	}
	return ppid, true
}

// parseVmRSS reads the VmRSS line of /proc/PID/status ("VmRSS:     1234 kB") in bytes.
func parseVmRSS(status []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		mult := int64(1)
		if len(f) > 1 {
			switch strings.ToLower(f[1]) {
			case "kb":
				mult = 1024
			case "mb":
				mult = 1024 * 1024
			case "gb":
				mult = 1024 * 1024 * 1024
			}
		}
		return n * mult, true
	}
	return 0, false
}

// descendants returns root and every process below it in parents (child -> parent), root
// first, then breadth first in pid order.
func descendants(parents map[int]int, root int) []int {
	children := map[int][]int{}
	for pid, ppid := range parents {
		if pid != ppid {
			children[ppid] = append(children[ppid], pid)
		}
	}
	for _, c := range children {
		sort.Ints(c)
	}
	out := []int{root}
	seen := map[int]bool{root: true}
	for i := 0; i < len(out); i++ {
		for _, c := range children[out[i]] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}
