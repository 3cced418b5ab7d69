package main

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The Go oracle: go/types over every package under a root in GOPATH layout
// ($GOPATH/src/IMPORT/PATH), its tests included; dependencies are type-checked from source
// (GOPATH mode). A definition's uses are the identifiers whose types.Info.Uses object is the
// definition's object (a method's or field's selections included; generic instances count
// for their origin).

type goChecker struct {
	fset   *token.FileSet
	ctxt   build.Context
	root   string            // the root directory
	prefix string            // its import path
	dirs   map[string]string // import path -> directory, the root's packages
	pkgs   map[string]*types.Package
	busy   map[string]bool
	deps   types.ImporterFrom
	info   *types.Info
	files  []*ast.File
	fnames map[*ast.File]string
	errs   int
	errOut io.Writer
}

func (g *goChecker) Import(path string) (*types.Package, error) {
	return g.ImportFrom(path, g.root, 0)
}

func (g *goChecker) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if _, ours := g.dirs[path]; ours {
		return g.check(path, false)
	}
	return g.deps.ImportFrom(path, dir, mode)
}

// check type-checks the root's package path (with its in-package tests) or, with xtest, its
// external test package.
func (g *goChecker) check(path string, xtest bool) (*types.Package, error) {
	key := path
	if xtest {
		key += "_test"
	}
	if p, ok := g.pkgs[key]; ok {
		return p, nil
	}
	if g.busy[key] {
		return nil, fmt.Errorf("import cycle through %s", key)
	}
	g.busy[key] = true
	defer delete(g.busy, key)
	bp, err := g.ctxt.ImportDir(g.dirs[path], 0)
	if err != nil {
		return nil, err
	}
	names := append(append([]string(nil), bp.GoFiles...), bp.TestGoFiles...)
	if xtest {
		names = bp.XTestGoFiles
	}
	var files []*ast.File
	for _, n := range names {
		fn := filepath.Join(bp.Dir, n)
		f, err := parser.ParseFile(g.fset, fn, nil, parser.SkipObjectResolution)
		if err != nil {
			g.errs++
			fmt.Fprintf(g.errOut, "oracle-go: %v\n", err)
			if f == nil {
				continue
			}
		}
		files = append(files, f)
		g.fnames[f] = fn
	}
	conf := types.Config{
		Importer:    g,
		FakeImportC: true,
		Error: func(err error) {
			g.errs++
			if g.errs <= 10 {
				fmt.Fprintf(g.errOut, "oracle-go: %v\n", err)
			}
		},
	}
	pkgPath := path
	if xtest {
		pkgPath += "_test"
	}
	pkg, _ := conf.Check(pkgPath, g.fset, files, g.info)
	g.pkgs[key] = pkg
	g.files = append(g.files, files...)
	return pkg, nil
}

// gopathImportPath gives the import path of dir under one of the GOPATH's src directories.
func gopathImportPath(ctxt build.Context, dir string) (string, error) {
	for _, gp := range filepath.SplitList(ctxt.GOPATH) {
		src, err := filepath.Abs(filepath.Join(gp, "src"))
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(src, dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel), nil
		}
	}
	return "", fmt.Errorf("%s is not under a GOPATH src directory (GOPATH=%s): the Go oracle works in GOPATH mode", dir, ctxt.GOPATH)
}

type goCand struct {
	obj      types.Object
	name     string
	rel      string
	line     int
	kind     string
	callable bool
	key      string
}

func runOracleGo(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("navcheck oracle-go", flag.ContinueOnError)
	fl.SetOutput(stderr)
	rootFlag := fl.String("root", "", "the package tree's root directory, under $GOPATH/src")
	n := fl.Int("n", 150, "definitions to sample")
	seed := fl.String("seed", "quarry-nav", "the sample's seed")
	gooses := fl.String("goos", "linux,windows,darwin", "type-check for each of these GOOS (files under build constraints count for each); the first one's definitions are sampled")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *rootFlag == "" || fl.NArg() > 0 || *n < 1 {
		fmt.Fprintln(stderr, "navcheck oracle-go: -root DIR is required (and -n at least 1)")
		return 2
	}
	root, err := filepath.Abs(*rootFlag)
	if err != nil {
		fmt.Fprintf(stderr, "navcheck oracle-go: %v\n", err)
		return 2
	}
	// GOPATH mode: go/build must not ask the go command about modules.
	os.Setenv("GO111MODULE", "off")
	ctxt := build.Default
	if gp := os.Getenv("GOPATH"); gp != "" {
		ctxt.GOPATH = gp
	}
	prefix, err := gopathImportPath(ctxt, root)
	if err != nil {
		fmt.Fprintf(stderr, "navcheck oracle-go: %v\n", err)
		return 2
	}
	var checkers []*goChecker
	for i, goos := range strings.Split(*gooses, ",") {
		errOut := stderr
		if i > 0 {
			errOut = io.Discard // another GOOS's type errors (its dependencies may be missing) are counted only
		}
		g, err := checkGOOS(ctxt, goos, root, prefix, errOut)
		if err != nil {
			fmt.Fprintf(stderr, "navcheck oracle-go: %v\n", err)
			return 1
		}
		checkers = append(checkers, g)
	}
	defs := goOracle(checkers, *n, *seed)
	enc := json.NewEncoder(stdout)
	for _, d := range defs {
		if err := enc.Encode(d); err != nil {
			fmt.Fprintf(stderr, "navcheck oracle-go: %v\n", err)
			return 1
		}
	}
	for _, g := range checkers {
		fmt.Fprintf(stderr, "oracle-go: %s: %d packages, %d files, %d type errors\n", g.ctxt.GOOS, len(g.dirs), len(g.files), g.errs)
	}
	fmt.Fprintf(stderr, "oracle-go: %d definitions sampled\n", len(defs))
	return 0
}

// checkGOOS type-checks every package under root (tests included) as GOOS goos.
// go/importer's source importer reads build.Default, so it is set for the run.
func checkGOOS(ctxt build.Context, goos, root, prefix string, stderr io.Writer) (*goChecker, error) {
	ctxt.GOOS = goos
	build.Default.GOOS = goos
	build.Default.GOPATH = ctxt.GOPATH
	fset := token.NewFileSet()
	g := &goChecker{
		fset: fset, ctxt: ctxt, root: root, prefix: prefix,
		dirs: map[string]string{}, pkgs: map[string]*types.Package{}, busy: map[string]bool{},
		deps: importer.ForCompiler(fset, "source", nil).(types.ImporterFrom),
		info: &types.Info{
			Defs:  map[*ast.Ident]types.Object{},
			Uses:  map[*ast.Ident]types.Object{},
			Types: map[ast.Expr]types.TypeAndValue{},
		},
		fnames: map[*ast.File]string{},
		errOut: stderr,
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		bp, err := ctxt.ImportDir(p, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) || (err == nil && len(bp.GoFiles)+len(bp.TestGoFiles)+len(bp.XTestGoFiles) == 0) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		ip := prefix
		if rel != "." {
			ip += "/" + filepath.ToSlash(rel)
		}
		g.dirs[ip] = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(g.dirs) == 0 {
		return nil, fmt.Errorf("no Go packages under %s", root)
	}
	paths := make([]string, 0, len(g.dirs))
	for p := range g.dirs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if _, err := g.check(p, false); err != nil {
			fmt.Fprintf(stderr, "oracle-go: %s (%s): %v\n", p, goos, err)
		}
		if _, err := g.check(p, true); err != nil {
			fmt.Fprintf(stderr, "oracle-go: %s_test (%s): %v\n", p, goos, err)
		}
	}
	return g, nil
}

// origin is the generic object an instantiated method or field comes from.
func origin(o types.Object) types.Object {
	switch o := o.(type) {
	case *types.Func:
		return o.Origin()
	case *types.Var:
		return o.Origin()
	}
	return o
}

func goOracle(checkers []*goChecker, n int, seed string) []oracleDef {
	g := checkers[0]
	rel := func(g *goChecker, pos token.Pos) (string, int, bool) {
		p := g.fset.Position(pos)
		r, err := filepath.Rel(g.root, p.Filename)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", 0, false
		}
		return filepath.ToSlash(r), p.Line, true
	}
	// candidates: the definitions of non-test files
	var cands []goCand
	seen := map[types.Object]bool{}
	for id, obj := range g.info.Defs {
		if obj == nil || seen[obj] || len(id.Name) < 3 || id.Name == "init" || id.Name == "main" {
			continue
		}
		r, line, ok := rel(g, id.Pos())
		if !ok || strings.HasSuffix(r, "_test.go") {
			continue
		}
		c := goCand{obj: obj, name: id.Name, rel: r, line: line}
		switch o := obj.(type) {
		case *types.Func:
			c.kind, c.callable = "function", true
			if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
				c.kind = "method"
			}
		case *types.TypeName:
			if _, tp := o.Type().(*types.TypeParam); tp {
				continue
			}
			c.kind = "type"
		case *types.Const:
			if o.Parent() != o.Pkg().Scope() {
				continue
			}
			c.kind = "constant"
		case *types.Var:
			switch {
			case o.IsField():
				if o.Anonymous() {
					continue
				}
				c.kind = "field"
			case o.Parent() == o.Pkg().Scope():
				c.kind = "variable"
			default:
				continue // locals, parameters, results
			}
			_, c.callable = o.Type().Underlying().(*types.Signature)
		default:
			continue
		}
		seen[obj] = true
		cands = append(cands, c)
	}
	h := func(s string) string {
		sum := sha1.Sum([]byte(seed + "\x00" + s))
		return hex.EncodeToString(sum[:])
	}
	byFile := map[string][]goCand{}
	for _, c := range cands {
		c.key = h(fmt.Sprintf("%s:%s:%d", c.rel, c.name, c.line))
		byFile[c.rel] = append(byFile[c.rel], c)
	}
	order := make([]string, 0, len(byFile))
	for f := range byFile {
		order = append(order, f)
		sort.Slice(byFile[f], func(i, j int) bool { return byFile[f][i].key < byFile[f][j].key })
	}
	sort.Slice(order, func(i, j int) bool { return h(order[i]) < h(order[j]) })
	var sample []goCand
	for round := 0; len(sample) < n; round++ {
		took := false
		for _, f := range order {
			if l := byFile[f]; round < len(l) && len(sample) < n {
				sample = append(sample, l[round])
				took = true
			}
		}
		if !took {
			break
		}
	}
	type defKey struct {
		loc
		name string
	}
	want := map[defKey]int{}
	for i, c := range sample {
		want[defKey{loc{c.rel, c.line}, c.name}] = i
	}
	uses := make([]map[loc]bool, len(sample))
	for i := range uses {
		uses[i] = map[loc]bool{}
	}
	for _, g := range checkers {
		calls := callIdents(g)
		for id, obj := range g.info.Uses {
			o := origin(obj)
			r, line, ok := rel(g, o.Pos())
			if !ok {
				continue
			}
			i, ok := want[defKey{loc{r, line}, o.Name()}]
			if !ok {
				continue
			}
			r, line, ok = rel(g, id.Pos())
			if !ok || (r == sample[i].rel && line == sample[i].line) {
				continue
			}
			l := loc{r, line}
			uses[i][l] = uses[i][l] || calls[id]
		}
	}
	out := make([]oracleDef, len(sample))
	for i, c := range sample {
		d := oracleDef{Name: c.name, Path: c.rel, Line: c.line, Kind: c.kind, Callable: c.callable, Uses: []oracleUse{}}
		for _, l := range sortedLocs(uses[i], func(loc) bool { return true }) {
			d.Uses = append(d.Uses, oracleUse{Path: l.Path, Line: l.Line, Call: uses[i][l]})
		}
		out[i] = d
	}
	return out
}

// callIdents gives the identifiers that are a call's function (through parentheses,
// selectors and type arguments; a conversion is no call).
func callIdents(g *goChecker) map[*ast.Ident]bool {
	calls := map[*ast.Ident]bool{}
	for _, f := range g.files {
		ast.Inspect(f, func(nd ast.Node) bool {
			call, ok := nd.(*ast.CallExpr)
			if !ok {
				return true
			}
			if tv, ok := g.info.Types[call.Fun]; ok && tv.IsType() {
				return true
			}
			fun := call.Fun
			for unwrapped := false; !unwrapped; {
				switch e := fun.(type) {
				case *ast.ParenExpr:
					fun = e.X
				case *ast.IndexExpr:
					fun = e.X
				case *ast.IndexListExpr:
					fun = e.X
				default:
					unwrapped = true
				}
			}
			switch e := fun.(type) {
			case *ast.Ident:
				calls[e] = true
			case *ast.SelectorExpr:
				calls[e.Sel] = true
			}
			return true
		})
	}
	return calls
}
