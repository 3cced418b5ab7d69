package scoring

import (
	"testing"

	"github.com/quarrysearch/quarry/languages"
)

// TestPromotionOutOfCode: a heading or a config key named as asked for ranks below every
// promoted definition in code, tests and qualified names included, whatever their priors,
// and above a definition that is not promoted.
func TestPromotionOutOfCode(t *testing.T) {
	source, tests := PathWeight(Source, false), PathWeight(Test, false)
	weakestInCode := []float64{
		Promotion("Flask", "", "", Definition{Name: "flask", Kind: "class", Path: "tests/a.py"}, tests),             // case folded, in a test
		Promotion("app.Flask", "app", "Flask", Definition{Name: "Flask", Kind: "class", Path: "tests/b.py"}, tests), // qualified by nothing, in a test
	}
	for _, tt := range []struct {
		d      Definition
		weight float64
	}{
		{Definition{Name: "Flask", Kind: "namespace", Path: "README.md", Category: languages.Docs}, PathWeight(Docs, false)},
		{Definition{Name: "Flask", Kind: "field", Path: "pyproject.toml", Category: languages.Config}, source},
		{Definition{Name: "Flask", Kind: "field", Path: "deploy/app.yaml", Category: languages.Config}, source},
	} {
		p := Promotion("Flask", "", "", tt.d, tt.weight)
		if p <= 0 {
			t.Errorf("Promotion(Flask, %s %s) = %v, want above 0", tt.d.Kind, tt.d.Path, p)
		}
		p += PriorSpread // the most a prior adds to it
		for _, w := range weakestInCode {
			if p >= w {
				t.Errorf("Promotion(Flask, %s %s) = %v, want below %v (the weakest promotion in code)", tt.d.Kind, tt.d.Path, p, w)
			}
		}
	}
}
