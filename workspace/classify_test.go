package workspace

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/extract"
)

// Building blocks for Classify's cases.
var (
	// classifyProse is about 1.3 KB of English on one line, one space in six bytes.
	classifyProse = strings.Repeat("The indexer walks the workspace, reads every file that is not ignored, "+
		"and records the symbols it defines so that a search can find them quickly. ", 9)
	classifyMinifiedJS  = strings.Repeat("function a(b,c){return b+c}var d=a(1,2),e=[d,d];if(e.length>1){d=e[0]}", 300)
	classifyMinifiedCSS = strings.Repeat(".nav>li{margin:0;padding:2px 4px;color:#333}.btn:hover{opacity:.8}", 300)
	classifyCompactJSON = "[" + strings.Repeat(`{"id":1,"name":"alpha","tags":["x","y"],"ok":true},`, 300) + "{}]"
)

// classifyCodeLines returns n lines of ordinary Go code.
func classifyCodeLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\tresult%d := compute(input, %d) // step %d of the pipeline\n", i, i, i)
	}
	return b.String()
}

// classifyBase64 returns n bytes of base64 of pseudo-random data, on one line.
func classifyBase64(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	raw := make([]byte, n*3/4)
	for i := range raw {
		raw[i] = byte(r.IntN(256))
	}
	return base64.StdEncoding.EncodeToString(raw)
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name, path, content string
		want                extract.SkipReason
	}{
		{"empty", "a.go", "", ""},
		{"NUL byte", "a.dat", "abc\x00def", extract.SkipBinary},
		{"NUL byte past the sniffed head", "a.txt", strings.Repeat("x\n", 4500) + "\x00", ""},
		{"Go code", "main.go", "package main\n\nfunc main() {\n" + classifyCodeLines(200) + "}\n", ""},
		{"minified JS", "app.js", classifyMinifiedJS, extract.SkipMinified},
		{"minified JS after a licence header", "lib.js",
			"/*!\n * lib v1.0\n * (c) someone\n * MIT licence\n */\n" + classifyMinifiedJS + "\n", extract.SkipMinified},
		{"minified CSS", "site.css", classifyMinifiedCSS, extract.SkipMinified},
		{"compact JSON", "data.json", classifyCompactJSON, extract.SkipMinified},
		{"pretty JSON", "data.json", strings.ReplaceAll(classifyCompactJSON, "},", "},\n"), ""},
		{"source map", "app.js.map", `{"version":3,"mappings":"` + strings.Repeat("AAAA,CAAC;", 500) + `"}`, extract.SkipMinified},
		{"*.min.js with one long line", "vendor.min.js", classifyCodeLines(100) + strings.Repeat("x", 1500) + "\n", extract.SkipMinified},
		{"the same as a plain .js", "vendor.js", classifyCodeLines(100) + strings.Repeat("x", 1500) + "\n", ""},
		{"*.min.js without long lines", "small.min.js", classifyCodeLines(20), ""},
		{"-bundle.js", "main-bundle.js", classifyMinifiedJS[:2000], extract.SkipMinified},
		{"JS with one data URI among code", "icons.js",
			classifyCodeLines(300) + "const icon = \"data:image/png;base64," + classifyBase64(6000) + "\";\n", ""},
		{"Markdown with a few long lines", "README.md",
			"# Title\n\n" + strings.Repeat("Short line of text.\n", 100) + strings.Repeat(classifyProse+"\n\n", 3), ""},
		{"Markdown with one paragraph a line", "NOTES.md", strings.Repeat(classifyProse+"\n\n", 30), ""},
		{"one paragraph on one line", "notes.txt", classifyProse + classifyProse, ""},
		{"README with an inline image", "README.md",
			"# Tool\n\n" + strings.Repeat("Some prose about the tool and how to run it.\n", 30) +
				"![logo](data:image/png;base64," + classifyBase64(6000) + ")\n", ""},
		{"base64 blob", "core.base64", classifyBase64(40000), extract.SkipMinified},
		{"digits", "pi.txt", "3." + strings.Repeat("1415926535897932384626433832795028841971", 1000), extract.SkipMinified},
		{"fuzz corpus", "testdata/fuzz/FuzzX/0a1b", "go test fuzz v1\n[]byte(\"" + classifyBase64(4000) + "\")\n", extract.SkipMinified},
		{"Go test with a huge literal", "x_test.go",
			"package x\n\nfunc TestX(t *testing.T) {\n" + classifyCodeLines(40) + "\tconst data = `" + classifyCompactJSON + "`\n}\n", ""},
		{"Go file that is all one packed literal", "bindata.go",
			"package x\n\nvar data = \"" + classifyBase64(30000) + "\"\n", extract.SkipMinified},
		{"long-lined but spaced-out code", "table.go",
			"package x\n\nvar table = []int{" + strings.Repeat("1, 2, 3, 4, 5, 6, ", 2000) + "}\n", ""},
		{"upper-case name", "APP.MIN.JS", classifyMinifiedJS[:1500], extract.SkipMinified},
		{"CRLF lines", "win.js", strings.Repeat("var x = 1;\r\n", 500), ""},
	}
	for _, tt := range tests {
		if got := Classify(tt.path, []byte(tt.content)); got != tt.want {
			st := measureMinifiedLines([]byte(tt.content)[:min(len(tt.content), classifyHeadLen)])
			t.Errorf("%s: Classify(%q, %d bytes) = %q, want %q (lines %+v)", tt.name, tt.path, len(tt.content), got, tt.want, st)
		}
	}
}

func TestMeasureMinifiedLines(t *testing.T) {
	long := strings.Repeat("y", minifiedLongLineLen+1)
	tests := []struct {
		text string
		want minifiedLineStats
	}{
		{"", minifiedLineStats{}},
		{"a", minifiedLineStats{lines: 1, longest: 1}},
		{"a\n", minifiedLineStats{lines: 1, longest: 1}},
		{"a\n\nbcd", minifiedLineStats{lines: 3, longest: 3}},
		{"x\n" + long + "\n" + long, minifiedLineStats{lines: 3, longBytes: 2 * len(long), longest: len(long)}},
	}
	for _, tt := range tests {
		if got := measureMinifiedLines([]byte(tt.text)); got != tt.want {
			t.Errorf("measureMinifiedLines(%.20q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	inputs := map[string]string{
		"code.go":  "package main\n" + strings.Repeat(classifyCodeLines(100), 20),
		"app.js":   strings.Repeat(classifyMinifiedJS, 4),
		"notes.md": strings.Repeat(classifyProse+"\n\n", 60),
	}
	for name, content := range inputs {
		b.Run(name, func(b *testing.B) {
			src := []byte(content)
			b.SetBytes(int64(min(len(src), classifyHeadLen)))
			b.ReportAllocs()
			for b.Loop() {
				Classify(name, src)
			}
		})
	}
}
