package tools

// What the command line reads beside the operations: the did-you-mean of its own words,
// and the workspace's layout, progress and watch batches it prints.

import (
	"github.com/quarrysearch/quarry/suggest"
	"github.com/quarrysearch/quarry/workspace"
)

// Suggest returns the known names close to typed, nearest first: the "did you mean" of the
// contract's messages, for a caller (the command line) that words its own.
func Suggest(typed string, known []string) []string {
	return suggest.Candidates(typed, known)
}

// DataDir is the directory of a workspace that holds its index (.quarry).
const DataDir = workspace.DataDir

// Health statuses the command line tells apart.
const (
	Healthy    = workspace.Healthy
	NotIndexed = workspace.NotIndexed
)

// Errors of FindRoot and of a workspace id the registry does not have.
var (
	ErrNotDirectory     = workspace.ErrNotDirectory
	ErrUnknownWorkspace = workspace.ErrUnknownWorkspace
)

// Entry is a registered workspace; Progress an index run's progress; WatchBatch what a
// watcher applied at once.
type (
	Entry      = workspace.Entry
	Progress   = workspace.Progress
	WatchBatch = workspace.WatchBatch
)

// FindRoot returns the workspace of dir: the nearest directory with a .quarry/ index, else
// the enclosing git work tree, else dir.
func FindRoot(dir string) (string, error) { return workspace.FindRoot(dir) }

// CanonicalDir returns dir absolute, clean and with its symbolic links resolved.
func CanonicalDir(dir string) (string, error) { return workspace.CanonicalDir(dir) }
