package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/quarrysearch/quarry/workspace"
)

// rootFlag is the --root flag shared by the commands that work on a workspace.
var rootFlag string

// primaryRoot returns the workspace root a command works on: --root, else found from the
// current directory like git finds its repository.
func primaryRoot() (string, error) {
	dir := rootFlag
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", err
		}
	}
	root, err := workspace.FindRoot(dir)
	if err != nil {
		return "", inputError(err)
	}
	return root, nil
}

// inputError marks errors about a path the user gave (missing, not a directory, unreadable)
// as usage errors.
func inputError(err error) error {
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, workspace.ErrNotDirectory) || errors.Is(err, os.ErrPermission) || errors.Is(err, workspace.ErrUnknownWorkspace) {
		return &usageError{err: err}
	}
	return err
}

// progress draws a one-line progress report on a terminal and nothing elsewhere.
type progress struct {
	w     io.Writer
	label string
	on    bool
	start time.Time
	last  time.Time
}

// progressInterval is how often the progress line is redrawn.
const progressInterval = 100 * time.Millisecond

func newProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	on := false
	if ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progress{w: w, label: label, on: on, start: time.Now()}
}

func (p *progress) update(pr workspace.Progress) {
	if !p.on || time.Since(p.last) < progressInterval && pr.Done < pr.Total {
		return
	}
	p.last = time.Now()
	secs := time.Since(p.start).Seconds()
	mbps := float64(pr.Bytes) / 1e6 / max(secs, 1e-3)
	eta := "?"
	if pr.Done > 0 {
		eta = (time.Duration(secs*float64(pr.Total-pr.Done)/float64(pr.Done)) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\033[K%s: %d/%d files, %.1f MB/s, ETA %s", p.label, pr.Done, pr.Total, mbps, eta)
}

func (p *progress) finish() {
	if p.on && !p.last.IsZero() {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
