package workspace

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/extract"
)

// writeWalkTestTree creates files under root: each key is a slash-separated path, its value the
// content; a key ending in "/" makes an (empty) directory.
func writeWalkTestTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walkTestPaths walks root and returns the paths of the files found, with the result.
func walkTestPaths(t *testing.T, root string, opts WalkOptions) ([]string, *WalkResult) {
	t.Helper()
	res, err := Walk(context.Background(), root, opts)
	if err != nil {
		t.Fatalf("Walk(%s) error: %v", root, err)
	}
	paths := make([]string, len(res.Files))
	for i, f := range res.Files {
		paths[i] = f.Path
	}
	return paths, res
}

// hasSkippedSample reports whether res holds a sample of path skipped for reason.
func hasSkippedSample(res *WalkResult, path string, reason extract.SkipReason) bool {
	return slices.Contains(res.Samples, Skipped{Path: path, Reason: reason})
}

func TestWalkBuiltinSkips(t *testing.T) {
	root := t.TempDir()
	writeWalkTestTree(t, root, map[string]string{
		"main.go":                      "package main",
		".git/config":                  "[core]",
		".quarry/registry.json":        "{}",
		".hg/store":                    "x",
		"sub/.git":                     "gitdir: ../.git/modules/sub", // submodule
		"sub/lib.go":                   "package sub",
		"node_modules/p/index.js":      "x",
		"web/node_modules/q/index.js":  "x",
		"web/package.json":             "{}",
		"web/dist/app.js":              "x",
		"web/src/app.ts":               "x",
		"py/__pycache__/a.cpython.pyc": "x",
		"py/.venv/lib/x.py":            "x",
		"py/venv/pyvenv.cfg":           "home = /usr",
		"py/venv/lib/y.py":             "x",
		"py/pyproject.toml":            "[project]",
		"py/build/lib/z.py":            "x",
		"py/app.py":                    "x",
		"rs/Cargo.toml":                "[package]",
		"rs/target/debug/x":            "x",
		"rs/src/main.rs":               "fn main() {}",
		"notes/target/goals.md":        "no manifest beside target: source",
		"go/build/build.go":            "package build", // GOROOT's go/build
		"cmd/dist/main.go":             "package main",  // GOROOT's cmd/dist
		"cache/CACHEDIR.TAG":           "Signature: 8a477f597d28d172789f06886806bc55",
		"cache/blob":                   "x",
		"cm/CMakeCache.txt":            "x",
		"cm/Makefile":                  "x",
		"cs/app.csproj":                "<Project/>",
		"cs/bin/Debug/app.dll":         "x",
		"cs/obj/project.assets.json":   "x",
		"cs/Program.cs":                "x",
		"vendor/github.com/x/y/y.go":   "package y",
	})
	got, res := walkTestPaths(t, root, WalkOptions{})
	want := []string{
		"cmd/dist/main.go", "cs/Program.cs", "cs/app.csproj", "go/build/build.go", "main.go",
		"notes/target/goals.md", "py/app.py", "py/pyproject.toml", "rs/Cargo.toml",
		"rs/src/main.rs", "sub/lib.go", "vendor/github.com/x/y/y.go", "web/package.json",
		"web/src/app.ts",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Walk files = %q, want %q", got, want)
	}
	skipped := []string{
		".git/", ".hg/", ".quarry/", "cache/", "cm/", "cs/bin/", "cs/obj/", "node_modules/",
		"py/.venv/", "py/__pycache__/", "py/build/", "py/venv/", "rs/target/", "sub/.git",
		"web/dist/", "web/node_modules/",
	}
	if n := res.Skipped[extract.SkipBuiltin]; n != len(skipped) {
		t.Errorf("Skipped[builtin] = %d, want %d", n, len(skipped))
	}
	for _, p := range skipped {
		if !hasSkippedSample(res, p, extract.SkipBuiltin) {
			t.Errorf("no builtin sample %q in %v", p, res.Samples)
		}
	}
}

func TestWalkReincludeBuiltin(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{{
		name: "quarryignore re-includes node_modules, dist and a cache, never .git",
		files: map[string]string{
			".quarryignore":      "!node_modules/\n!dist/\n!cache/\n!.git/\n",
			"node_modules/a.js":  "x",
			"package.json":       "{}",
			"dist/b.js":          "x",
			"cache/CACHEDIR.TAG": "x",
			".git/config":        "x",
		},
		want: []string{".quarryignore", "cache/CACHEDIR.TAG", "dist/b.js", "node_modules/a.js", "package.json"},
	}, {
		name: "gitignore negation does not re-include builtins",
		files: map[string]string{
			".gitignore":        "*\n!*/\n!*.js\n!.gitignore\n",
			"node_modules/a.js": "x",
			"src/b.js":          "x",
		},
		want: []string{".gitignore", "src/b.js"},
	}, {
		name: "quarryignore negation of a file does not re-include its builtin directory",
		files: map[string]string{
			".quarryignore":     "!node_modules/a.js\n",
			"node_modules/a.js": "x",
		},
		want: []string{".quarryignore"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeWalkTestTree(t, root, tt.files)
			if got, _ := walkTestPaths(t, root, WalkOptions{}); !slices.Equal(got, tt.want) {
				t.Errorf("Walk files = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWalkSizeCap(t *testing.T) {
	tests := []struct {
		name     string
		max      int64
		sizes    map[string]int64
		want     []string
		tooLarge []string
	}{
		{"default 1 MiB", 0, map[string]int64{"at.bin": 1 << 20, "over.bin": 1<<20 + 1}, []string{"at.bin"}, []string{"over.bin"}},
		{"10 bytes", 10, map[string]int64{"a": 10, "b": 11, "c": 0}, []string{"a", "c"}, []string{"b"}},
		// Source code has its own limit (16 MiB by default), but not generated code, nor
		// languages without an extractor.
		{"source code", 0, map[string]int64{"sqlite3.c": 9 << 20, "huge.c": 16<<20 + 1, "big.pb.go": 2 << 20, "data.json": 2 << 20, "ok.py": 1 << 20},
			[]string{"ok.py", "sqlite3.c"}, []string{"big.pb.go", "data.json", "huge.c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, size := range tt.sizes {
				f, err := os.Create(filepath.Join(root, name))
				if err != nil {
					t.Fatal(err)
				}
				if err := f.Truncate(size); err != nil { // sparse: nothing is written
					t.Fatal(err)
				}
				f.Close()
			}
			got, res := walkTestPaths(t, root, WalkOptions{MaxFileSize: tt.max})
			if !slices.Equal(got, tt.want) {
				t.Errorf("Walk files = %q, want %q", got, tt.want)
			}
			for _, f := range res.Files {
				if f.Size != tt.sizes[f.Path] {
					t.Errorf("%s: Size = %d, want %d", f.Path, f.Size, tt.sizes[f.Path])
				}
			}
			if n := res.Skipped[extract.SkipTooLarge]; n != len(tt.tooLarge) {
				t.Errorf("Skipped[too_large] = %d, want %d", n, len(tt.tooLarge))
			}
			for _, p := range tt.tooLarge {
				if !hasSkippedSample(res, p, extract.SkipTooLarge) {
					t.Errorf("no too_large sample %q in %v", p, res.Samples)
				}
			}
		})
	}
}

func TestWalkSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeWalkTestTree(t, outside, map[string]string{"secret.txt": "outside", "dir/x.go": "package dir"})
	root := t.TempDir()
	writeWalkTestTree(t, root, map[string]string{
		"real.go":       "package real",
		"dir/inner.go":  "package dir",
		".git/config":   "[core]",
		"sub/.keep":     "",
		"big/large.bin": strings.Repeat("x", 100),
	})
	links := []struct{ link, target string }{
		{"file-link.go", "real.go"},                                   // indexed under its own path
		{"sub/up-link.go", "../real.go"},                              // relative, still inside
		{"chain.go", "file-link.go"},                                  // a link to a link
		{"abs-link.go", filepath.Join(root, "dir", "inner.go")},       // absolute, inside
		{"dir-link", "dir"},                                           // a directory inside: duplicate
		{"root-link", "."},                                            // the root itself
		{"out-file", filepath.Join(outside, "secret.txt")},            // out of the root
		{"out-rel", filepath.Join("..", filepath.Base(outside), "x")}, // out, and broken
		{"out-dir", filepath.Join(outside, "dir")},                    // a directory out of the root
		{"broken", "does-not-exist"},
		{"loop-a", "loop-b"},
		{"loop-b", "loop-a"},
		{"self", "self"},
		{"git-link", filepath.Join(".git", "config")}, // into VCS metadata
		{"large-link", filepath.Join("big", "large.bin")},
	}
	for _, l := range links {
		if err := os.Symlink(l.target, filepath.Join(root, filepath.FromSlash(l.link))); err != nil {
			t.Skipf("cannot create symlinks here: %v", err)
		}
	}
	got, res := walkTestPaths(t, root, WalkOptions{MaxFileSize: 50})
	want := []string{"abs-link.go", "chain.go", "dir/inner.go", "file-link.go", "real.go", "sub/.keep", "sub/up-link.go"}
	if !slices.Equal(got, want) {
		t.Errorf("Walk files = %q, want %q", got, want)
	}
	symlinks := []string{"broken", "dir-link", "git-link", "loop-a", "loop-b", "out-dir", "out-file", "out-rel", "root-link", "self"}
	if n := res.Skipped[extract.SkipSymlink]; n != len(symlinks) {
		t.Errorf("Skipped[symlink] = %d, want %d (samples %v)", n, len(symlinks), res.Samples)
	}
	for _, p := range symlinks {
		if !hasSkippedSample(res, p, extract.SkipSymlink) {
			t.Errorf("no symlink sample %q in %v", p, res.Samples)
		}
	}
	if !hasSkippedSample(res, "large-link", extract.SkipTooLarge) {
		t.Errorf("large-link not too_large: %v", res.Samples)
	}
	for _, f := range res.Files {
		if f.Path == "file-link.go" && (f.Size != int64(len("package real")) || f.AbsPath != filepath.Join(root, "file-link.go")) {
			t.Errorf("file-link.go = %+v, want the target's size under the link's path", f)
		}
	}
}

func TestWalkUnreadableDirectory(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("running as root, which reads a chmod 000 directory anyway; TestWalkVanished covers extract.SkipUnreadable")
	}
	if runtime.GOOS == "windows" {
		t.Skip("chmod does not remove read permission on Windows")
	}
	root := t.TempDir()
	writeWalkTestTree(t, root, map[string]string{"ok.go": "x", "locked/hidden.go": "x"})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	got, res := walkTestPaths(t, root, WalkOptions{})
	if want := []string{"ok.go"}; !slices.Equal(got, want) {
		t.Errorf("Walk files = %q, want %q", got, want)
	}
	if !hasSkippedSample(res, "locked/", extract.SkipUnreadable) {
		t.Errorf("no unreadable sample locked/ in %v", res.Samples)
	}
}

// TestWalkVanished removes a file and a directory after their parent is listed, as another
// process might while Walk runs. Both are unreadable, never fatal.
func TestWalkVanished(t *testing.T) {
	root := t.TempDir()
	writeWalkTestTree(t, root, map[string]string{"a.go": "x", "gone.go": "x", "gonedir/b.go": "x", "z.go": "x"})
	walkHookAfterReadDir = func(dir string) {
		if dir == root {
			os.Remove(filepath.Join(root, "gone.go"))
			os.RemoveAll(filepath.Join(root, "gonedir"))
		}
	}
	t.Cleanup(func() { walkHookAfterReadDir = nil })
	got, res := walkTestPaths(t, root, WalkOptions{})
	if want := []string{"a.go", "z.go"}; !slices.Equal(got, want) {
		t.Errorf("Walk files = %q, want %q", got, want)
	}
	for _, p := range []string{"gone.go", "gonedir/"} {
		if !hasSkippedSample(res, p, extract.SkipUnreadable) {
			t.Errorf("no unreadable sample %q in %v", p, res.Samples)
		}
	}
}

func TestWalkRootErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.go")
	writeWalkTestTree(t, dir, map[string]string{"file.go": "x"})
	tests := []struct {
		name, root string
		wantMsg    string
		wantIs     error
	}{
		{"empty", "", "workspace: walk: empty root path", nil},
		{"missing", filepath.Join(dir, "nope"), "workspace: walk " + filepath.Join(dir, "nope") + ": not found: no such file or directory", fs.ErrNotExist},
		{"file", file, "workspace: walk " + file + ": is a file, want a directory", ErrRootNotDir},
		{"under a file", filepath.Join(file, "x"), "workspace: walk " + filepath.Join(file, "x") + ": not a directory", nil},
	}
	if os.Getuid() != 0 && runtime.GOOS != "windows" {
		locked := filepath.Join(dir, "locked")
		writeWalkTestTree(t, dir, map[string]string{"locked/": ""})
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(locked, 0o755) })
		tests = append(tests, struct {
			name, root string
			wantMsg    string
			wantIs     error
		}{"permission", locked, "workspace: walk " + locked + ": permission denied", fs.ErrPermission})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Walk(context.Background(), tt.root, WalkOptions{})
			if err == nil {
				t.Fatalf("Walk(%q) = %v, want an error", tt.root, res)
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("Walk(%q) error = %q, want %q", tt.root, err, tt.wantMsg)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("Walk(%q) error = %v, want errors.Is %v", tt.root, err, tt.wantIs)
			}
		})
	}
}

func TestWalkRootSymlink(t *testing.T) {
	target := t.TempDir()
	writeWalkTestTree(t, target, map[string]string{"a.go": "x"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
	_, res := walkTestPaths(t, link, WalkOptions{})
	if len(res.Files) != 1 || res.Files[0].AbsPath != filepath.Join(link, "a.go") {
		t.Errorf("Walk(link) files = %+v, want a.go under the link", res.Files)
	}
}

func TestWalkNotRegular(t *testing.T) {
	root := t.TempDir()
	writeWalkTestTree(t, root, map[string]string{"a.go": "x"})
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	if err != nil {
		t.Skipf("cannot create a unix socket here: %v", err)
	}
	defer l.Close()
	got, res := walkTestPaths(t, root, WalkOptions{})
	if want := []string{"a.go"}; !slices.Equal(got, want) {
		t.Errorf("Walk files = %q, want %q", got, want)
	}
	if !hasSkippedSample(res, "sock", extract.SkipNotRegular) {
		t.Errorf("no not_regular sample sock in %v", res.Samples)
	}
}

func TestWalkCancelled(t *testing.T) {
	root := t.TempDir()
	writeWalkTestTree(t, root, map[string]string{"a/b.go": "x"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, root, WalkOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Walk(cancelled) error = %v, want context.Canceled", err)
	}
}

func TestWalkSortedAndDeterministic(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a.go": "1", "a/b.go": "22", "a-b.go": "333", "B.go": "4", "a b.go": "5", "ä.go": "6",
		"a/a/a.go": "7", "z/.hidden": "8",
	}
	writeWalkTestTree(t, root, files)
	first, res := walkTestPaths(t, root, WalkOptions{})
	want := []string{"B.go", "a b.go", "a-b.go", "a.go", "a/a/a.go", "a/b.go", "z/.hidden", "ä.go"}
	if !slices.Equal(first, want) {
		t.Errorf("Walk files = %q, want %q", first, want)
	}
	for _, f := range res.Files {
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if f.AbsPath != filepath.Join(root, filepath.FromSlash(f.Path)) || f.Size != int64(len(files[f.Path])) || !f.ModTime.Equal(info.ModTime()) {
			t.Errorf("candidate %+v: want AbsPath under %s, size %d, mtime %v", f, root, len(files[f.Path]), info.ModTime())
		}
	}
	for range 3 {
		if again, _ := walkTestPaths(t, root, WalkOptions{}); !slices.Equal(again, first) {
			t.Fatalf("second Walk = %q, first %q", again, first)
		}
	}
}

func TestWalkSamplesCapped(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{".gitignore": "*.log\n"}
	for i := range 25 {
		files[strings.Repeat("x", i+1)+".log"] = ""
	}
	writeWalkTestTree(t, root, files)
	_, res := walkTestPaths(t, root, WalkOptions{})
	if n := res.Skipped[extract.SkipIgnored]; n != 25 {
		t.Errorf("Skipped[ignored] = %d, want 25", n)
	}
	if n := len(res.Samples); n != MaxSkippedSamples {
		t.Errorf("len(Samples) = %d, want %d", n, MaxSkippedSamples)
	}
	if !slices.IsSortedFunc(res.Samples, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) }) {
		t.Errorf("Samples not sorted: %v", res.Samples)
	}
}

// BenchmarkWalk walks $QUARRY_WALK_CORPUS, or GOROOT/src without it.
func BenchmarkWalk(b *testing.B) {
	root := os.Getenv("QUARRY_WALK_CORPUS")
	if root == "" {
		root = filepath.Join(runtime.GOROOT(), "src")
	}
	if _, err := os.Stat(root); err != nil {
		b.Skipf("no corpus: %v", err)
	}
	b.ReportAllocs()
	var files int
	for b.Loop() {
		res, err := Walk(context.Background(), root, WalkOptions{})
		if err != nil {
			b.Fatal(err)
		}
		files = len(res.Files)
	}
	b.ReportMetric(float64(files), "files/op")
}

// TestWalkParallel: a parallel walk finds the same files (sorted, with their sizes and
// times), the same directories and the same counts of skipped entries as a walk on one
// goroutine, over a tree with ignore rules, skipped directories and symlinks (this
// repository's), and stops with the context's error.
func TestWalkParallel(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	seq, err := Walk(ctx, root, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		par, err := Walk(ctx, root, WalkOptions{Parallel: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(par.Files) != len(seq.Files) || len(seq.Files) < 100 {
			t.Fatalf("parallel walk: %d files, sequential %d", len(par.Files), len(seq.Files))
		}
		for i := range seq.Files {
			if par.Files[i] != seq.Files[i] {
				t.Fatalf("file %d: parallel %+v, sequential %+v", i, par.Files[i], seq.Files[i])
			}
		}
		if !maps.Equal(par.Skipped, seq.Skipped) {
			t.Errorf("skipped: parallel %v, sequential %v", par.Skipped, seq.Skipped)
		}
		pd, sd := slices.Sorted(slices.Values(par.Dirs)), slices.Sorted(slices.Values(seq.Dirs))
		if !slices.Equal(pd, sd) {
			t.Errorf("dirs: parallel %d, sequential %d", len(pd), len(sd))
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Walk(cancelled, root, WalkOptions{Parallel: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled parallel walk: %v, want context.Canceled", err)
	}
}
