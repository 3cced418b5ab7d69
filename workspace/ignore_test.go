package workspace

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreScenarios are trees with ignore files and the files Walk must find in them. Each one
// without a .quarryignore is also checked against git itself (TestIgnoreRulesMatchGit).
var ignoreScenarios = []struct {
	name  string
	files map[string]string
	want  []string
}{{
	name: "nested gitignore with negation",
	files: map[string]string{
		".gitignore": "*.log\n!keep.log\n",
		"a.log":      "", "keep.log": "",
		"src/.gitignore": "!b.log\n",
		"src/b.log":      "", "src/c.log": "", "src/keep.log": "",
		"src/deep/b.log": "", "src/deep/c.log": "",
		"other/b.log":      "",
		"other/keep.log/x": "", // keep.log is a directory here; it is re-included too
	},
	want: []string{".gitignore", "keep.log", "other/keep.log/x", "src/.gitignore", "src/b.log", "src/deep/b.log", "src/keep.log"},
}, {
	name: "directory-only patterns",
	files: map[string]string{
		".gitignore": "build/\nout\n",
		"build/x.go": "", "sub/build/y.go": "",
		"notdir/build": "", // a file named build stays
		"out/z.go":     "", "sub/out": "",
		"sub/output/o.go": "",
	},
	want: []string{".gitignore", "notdir/build", "sub/output/o.go"},
}, {
	name: "anchored patterns and patterns with a slash",
	files: map[string]string{
		".gitignore": "/top.txt\n/only/\nsub/x.txt\n",
		"top.txt":    "", "a/top.txt": "",
		"only/f": "", "a/only/f": "",
		"sub/x.txt": "", "a/sub/x.txt": "",
		"a/.gitignore": "/y.txt\nb/z.txt\n",
		"a/y.txt":      "", "a/b/y.txt": "", "y.txt": "",
		"a/b/z.txt": "", "b/z.txt": "", "a/c/b/z.txt": "",
	},
	want: []string{
		".gitignore", "a/.gitignore", "a/b/y.txt", "a/c/b/z.txt", "a/only/f", "a/sub/x.txt",
		"a/top.txt", "b/z.txt", "y.txt",
	},
}, {
	name: "double star",
	files: map[string]string{
		".gitignore": "**/gen/*.go\ndocs/**\na/**/z.txt\n**/tmp\n/**/anch.md\n",
		"gen/a.go":   "", "x/gen/b.go": "", "x/gen/sub/c.go": "", "x/notgen/a.go": "",
		"docs/d.md": "", "docs/sub/e.md": "", "x/docs/f.md": "",
		"a/z.txt": "", "a/b/c/z.txt": "", "b/a/z.txt": "", "a/z.txt.bak": "",
		"x/tmp/f": "", "tmp": "", "x/tmpl": "",
		"anch.md": "", "q/r/anch.md": "",
		"x/gen.go/keep":   "",
		"x/y/gen/deep.go": "",
	},
	want: []string{
		".gitignore", "a/z.txt.bak", "b/a/z.txt", "x/docs/f.md", "x/gen.go/keep",
		"x/gen/sub/c.go", "x/notgen/a.go", "x/tmpl",
	},
}, {
	name: "whitelist: ignore everything but Go",
	files: map[string]string{
		".gitignore": "*\n!*/\n!*.go\n!.gitignore\n",
		"a.go":       "", "a.txt": "", "src/b.go": "", "src/b.txt": "", "src/deep/c.go": "",
	},
	want: []string{".gitignore", "a.go", "src/b.go", "src/deep/c.go"},
}, {
	name: "a negated directory does not re-include the files in it",
	files: map[string]string{
		".gitignore": "*.log\n!logs/\n!/keep/dir\n!**/nest\n",
		"logs/x.log": "", "logs/readme.md": "", "y.log": "",
		"keep/dir/x.log": "", "keep/dir/ok.md": "",
		"a/nest/y.log": "", "a/nest/ok.md": "",
	},
	want: []string{".gitignore", "a/nest/ok.md", "keep/dir/ok.md", "logs/readme.md"},
}, {
	name: "nothing under an excluded directory comes back",
	files: map[string]string{
		".gitignore":    "logs/\n!logs/keep.txt\ncache/*\n!cache/keep.txt\n",
		"logs/keep.txt": "", "logs/x.txt": "",
		"cache/keep.txt": "", "cache/x.txt": "",
	},
	want: []string{".gitignore", "cache/keep.txt"},
}, {
	name: "a deeper gitignore outranks a shallower one",
	files: map[string]string{
		".gitignore":     "*.txt\na.md\n",
		"sub/.gitignore": "!b.txt\n/a.md\n!a.md\n",
		"b.txt":          "", "sub/b.txt": "", "sub/c.txt": "", "a.md": "", "sub/a.md": "", "sub/x/a.md": "",
	},
	want: []string{".gitignore", "sub/.gitignore", "sub/a.md", "sub/b.txt", "sub/x/a.md"},
}, {
	name: "syntax: comments, CRLF, escapes, trailing spaces, classes",
	files: map[string]string{
		".gitignore": "\ufeff# comment\r\n\r\n   \r\n\\#hash.txt\r\n\\!bang.txt\r\nspace.txt   \r\n" +
			"[!a]*.c\r\ntrail\\ \r\n!\r\n/\r\n",
		"# comment": "", "#hash.txt": "", "!bang.txt": "", "space.txt": "",
		"a.c": "", "b.c": "", "trail ": "", "trail": "",
	},
	want: []string{"# comment", ".gitignore", "a.c", "trail"},
}, {
	name: ".git/info/exclude, outranked by .gitignore",
	files: map[string]string{
		".git/info/exclude": "*.tmp\n/root-only\n",
		".gitignore":        "!keep.tmp\n",
		"a.tmp":             "", "keep.tmp": "", "root-only": "", "sub/root-only": "",
	},
	want: []string{".gitignore", "keep.tmp", "sub/root-only"},
}, {
	name: ".quarryignore outranks every .gitignore and can re-include",
	files: map[string]string{
		".gitignore":    "gen/\n*.log\n",
		".quarryignore": "!gen/\n!important.log\nsecret/\n!x.md\n",
		"gen/a.go":      "", "a.log": "", "important.log": "", "secret/k.go": "",
		"sub/.gitignore": "x.md\n!secret/\n",
		"sub/x.md":       "", "sub/y.log": "", "sub/secret/s.go": "",
		"sub/.quarryignore":      "drafts/\n",
		"sub/drafts/d.md":        "",
		"sub/deeper/drafts/e.md": "",
	},
	want: []string{".gitignore", ".quarryignore", "gen/a.go", "important.log", "sub/.gitignore", "sub/.quarryignore", "sub/x.md"},
}, {
	name: "ignore files themselves can be ignored and still apply",
	files: map[string]string{
		".gitignore":     ".gitignore\n*.bak\n",
		"sub/.gitignore": "*.tmp\n",
		"a.bak":          "", "sub/b.tmp": "", "sub/c.go": "",
	},
	want: []string{"sub/c.go"},
}}

func TestIgnoreRules(t *testing.T) {
	for _, tt := range ignoreScenarios {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeWalkTestTree(t, root, tt.files)
			if got, _ := walkTestPaths(t, root, WalkOptions{}); !slices.Equal(got, tt.want) {
				t.Errorf("Walk files = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestIgnoreRulesMatchGit checks every scenario without a .quarryignore against
// `git ls-files --others --exclude-standard`, which lists the files git does not ignore.
func TestIgnoreRulesMatchGit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	for _, tt := range ignoreScenarios {
		if slices.ContainsFunc(slices.Collect(maps.Keys(tt.files)), func(p string) bool {
			return filepath.Base(p) == quarryignoreFileName
		}) {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			home := t.TempDir() // no global excludes file, no user config
			git := func(args ...string) []byte {
				cmd := exec.Command(gitBin, args...)
				cmd.Dir = root
				cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home,
					"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "none"))
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("git %v: %v", args, err)
				}
				return out
			}
			git("init", "-q")
			writeWalkTestTree(t, root, tt.files)
			var fromGit []string
			for p := range bytes.SplitSeq(git("ls-files", "-z", "--others", "--exclude-standard"), []byte{0}) {
				if len(p) > 0 {
					fromGit = append(fromGit, string(p))
				}
			}
			slices.Sort(fromGit)
			if got, _ := walkTestPaths(t, root, WalkOptions{}); !slices.Equal(got, fromGit) {
				t.Errorf("Walk files = %q, git says %q", got, fromGit)
			}
		})
	}
}

// TestIgnorePatternMatch pins the corrections to go-git's matching, one pattern at a time. The
// rows marked "go-git differs" are ones where go-git's own Pattern gives the other answer.
func TestIgnorePatternMatch(t *testing.T) {
	tests := []struct {
		pattern string
		domain  string // directory of the ignore file, "" for the root
		path    string
		isDir   bool
		want    gitignore.MatchResult
	}{
		{"foo", "", "foo", false, gitignore.Exclude},
		{"foo", "", "a/b/foo", true, gitignore.Exclude},
		{"foo", "", "foo/bar", false, gitignore.NoMatch}, // go-git differs: it matches the parent
		{"!foo", "", "a/foo", false, gitignore.Include},
		{"foo/", "", "foo", false, gitignore.NoMatch},
		{"foo/", "", "foo", true, gitignore.Exclude},
		{"!logs/", "", "logs/x.log", false, gitignore.NoMatch}, // go-git differs
		{"a/b", "", "a/b", false, gitignore.Exclude},
		{"a/b", "", "a/b/c", false, gitignore.NoMatch}, // go-git differs
		{"a/b", "", "x/a/b", false, gitignore.NoMatch},
		{"/a", "", "a", false, gitignore.Exclude},
		{"/a", "", "x/a", false, gitignore.NoMatch},
		{"/a/", "", "a", false, gitignore.NoMatch},
		{"a/*.go", "", "a/x.go", false, gitignore.Exclude},
		{"a/*.go", "", "a/b/x.go", false, gitignore.NoMatch},
		{"**/foo", "", "foo", false, gitignore.Exclude},
		{"**/foo", "", "a/b/foo", false, gitignore.Exclude},
		{"**/foo", "", "a/foo/b", false, gitignore.NoMatch}, // go-git differs
		{"**/a/b", "", "x/a/b", false, gitignore.Exclude},
		{"**/a/b", "", "a/b/x/b", false, gitignore.NoMatch}, // go-git differs
		{"abc/**", "", "abc", true, gitignore.NoMatch},      // go-git differs
		{"abc/**", "", "abc/x", false, gitignore.Exclude},
		{"abc/**", "", "abc/x/y", false, gitignore.Exclude},
		{"a/**/", "", "a/f", false, gitignore.NoMatch}, // go-git differs
		{"a/**/", "", "a/d", true, gitignore.Exclude},
		{"a/**/z", "", "a/z", false, gitignore.Exclude},
		{"a/**/z", "", "a/b/c/z", false, gitignore.Exclude},
		{"a/**/z", "", "a/z/c", false, gitignore.NoMatch}, // go-git differs
		{"[!a]*", "", "b", false, gitignore.Exclude},
		{"[!a]*", "", "a", false, gitignore.NoMatch},
		{`\[!a]`, "", "[!a]", false, gitignore.Exclude},
		{"x/**/[!a]", "", "x/y/b", false, gitignore.Exclude},
		{"x/**/[!a]", "", "x/y/a", false, gitignore.NoMatch},
		{"x", "sub", "x", false, gitignore.NoMatch},
		{"x", "sub", "sub/x", false, gitignore.Exclude},
		{"x", "sub", "sub/d/x", false, gitignore.Exclude},
		{"/x", "sub", "sub/d/x", false, gitignore.NoMatch},
		{"d/x", "sub", "sub/d/x", false, gitignore.Exclude},
		{"**/x", "sub", "other/x", false, gitignore.NoMatch},
	}
	for _, tt := range tests {
		var domain []string
		if tt.domain != "" {
			domain = strings.Split(tt.domain, "/")
		}
		p, ok := newIgnorePattern(tt.pattern, domain)
		if !ok {
			t.Fatalf("newIgnorePattern(%q) matches nothing", tt.pattern)
		}
		if got := p.Match(strings.Split(tt.path, "/"), tt.isDir); got != tt.want {
			t.Errorf("pattern %q in %q: Match(%q, dir=%v) = %v, want %v", tt.pattern, tt.domain, tt.path, tt.isDir, got, tt.want)
		}
	}
}

func TestNewIgnorePatternMatchesNothing(t *testing.T) {
	for _, line := range []string{"", "   ", "!", "/", "!/", "//"} {
		if _, ok := newIgnorePattern(line, nil); ok {
			t.Errorf("newIgnorePattern(%q) = ok, want no pattern", line)
		}
	}
}

func TestWorktreeInfoExclude(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
	}{{
		name: ".git directory",
		files: map[string]string{
			".git/info/exclude": "*.tmp\n",
		},
	}, {
		name: ".git file to a worktree git directory with a commondir",
		files: map[string]string{
			".git":                                "gitdir: ../repo/.git/worktrees/wt\n",
			"../repo/.git/worktrees/wt/commondir": "../..\n",
			"../repo/.git/info/exclude":           "*.tmp\n",
		},
	}, {
		name: ".git file to a submodule git directory",
		files: map[string]string{
			".git":                   "gitdir: ../modgit\n",
			"../modgit/info/exclude": "*.tmp\n",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "wt")
			files := map[string]string{"a.go": "", "b.tmp": ""}
			for k, v := range tt.files {
				files[k] = v
			}
			for name, content := range files {
				writeWalkTestTree(t, base, map[string]string{filepath.ToSlash(filepath.Join("wt", name)): content})
			}
			if got, want := walkTestPathsOnly(t, root), []string{"a.go"}; !slices.Equal(got, want) {
				t.Errorf("Walk files = %q, want %q", got, want)
			}
		})
	}
}

// walkTestPathsOnly walks root with default options and returns the paths found.
func walkTestPathsOnly(t *testing.T, root string) []string {
	t.Helper()
	got, _ := walkTestPaths(t, root, WalkOptions{})
	return got
}
