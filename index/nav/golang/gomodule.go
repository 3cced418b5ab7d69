package golang

// Go imports of the workspace's own module: with the module path its go.mod declares
// (module github.com/gin-gonic/gin), an import of the module names a directory exactly: the
// root for the module itself (gin.Context in ginS/ is the root package's Context), render/
// for github.com/gin-gonic/gin/render. Without a go.mod, or for an import outside the
// module, the import path's last directories are matched (pickUnder).

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path"
	"strings"

	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/nav/resolve"
)

// goImported returns the one candidate of the package the Go import path target names.
func (r *resolver) goImported(target string, cands []*resolve.Def) (*resolve.Def, error) {
	mod, err := r.goModulePath()
	if err != nil {
		return nil, err
	}
	if mod == "" || target != mod && !strings.HasPrefix(target, mod+"/") {
		return resolve.PickUnder(cands, target, true), nil
	}
	dir := strings.TrimPrefix(strings.TrimPrefix(target, mod), "/")
	if dir == "" {
		dir = "."
	}
	var hit []*resolve.Def
	for _, d := range cands {
		if path.Dir(d.Path) == dir && d.ParentID == "" && d.Kind != extract.Method.String() {
			hit = append(hit, d) // pkg.X names a package-level definition, never a method
		}
	}
	return resolve.One(hit), nil
}

// goModulePath returns the module path of the workspace's go.mod, "" when it has none (read
// once per request).
func (r *resolver) goModulePath() (string, error) {
	if r.goMod != nil {
		return *r.goMod, nil
	}
	mod := ""
	c, err := r.Store().Content(r.Context(), "go.mod")
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return "", err
	default:
		mod = ModDirective(c)
	}
	r.goMod = &mod
	return mod, nil
}

// ModDirective returns the path of a go.mod's module directive ("" when it has none).
func ModDirective(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest, _, _ = strings.Cut(rest, "//")
			return strings.Trim(strings.TrimSpace(rest), `"`+"`")
		}
	}
	return ""
}
