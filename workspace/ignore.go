package workspace

// Ignore rules: which files and directories Walk leaves out before it looks at them.
//
// Rules come from three kinds of file, all in gitignore syntax (see gitignore(5)):
//
//	<root>/.git/info/exclude    the repository's local excludes (for a linked worktree, where
//	                            .git is a file, those of the common git directory)
//	<dir>/.gitignore            at every level; patterns are relative to <dir>
//	<dir>/.quarryignore         at every level; patterns are relative to <dir>
//
// Rules fall in two tiers. Git's tier holds info/exclude, then every .gitignore from the root
// down; Quarry's tier holds every .quarryignore from the root down. Within a tier a deeper file
// outranks a shallower one and a later line outranks an earlier one, as in git; every Quarry
// rule outranks every git rule, so `!generated/` in a .quarryignore indexes what git ignores.
// A `!` rule in a .quarryignore also re-includes a directory that the built-in skips would
// leave out (say `!dist/`), except VCS metadata and .quarry, which are never indexed. As in
// git, nothing inside an excluded directory can be re-included: Walk does not enter it.
//
// Matching is go-git's plumbing/format/gitignore (ParsePattern, and its Pattern.Match does the
// globbing), with two corrections. go-git matches a pattern against a path and every leading
// part of it ("foo" matches a/foo/b, "a/b" matches a/b/c), which agrees with git only for
// exclusions of directories git would not enter anyway; for a negation, or for a file under a
// directory that a later rule re-included, it gives the wrong answer (with `*.log` and
// `!logs/`, go-git includes logs/x.log, git does not). So ignorePattern makes every pattern
// match the whole path, as git does. And `[!...]` is rewritten to `[^...]`, the spelling
// path/filepath.Match understands. Left as go-git has them: `**` between other components does
// not backtrack (a/**/b/c does not match a/b/x/b/c), POSIX classes like [[:space:]] never
// match, and matching is case-sensitive (core.ignoreCase is not read). The global excludes
// file (core.excludesFile) is not read either: what a workspace indexes should not depend on
// who runs Quarry.

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Names of ignore files and of the places they live.
const (
	gitignoreFileName    = ".gitignore"
	quarryignoreFileName = ".quarryignore"
	gitMetadataDir       = ".git"
	// gitdirFilePrefix starts the one line of a .git file (linked worktrees, submodules).
	gitdirFilePrefix = "gitdir:"
	// gitCommonDirFileName, inside a worktree's git directory, names the main git directory.
	gitCommonDirFileName = "commondir"
)

// ignoreFileBOM may start an ignore file written on Windows; git skips it.
var ignoreFileBOM = []byte("\xef\xbb\xbf")

// ignoreRules is the set of ignore patterns in force in one directory: those of every ignore
// file from the root down to it. It is never changed once built, so a directory without ignore
// files of its own shares its parent's.
type ignoreRules struct {
	git    []gitignore.Pattern // lowest rank first
	quarry []gitignore.Pattern // lowest rank first; all outrank git
}

// match returns the verdict of the highest-ranked pattern that matches path (components
// relative to the root, the last one the entry's name) and whether that pattern came from a
// .quarryignore. NoMatch means no pattern says anything about path.
func (r *ignoreRules) match(path []string, isDir bool) (result gitignore.MatchResult, fromQuarry bool) {
	if res := matchLastIgnorePattern(r.quarry, path, isDir); res != gitignore.NoMatch {
		return res, true
	}
	return matchLastIgnorePattern(r.git, path, isDir), false
}

// matchLastIgnorePattern returns the verdict of the last pattern in ps that matches path. It is
// gitignore.NewMatcher's loop, returning the MatchResult instead of a bool so that callers can
// tell an explicit re-include from no match.
func matchLastIgnorePattern(ps []gitignore.Pattern, path []string, isDir bool) gitignore.MatchResult {
	for i := len(ps) - 1; i >= 0; i-- {
		if res := ps[i].Match(path, isDir); res != gitignore.NoMatch {
			return res
		}
	}
	return gitignore.NoMatch
}

// withDir returns the rules in force in the directory dirAbs, whose path below the root is
// domain and whose entries (sorted by name, as os.ReadDir returns them) are given: r plus the
// patterns of the directory's own .gitignore and .quarryignore, read once here. Ignore files
// that are not regular files (a symlinked .gitignore, which git also refuses) or cannot be read
// add nothing.
func (r *ignoreRules) withDir(dirAbs string, domain []string, entries []os.DirEntry) *ignoreRules {
	gitPs := readIgnoreFile(dirAbs, gitignoreFileName, domain, entries)
	quarryPs := readIgnoreFile(dirAbs, quarryignoreFileName, domain, entries)
	if len(gitPs) == 0 && len(quarryPs) == 0 {
		return r
	}
	next := &ignoreRules{git: r.git, quarry: r.quarry}
	if len(gitPs) > 0 {
		next.git = slices.Concat(r.git, gitPs)
	}
	if len(quarryPs) > 0 {
		next.quarry = slices.Concat(r.quarry, quarryPs)
	}
	return next
}

// readIgnoreFile parses the ignore file name in dirAbs if entries list it as a regular file.
func readIgnoreFile(dirAbs, name string, domain []string, entries []os.DirEntry) []gitignore.Pattern {
	e, ok := dirEntryNamed(entries, name)
	if !ok || !e.Type().IsRegular() {
		return nil
	}
	data, err := ReadRegularFile(walkAbsPath(dirAbs, name))
	if err != nil {
		return nil
	}
	return parseIgnoreLines(data, domain)
}

// dirEntryNamed finds name among entries sorted by name.
func dirEntryNamed(entries []os.DirEntry, name string) (os.DirEntry, bool) {
	i, ok := slices.BinarySearchFunc(entries, name, func(e os.DirEntry, name string) int {
		return strings.Compare(e.Name(), name)
	})
	if !ok {
		return nil, false
	}
	return entries[i], true
}

// rootIgnoreRules returns the rules that hold before any ignore file under root is read: the
// repository's info/exclude, if root holds a .git directory or a .git file pointing at one.
func rootIgnoreRules(root string) *ignoreRules {
	gitDir := resolveGitDir(root)
	if gitDir == "" {
		return &ignoreRules{}
	}
	data, err := ReadRegularFile(filepath.Join(gitDir, "info", "exclude"))
	if err != nil {
		return &ignoreRules{}
	}
	return &ignoreRules{git: parseIgnoreLines(data, nil)}
}

// resolveGitDir returns the git directory whose info/exclude applies to the work tree at root,
// or "" if there is none. root/.git is either that directory or a file "gitdir: <path>"; a
// worktree's git directory names the main one in its commondir file.
func resolveGitDir(root string) string {
	dotGit := filepath.Join(root, gitMetadataDir)
	info, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return ""
	case info.IsDir():
		return dotGit
	}
	gitDir, ok := readGitPathFile(dotGit, root, gitdirFilePrefix)
	if !ok {
		return ""
	}
	if common, ok := readGitPathFile(filepath.Join(gitDir, gitCommonDirFileName), gitDir, ""); ok {
		return common
	}
	return gitDir
}

// readGitPathFile reads a one-line file holding prefix and a path, relative to base unless it is
// absolute, as git's .git and commondir files do.
func readGitPathFile(file, base, prefix string) (string, bool) {
	data, err := ReadRegularFile(file)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	line, ok := strings.CutPrefix(strings.TrimSpace(line), prefix)
	line = strings.TrimSpace(line)
	if !ok || line == "" {
		return "", false
	}
	if !filepath.IsAbs(line) {
		line = filepath.Join(base, line)
	}
	return line, true
}

// parseIgnoreLines parses the lines of an ignore file whose directory is domain (components
// below the root). Blank lines and comments match nothing and are dropped.
func parseIgnoreLines(data []byte, domain []string) []gitignore.Pattern {
	data = bytes.TrimPrefix(data, ignoreFileBOM)
	domain = slices.Clone(domain) // shared by the file's patterns
	var ps []gitignore.Pattern
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "#") {
			continue
		}
		if p, ok := newIgnorePattern(line, domain); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// ignoreDoubleStar is the gitignore component that matches zero or more directories.
const ignoreDoubleStar = "**"

// patternShape says how an ignorePattern's go-git pattern is made to match a whole path.
type patternShape int

const (
	// shapeName: no slash but a trailing one; matches the last component at any depth.
	shapeName patternShape = iota
	// shapeFixed: anchored, no "**"; matches paths with exactly as many components.
	shapeFixed
	// shapeLeadingStars: "**/" followed by components without "**"; matches the path's tail.
	shapeLeadingStars
	// shapeTrailingStars: components without "**" followed by "/**"; matches what is below.
	shapeTrailingStars
	// shapeStars: any other use of "**"; go-git's match plus a check of the last component.
	shapeStars
)

// ignorePattern is one line of an ignore file. It implements gitignore.Pattern with git's
// meaning: the pattern must match the whole path, not a leading part of it (see the top of
// this file).
type ignorePattern struct {
	glob    gitignore.Pattern // go-git's pattern, parsed with no domain
	domain  []string          // directory of the ignore file, below the root
	shape   patternShape
	fixed   int    // components other than "**" and empty ones
	last    string // last component, for shapeStars
	dirOnly bool   // the pattern ends in "/"
}

// newIgnorePattern parses one line (without its newline, not a comment) of the ignore file in
// domain, which the pattern keeps. It reports false for a line that matches nothing: blank,
// only spaces, or only "!" or "/".
func newIgnorePattern(line string, domain []string) (*ignorePattern, bool) {
	line = bracketNegationToCaret(trimIgnoreSpaces(line))
	body := strings.TrimPrefix(line, "!")
	dirOnly := strings.HasSuffix(body, "/")
	body = strings.TrimSuffix(body, "/")
	if strings.Trim(body, "/") == "" {
		return nil, false
	}
	p := &ignorePattern{
		glob:    gitignore.ParsePattern(line, nil),
		domain:  domain,
		dirOnly: dirOnly,
	}
	if !strings.Contains(body, "/") {
		p.shape = shapeName
		return p, true
	}
	// A leading slash only anchors the pattern, and every pattern with a slash is anchored.
	comps := strings.Split(strings.TrimPrefix(body, "/"), "/")
	stars := 0
	for _, c := range comps {
		switch c {
		case ignoreDoubleStar:
			stars++
		case "":
		default:
			p.fixed++
		}
	}
	p.last = comps[len(comps)-1]
	switch {
	case stars == 0:
		p.shape = shapeFixed
	case stars == 1 && comps[0] == ignoreDoubleStar:
		p.shape = shapeLeadingStars
	case stars == 1 && p.last == ignoreDoubleStar:
		p.shape = shapeTrailingStars
	default:
		p.shape = shapeStars
	}
	return p, true
}

// Match implements gitignore.Pattern: Exclude or Include if the pattern matches the whole of
// path (components below the root) and NoMatch otherwise.
func (p *ignorePattern) Match(path []string, isDir bool) gitignore.MatchResult {
	if len(path) <= len(p.domain) || (p.dirOnly && !isDir) {
		return gitignore.NoMatch
	}
	for i, c := range p.domain {
		if path[i] != c {
			return gitignore.NoMatch
		}
	}
	rest := path[len(p.domain):]
	switch p.shape {
	case shapeName:
		rest = rest[len(rest)-1:]
	case shapeFixed:
		if len(rest) != p.fixed {
			return gitignore.NoMatch
		}
	case shapeLeadingStars:
		if len(rest) < p.fixed {
			return gitignore.NoMatch
		}
		rest = rest[len(rest)-p.fixed:]
	case shapeTrailingStars:
		if len(rest) <= p.fixed {
			return gitignore.NoMatch
		}
	case shapeStars:
		if !p.lastMatches(rest) {
			return gitignore.NoMatch
		}
	}
	// Directory-only patterns were checked above; go-git sees every entry as a directory so
	// that it does not repeat the check with its leading-part semantics.
	return p.glob.Match(rest, true)
}

// lastMatches reports whether the last component of rest can be the end of a shapeStars
// match: it matches the pattern's last component, or that is "**" and rest goes below the
// pattern's other components.
func (p *ignorePattern) lastMatches(rest []string) bool {
	if p.last == ignoreDoubleStar {
		return len(rest) > p.fixed
	}
	ok, err := filepath.Match(p.last, rest[len(rest)-1])
	return err == nil && ok
}

// trimIgnoreSpaces drops trailing spaces unless escaped with a backslash, as git does.
func trimIgnoreSpaces(line string) string {
	trimmed := strings.TrimRight(line, " ")
	if len(trimmed) < len(line) && strings.HasSuffix(trimmed, `\`) {
		return trimmed + " "
	}
	return trimmed
}

// bracketNegationToCaret rewrites git's "[!...]" to "[^...]", the negated class that
// path/filepath.Match understands, leaving escaped brackets alone.
func bracketNegationToCaret(p string) string {
	if !strings.Contains(p, "[!") {
		return p
	}
	b := []byte(p)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\\':
			i++
		case b[i] == '[' && i+1 < len(b) && b[i+1] == '!':
			b[i+1] = '^'
		}
	}
	return string(b)
}
