// Package workspace manages a workspace of source code: finding its root, discovering the files
// to index, hashing them, (re)indexing what changed, the registry of reference workspaces, file
// watching and health.
//
// Discovery has two steps. Walk lists the files under the root from directory entries and
// their stat data alone, leaving out what ignore rules (ignore.go), the built-in skips
// (builtinSkipDirs and friends below) and the size cap rule out. Classify (classify.go) then
// looks at the content of each file once it is read, to leave out binary and minified files.
package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/languages"
)

// MaxSkippedSamples is how many examples WalkResult.Samples keeps for each reason.
const MaxSkippedSamples = 20

// ErrRootNotDir is wrapped by Walk's error when the root exists but is not a directory.
var ErrRootNotDir = errors.New("want a directory")

// WalkOptions tune Walk. The zero value uses the defaults.
type WalkOptions struct {
	MaxFileSize   int64 // bytes; 0 or less means extract.DefaultMaxFileSize (1 MiB)
	MaxSourceSize int64 // bytes, for source code; 0 or less means extract.DefaultMaxSourceSize (16 MiB)
	// Languages tells source code from other files (extract.Options.Limit); nil: the
	// built-in languages.
	Languages *languages.Registry
	// Scope, if not empty, limits the walk to these directories (workspace-relative, POSIX;
	// "" is the root) and everything below them: the directories above them are listed only
	// to learn their ignore rules. A watcher's update walks only where events happened.
	Scope []string
	// Parallel lists directories on several goroutines: the files (sorted), directories
	// and counts are the same, but which skipped entries are kept as samples, and the order
	// of Dirs, may differ from run to run. For a comparison of the disk with the index,
	// which needs only the files.
	Parallel bool
	// cache, when set, lends directories' listings from the last walk and keeps this
	// walk's for the next (compareDisk's fresh.cache).
	cache *freshCache
}

// inScope reports whether the directory rel is in scope (or every directory is).
func inScope(scope []string, rel string) bool {
	if len(scope) == 0 {
		return true
	}
	for _, s := range scope {
		if s == "" || rel == s || strings.HasPrefix(rel, s+"/") {
			return true
		}
	}
	return false
}

// aboveScope reports whether the directory rel holds a directory of scope.
func aboveScope(scope []string, rel string) bool {
	for _, s := range scope {
		if rel == "" && s != "" || strings.HasPrefix(s, rel+"/") {
			return true
		}
	}
	return false
}

// Candidate is a file Walk found that is to be read and indexed.
type Candidate struct {
	Path    string    // relative to the root, POSIX separators, never starting with "./"
	AbsPath string    // the root made absolute (symlinks in it kept) joined with Path
	Size    int64     // bytes, from the stat (of the target, for a symlink)
	ModTime time.Time // from the stat (of the target, for a symlink)
}

// Skipped is a file or directory Walk left out. The Path of a directory ends in "/"; nothing
// under a skipped directory is looked at or counted.
type Skipped struct {
	Path   string             `json:"path"`
	Reason extract.SkipReason `json:"reason"`
}

// WalkResult is what Walk found.
type WalkResult struct {
	Files   []Candidate                // sorted by Path
	Dirs    []string                   // the directories walked (in scope), "" the root: what a watcher watches
	Skipped map[extract.SkipReason]int // how many files and directories were left out for each reason
	Samples []Skipped                  // at most MaxSkippedSamples for each reason, sorted by reason then path
}

// Walk lists the files under root to index. Directories that are ignored are not descended.
//
// Root must be an existing directory. An entry inside it that cannot be read (permission
// denied, vanished while walking) is counted under extract.SkipUnreadable, never fatal. Symlinks are
// never followed to a directory: a symlink to a regular file inside the root is a Candidate
// under the link's own path, every other symlink is extract.SkipSymlink. So Walk cannot loop or
// leave the root. The walk stops with the context's error once ctx is done.
//
// The ignore rules found under root apply (see ignore.go); .gitignore files above root, in an
// enclosing repository, and the user's global excludes file are not read.
func Walk(ctx context.Context, root string, opts WalkOptions) (*WalkResult, error) {
	if root == "" {
		return nil, errors.New("workspace: walk: empty root path")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace: walk %s: %w", root, err)
	}
	entries, err := readRootDir(absRoot)
	if err != nil {
		return nil, fmt.Errorf("workspace: walk %s: %w", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(absRoot)
	if err != nil {
		return nil, fmt.Errorf("workspace: walk %s: %w", root, err)
	}
	if opts.Languages == nil {
		if opts.Languages, err = languages.Default(); err != nil {
			return nil, fmt.Errorf("workspace: walk %s: %w", root, err)
		}
	}
	w := &walkState{
		scope:    opts.Scope,
		ctx:      ctx,
		realRoot: realRoot,
		limits:   extract.Options{MaxFileSize: int(opts.MaxFileSize), MaxSourceSize: int(opts.MaxSourceSize)},
		langs:    opts.Languages,
		res:      &WalkResult{Skipped: map[extract.SkipReason]int{}},
		cache:    opts.cache,
	}
	if opts.cache != nil {
		w.res.Files = make([]Candidate, 0, opts.cache.files)
	}
	if opts.Parallel {
		w.par = &walkPar{sem: make(chan struct{}, walkWorkers())}
	}
	err = w.walkEntries(absRoot, "", nil, entries, rootIgnoreRules(absRoot))
	if w.par != nil {
		w.par.wg.Wait()
		err = cmp.Or(err, w.par.err)
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: walk %s: %w", root, err)
	}
	slices.SortFunc(w.res.Files, func(a, b Candidate) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(w.res.Samples, func(a, b Skipped) int {
		return cmp.Or(strings.Compare(string(a.Reason), string(b.Reason)), strings.Compare(a.Path, b.Path))
	})
	return w.res, nil
}

// readRootDir checks that root is a directory and lists it, saying plainly what is wrong if
// not: "not found", "is a file, want a directory", "permission denied".
func readRootDir(root string) ([]os.DirEntry, error) {
	info, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("not found: %w", rootErrCause(err))
	case err != nil:
		return nil, rootErrCause(err)
	case info.Mode().IsRegular():
		return nil, fmt.Errorf("is a file, %w", ErrRootNotDir)
	case !info.IsDir():
		return nil, fmt.Errorf("is a %s, %w", rootFileTypeName(info.Mode()), ErrRootNotDir)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, rootErrCause(err)
	}
	return entries, nil
}

// rootErrCause drops the *fs.PathError around err, whose operation and path only repeat
// what the caller's message says ("stat /x: "), keeping the cause for errors.Is.
func rootErrCause(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// rootFileTypeName names a non-regular, non-directory file type for an error message.
func rootFileTypeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// walkState carries the state of one Walk.
type walkState struct {
	scope    []string // WalkOptions.Scope
	ctx      context.Context
	realRoot string          // the root with symlinks resolved, to tell whether a link stays inside
	limits   extract.Options // the size limits
	langs    *languages.Registry
	mu       sync.Mutex // guards res when the walk is parallel
	res      *WalkResult
	par      *walkPar    // nil: one goroutine
	cache    *freshCache // WalkOptions.cache
}

// walkPar is what a parallel walk shares: the goroutines listing directories and the first
// error one met.
type walkPar struct {
	sem chan struct{} // a token for each goroutine beside the caller's
	wg  sync.WaitGroup
	mu  sync.Mutex
	err error
}

// walkWorkers is how many goroutines a parallel walk adds: listing directories waits on the
// kernel more than it computes, so twice the cores.
func walkWorkers() int { return 2 * runtime.GOMAXPROCS(0) }

// subdir walks a subdirectory: on another goroutine when the walk is parallel and one is
// free, else on this one.
func (w *walkState) subdir(abs, rel string, path []string, rules *ignoreRules, reincluded bool) error {
	if w.par == nil {
		return w.walkSubdir(abs, rel, path, rules, reincluded)
	}
	select {
	case w.par.sem <- struct{}{}:
		path = slices.Clone(path) // the caller reuses it for its next entry
		w.par.wg.Go(func() {
			defer func() { <-w.par.sem }()
			if err := w.walkSubdir(abs, rel, path, rules, reincluded); err != nil {
				w.par.mu.Lock()
				w.par.err = cmp.Or(w.par.err, err)
				w.par.mu.Unlock()
			}
		})
		return nil
	default:
		return w.walkSubdir(abs, rel, path, rules, reincluded)
	}
}

// walkHookAfterReadDir, if set, runs after each directory is listed and before its entries
// are looked at. Tests use it to make files vanish mid-walk.
var walkHookAfterReadDir func(dirAbs string)

// walkListing is a directory being walked.
type walkListing struct {
	abs     string        // absolute path
	rel     string        // path below the root, "" for the root
	entries []os.DirEntry // sorted by name, as os.ReadDir returns them
	rules   *ignoreRules  // the ignore rules in force in it
	files   []Candidate   // its files found so far, added to the result at its end
}

// walkEntries visits the entries of the directory dirAbs, whose path below the root is rel
// ("" for the root) and whose components are comps.
func (w *walkState) walkEntries(dirAbs, rel string, comps []string, entries []os.DirEntry, parent *ignoreRules) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if walkHookAfterReadDir != nil {
		walkHookAfterReadDir(dirAbs)
	}
	dir := &walkListing{abs: dirAbs, rel: rel, entries: entries, rules: parent.withDir(dirAbs, comps, entries)}
	if inScope(w.scope, rel) {
		w.mu.Lock()
		w.res.Dirs = append(w.res.Dirs, rel)
		w.mu.Unlock()
	}
	path := make([]string, len(comps)+1) // comps and one entry's name, reused for every entry
	copy(path, comps)
	for _, e := range entries {
		path[len(comps)] = e.Name()
		if err := w.visit(dir, path, e); err != nil {
			return err
		}
	}
	if len(dir.files) > 0 {
		w.mu.Lock()
		w.res.Files = append(w.res.Files, dir.files...)
		w.mu.Unlock()
	}
	return nil
}

// visit decides about the entry e of dir, whose components below the root are path.
func (w *walkState) visit(dir *walkListing, path []string, e os.DirEntry) error {
	name := e.Name()
	rel := walkRelPath(dir.rel, name)
	typ := e.Type()
	isDir := typ.IsDir()
	if !isDir && !inScope(w.scope, dir.rel) || isDir && !inScope(w.scope, rel) && !aboveScope(w.scope, rel) {
		return nil // out of the walk's scope: neither visited nor counted
	}
	if neverIndexedDirs[name] {
		w.skip(rel, isDir, extract.SkipBuiltin)
		return nil
	}
	verdict, fromQuarry := dir.rules.match(path, isDir)
	if verdict == gitignore.Exclude {
		w.skip(rel, isDir, extract.SkipIgnored)
		return nil
	}
	reincluded := verdict == gitignore.Include && fromQuarry
	abs := walkAbsPath(dir.abs, name)
	switch {
	case isDir:
		if !reincluded && isBuiltinSkipDir(name, dir.entries) {
			w.skip(rel, true, extract.SkipBuiltin)
			return nil
		}
		return w.subdir(abs, rel, path, dir.rules, reincluded)
	case typ&fs.ModeSymlink != 0:
		w.visitSymlink(dir, abs, rel)
	case typ.IsRegular():
		w.visitFile(dir, abs, rel, e)
	default:
		w.skip(rel, false, extract.SkipNotRegular)
	}
	return nil
}

// walkSubdir lists the directory abs and walks it, unless a marker file among its entries
// shows it is a cache, virtualenv or build tree and no .quarryignore rule re-included it.
func (w *walkState) walkSubdir(abs, rel string, path []string, rules *ignoreRules, reincluded bool) error {
	entries, err := w.readDir(abs, rel)
	if err != nil {
		// Entries read before the error are still walked; usually there are none.
		w.skip(rel, true, extract.SkipUnreadable)
	}
	if !reincluded && hasBuiltinMarker(entries) {
		w.skip(rel, true, extract.SkipBuiltin)
		return nil
	}
	return w.walkEntries(abs, rel, slices.Clone(path), entries, rules)
}

// readDir lists the directory abs (rel below the root), from the cache when it has a
// listing its time still matches.
func (w *walkState) readDir(abs, rel string) ([]os.DirEntry, error) {
	if w.cache != nil {
		return w.cache.listing(abs, rel)
	}
	return os.ReadDir(abs)
}

// visitFile adds the regular file abs of dir as a Candidate unless it is over the size cap.
func (w *walkState) visitFile(dir *walkListing, abs, rel string, e os.DirEntry) {
	info, err := e.Info()
	if err != nil || !info.Mode().IsRegular() {
		w.skip(rel, false, extract.SkipUnreadable) // vanished, or replaced since the directory was listed
		return
	}
	w.addFile(dir, abs, rel, info)
}

// visitSymlink adds the symlink abs as a Candidate if it leads to a regular file inside the
// root, outside VCS metadata and .quarry. Every other symlink is skipped.
func (w *walkState) visitSymlink(dir *walkListing, abs, rel string) {
	target, err := filepath.EvalSymlinks(abs)
	if err != nil || !w.insideRoot(target) {
		w.skip(rel, false, extract.SkipSymlink) // broken, a loop, or out of the root
		return
	}
	info, err := os.Stat(target)
	switch {
	case err != nil:
		w.skip(rel, false, extract.SkipUnreadable)
	case info.IsDir():
		w.skip(rel, false, extract.SkipSymlink) // the directory is walked under its own path
	case !info.Mode().IsRegular():
		w.skip(rel, false, extract.SkipNotRegular)
	default:
		w.addFile(dir, abs, rel, info)
	}
}

// insideRoot reports whether the symlink-free path target lies under the root, and not in a
// directory that is never indexed.
func (w *walkState) insideRoot(target string) bool {
	rel, err := filepath.Rel(w.realRoot, target)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		if neverIndexedDirs[c] {
			return false
		}
	}
	return true
}

// addFile adds a Candidate for a regular file of dir described by info, unless it is too
// large.
func (w *walkState) addFile(dir *walkListing, abs, rel string, info fs.FileInfo) {
	if info.Size() > w.limits.Limit(w.langs.ForPath(rel), rel) {
		w.skip(rel, false, extract.SkipTooLarge)
		return
	}
	dir.files = append(dir.files, Candidate{Path: rel, AbsPath: abs, Size: info.Size(), ModTime: info.ModTime()})
}

// skip counts a left-out entry and keeps it as a sample while there are few of its reason.
func (w *walkState) skip(rel string, isDir bool, reason extract.SkipReason) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.res.Skipped[reason]++
	if w.res.Skipped[reason] > MaxSkippedSamples {
		return
	}
	if isDir {
		rel += "/"
	}
	w.res.Samples = append(w.res.Samples, Skipped{Path: rel, Reason: reason})
}

// walkRelPath joins a root-relative directory path and a name with a slash.
func walkRelPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// walkAbsPath joins a clean absolute directory and a name, faster than filepath.Join, which
// would clean the result again.
func walkAbsPath(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// Built-in skips. They apply without any ignore file, so that a directory that is not a git
// work tree, or one whose .gitignore is incomplete, is not swamped by dependencies and build
// output. vendor/ is not skipped: vendored code is source, and search ranks it lower.

// neverIndexedDirs are names never indexed, not even when an ignore rule re-includes them:
// VCS metadata and Quarry's own data. A symlink into one of them is skipped too.
var neverIndexedDirs = map[string]bool{
	gitMetadataDir: true, DataDir: true, ".hg": true, ".svn": true, ".bzr": true, ".jj": true,
}

// builtinSkipDirs are directory names skipped wherever they appear: installed dependencies,
// tool caches and framework build output. Their names are specific enough not to collide with
// source directories. A .quarryignore rule such as `!node_modules/` re-includes one.
var builtinSkipDirs = map[string]bool{
	// installed dependencies
	"node_modules": true, "bower_components": true, "jspm_packages": true,
	".venv": true, ".bundle": true, ".dart_tool": true, ".terraform": true,
	// tool caches
	"__pycache__": true, ".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true,
	".tox": true, ".nox": true, ".gradle": true, ".parcel-cache": true, ".turbo": true,
	// framework build output
	".next": true, ".nuxt": true, ".svelte-kit": true, ".angular": true,
}

// buildOutputDirs are directory names that are build output only beside one of the build
// manifests listed (a "*." entry is an extension): on their own, names like build and dist are
// too often source (Go's go/build and cmd/dist). A .quarryignore rule re-includes one.
var buildOutputDirs = map[string][]string{
	"target": {"Cargo.toml", "pom.xml", "build.sbt"},
	"build":  {"build.gradle", "build.gradle.kts", "setup.py", "pyproject.toml"},
	"dist":   {"package.json", "setup.py", "pyproject.toml"},
	"bin":    {"*.csproj", "*.fsproj", "*.vbproj"},
	"obj":    {"*.csproj", "*.fsproj", "*.vbproj"},
}

// builtinMarkerFiles mark a directory, whatever its name, as one that is not source:
// CACHEDIR.TAG a cache (Cargo's target/ has one; see https://bford.info/cachedir/),
// pyvenv.cfg a Python virtualenv, CMakeCache.txt a CMake build tree.
var builtinMarkerFiles = []string{"CACHEDIR.TAG", "CMakeCache.txt", "pyvenv.cfg"}

// isBuiltinSkipDir reports whether the directory name, among siblings, is a built-in skip.
func isBuiltinSkipDir(name string, siblings []os.DirEntry) bool {
	if builtinSkipDirs[name] {
		return true
	}
	for _, manifest := range buildOutputDirs[name] {
		if hasBuildManifest(siblings, manifest) {
			return true
		}
	}
	return false
}

// hasBuildManifest reports whether entries hold the file manifest, or with a "*." manifest, any
// file with that extension.
func hasBuildManifest(entries []os.DirEntry, manifest string) bool {
	if ext, ok := strings.CutPrefix(manifest, "*"); ok {
		return slices.ContainsFunc(entries, func(e os.DirEntry) bool {
			return !e.IsDir() && strings.HasSuffix(e.Name(), ext)
		})
	}
	e, ok := dirEntryNamed(entries, manifest)
	return ok && !e.IsDir()
}

// hasBuiltinMarker reports whether a directory with these entries holds one of
// builtinMarkerFiles.
func hasBuiltinMarker(entries []os.DirEntry) bool {
	for _, marker := range builtinMarkerFiles {
		if hasBuildManifest(entries, marker) {
			return true
		}
	}
	return false
}
