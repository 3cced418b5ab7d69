package web

// The server-rendered views: a file with its outline, a definition's references, its
// callers or callees. html/template escapes everything they print.

import (
	"bytes"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/quarrysearch/quarry/tools"
)

// fileLine is one line of the file view.
type fileLine struct {
	N    int
	HTML template.HTML
}

type fileView struct {
	Path, Workspace, Query, Language string
	Lines                            []fileLine
	Outline                          []tools.Symbol
	Imports                          []tools.Symbol // the file's leading imports, folded above the outline
	OutlineNote                      string
}

// file serves the file view: GET /file?path=P[&workspace=W][&q=QUERY] (#L120, #L120-L140).
func (s *server) file(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := s.svc.File(r.Context(), q.Get("workspace"), q.Get("path"))
	if err != nil {
		s.errorPage(w, err)
		return
	}
	v := fileView{Path: f.Path, Workspace: f.Workspace, Query: q.Get("q")}
	var spans []tools.SyntaxSpan
	v.Language, spans = s.svc.Highlight(r.Context(), f.Path, f.Content)
	if v.Language == "" {
		v.Language = "text"
	}
	v.Lines = highlight(f.Content, spans, queryWords(v.Query))
	// The outline beside it: get_symbols of the file (primary workspace).
	res, err := s.svc.Call(r.Context(), "symbols", mustJSON(map[string]any{"file_path": f.Path, "limit": 5000}))
	if sr, ok := res.(*tools.SymbolsResult); err == nil && ok {
		// the outline starts at the first definition: the imports before it (and a package
		// clause with nothing inside it, Go's) are folded
		n := 0
		for n < len(sr.Results) {
			sym := sr.Results[n]
			clause := sym.Kind == "module" && (n+1 == len(sr.Results) || sr.Results[n+1].Depth <= sym.Depth)
			if sym.Kind != "import" && !clause {
				break
			}
			n++
		}
		v.Imports, v.Outline = sr.Results[:n], sr.Results[n:]
	} else if err != nil {
		v.OutlineNote = tools.AsError(err).Message
	}
	render(w, "file", v)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func render(w http.ResponseWriter, name string, v any) {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, v); err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

// queryWords are the words of a query worth marking in a file: letters, digits and _, two
// characters or more, without a field's name (lang:go marks nothing).
func queryWords(q string) []string {
	var out []string
	for _, f := range strings.Fields(q) {
		if i := strings.IndexByte(f, ':'); i >= 0 {
			continue
		}
		for _, w := range strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
			if len(w) >= 2 {
				out = append(out, strings.ToLower(w))
			}
		}
	}
	return out
}

// highlight renders content as lines of HTML: each classified span (spans, in order) in a
// span of its class, the words marked.
func highlight(content []byte, spans []tools.SyntaxSpan, words []string) []fileLine {
	text := string(content)
	var lines []fileLine
	var cur strings.Builder
	flush := func() {
		lines = append(lines, fileLine{N: len(lines) + 1, HTML: template.HTML(cur.String())})
		cur.Reset()
	}
	// write adds text[from:to] in class (none: ""), a line at a time
	write := func(from, to int, class string) {
		for i, p := range strings.Split(text[from:to], "\n") {
			if i > 0 {
				flush()
			}
			if p == "" {
				continue
			}
			if class != "" {
				cur.WriteString(`<span class="` + class + `">`)
			}
			cur.WriteString(markWords(p, words))
			if class != "" {
				cur.WriteString(`</span>`)
			}
		}
	}
	at := 0
	for _, sp := range spans {
		start, end := int(sp.Start), min(int(sp.End), len(text))
		if start < at || start >= end {
			continue
		}
		write(at, start, "")
		write(start, end, sp.Syntax.CSSClass())
		at = end
	}
	write(at, len(text), "")
	if cur.Len() > 0 || len(lines) == 0 {
		flush()
	}
	if n := len(lines); n > 1 && lines[n-1].HTML == "" && strings.HasSuffix(text, "\n") {
		lines = lines[:n-1]
	}
	return lines
}

// markWords escapes s and wraps each case-insensitive occurrence of a word in <mark>.
func markWords(s string, words []string) string {
	if len(words) == 0 {
		return template.HTMLEscapeString(s)
	}
	lower := strings.ToLower(s)
	var b strings.Builder
	i := 0
	for i < len(s) {
		best, at := "", -1
		for _, w := range words {
			if j := strings.Index(lower[i:], w); j >= 0 && (at < 0 || j < at || j == at && len(w) > len(best)) {
				best, at = w, j
			}
		}
		if at < 0 || len(lower) != len(s) { // a case change that resizes the text: no marks
			b.WriteString(template.HTMLEscapeString(s[i:]))
			break
		}
		b.WriteString(template.HTMLEscapeString(s[i : i+at]))
		b.WriteString("<mark>" + template.HTMLEscapeString(s[i+at:i+at+len(best)]) + "</mark>")
		i += at + len(best)
	}
	return b.String()
}

type refsView struct {
	Symbol, Workspace string
	Result            *tools.RefsResult
}

// refs serves a definition's references: GET /refs?symbol=S[&workspace=W].
func (s *server) refs(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := s.svc.Call(r.Context(), "refs", mustJSON(map[string]any{"symbol": q.Get("symbol"), "workspace": q.Get("workspace"), "limit": 500}))
	if err != nil {
		s.errorPage(w, err)
		return
	}
	render(w, "refs", refsView{Symbol: q.Get("symbol"), Workspace: q.Get("workspace"), Result: res.(*tools.RefsResult)})
}

type callsView struct {
	Symbol, Workspace, Direction string
	Depth                        int
	Result                       *tools.CallsResult
}

// calls serves a definition's callers or callees as a tree: GET /calls?symbol=S&direction=
// callers|callees[&depth=N][&workspace=W].
func (s *server) calls(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	depth := 2
	if d := q.Get("depth"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil {
			s.errorPage(w, tools.Errorf(tools.CodeBadValue, "depth", "depth %q: want a whole number from 1 to 5", d))
			return
		}
		depth = n
	}
	dir := q.Get("direction")
	if dir == "" {
		dir = tools.CallsCallers
	}
	res, err := s.svc.Call(r.Context(), "calls", mustJSON(map[string]any{"symbol": q.Get("symbol"), "direction": dir, "depth": depth, "workspace": q.Get("workspace")}))
	if err != nil {
		s.errorPage(w, err)
		return
	}
	render(w, "calls", callsView{Symbol: q.Get("symbol"), Workspace: q.Get("workspace"), Direction: dir, Depth: depth, Result: res.(*tools.CallsResult)})
}

var pages = template.Must(template.New("pages").Funcs(template.FuncMap{
	// markName marks each whole-word use of name in a quoted line of code
	"markName": markName,
	// refName is the name a references view marks: its definition's, else the symbol's last part
	"refName": func(r *tools.RefsResult, symbol string) string {
		if r != nil && r.Definition != nil {
			return r.Definition.Name
		}
		return tools.SymbolName(symbol)
	},
	"fileURL": func(ws, path, q string, line int) string {
		v := url.Values{"path": {path}}
		if ws != "" {
			v.Set("workspace", ws)
		}
		if q != "" {
			v.Set("q", q)
		}
		u := "/file?" + v.Encode()
		if line > 0 {
			u += "#L" + strconv.Itoa(line)
		}
		return u
	},
	"navURL": func(page, ws, symbol, dir string) string {
		v := url.Values{"symbol": {symbol}}
		if ws != "" {
			v.Set("workspace", ws)
		}
		if dir != "" {
			v.Set("direction", dir)
		}
		return "/" + page + "?" + v.Encode()
	},
	"callable": func(kind string) bool {
		return kind == "function" || kind == "method" || kind == "constructor" || kind == "destructor" || kind == "operator"
	},
	"rootName": func(r *tools.CallsResult, symbol string) string {
		if len(r.Nodes) > 0 && r.Nodes[0].Name != "" {
			return r.Nodes[0].Name
		}
		return symbol
	},
}).Parse(pageTemplates))

const pageTemplates = `
{{define "head"}}<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}} · Quarry</title><link rel="stylesheet" href="/static/style.css"></head><body>
<header class="bar"><a class="brand" href="/">Quarry</a><form action="/" method="get" class="mini"><input name="q" placeholder="Search (/)" aria-label="search"></form></header>{{end}}

{{define "error"}}{{template "head" "Error"}}<main class="error"><h1>{{.Code}}</h1><p id="error-message">{{.Message}}</p><p><a href="/">Back to search</a></p></main></body></html>{{end}}

{{define "file"}}{{template "head" .Path}}
<main class="fileview">
<nav class="outline" aria-label="outline"><h2>Outline</h2>{{if .OutlineNote}}<p class="note">{{.OutlineNote}}</p>{{end}}
{{if .Imports}}<details class="imports"><summary>{{len .Imports}} imports and declarations</summary><ul>{{range .Imports}}<li class="sym d{{.Depth}}"><a class="line" href="#L{{.Line}}">{{.Line}}</a> <span class="kind">{{.Kind}}</span> {{.Name}}</li>{{end}}</ul></details>{{end}}
<ul>{{range .Outline}}<li class="sym d{{.Depth}}"><a class="line" href="#L{{.Line}}">{{.Line}}</a> <span class="kind">{{.Kind}}</span> <a class="def" href="{{navURL "refs" $.Workspace .SymbolID ""}}" title="references of {{.Name}}">{{.Name}}</a> {{if callable .Kind}}<a class="callers" href="{{navURL "calls" $.Workspace .SymbolID "callers"}}" title="callers of {{.Name}}">callers</a>{{end}}</li>{{end}}</ul></nav>
<section class="code"><h1 id="path">{{.Path}}</h1><p class="meta">{{.Language}} · {{len .Lines}} lines{{if .Query}} · marked: <span id="marked">{{.Query}}</span>{{end}}</p>
<table class="src syntax"><tbody>{{range .Lines}}<tr id="L{{.N}}"><td class="ln"><a href="#L{{.N}}">{{.N}}</a></td><td class="lc"><code>{{.HTML}}</code></td></tr>{{end}}</tbody></table></section>
</main><script src="/static/file.js"></script></body></html>{{end}}

{{define "refs"}}{{template "head" (printf "References of %s" .Symbol)}}
<main class="nav"><h1>References of {{with .Result.Definition}}<span class="kind">{{.Kind}}</span> <a href="{{fileURL $.Workspace .Path .Name .Line}}">{{.Name}}</a> <span class="where">{{.Path}}:{{.Line}}</span>{{else}}{{.Symbol}}{{end}}</h1>
<p class="meta">{{.Result.Total}} uses{{if .Result.Truncated}}, the first {{len .Result.Results}} shown{{end}}{{if .Result.Notice}} · {{.Result.Notice}}{{end}}{{with .Result.Definition}} · <a href="{{navURL "calls" $.Workspace .ID "callers"}}">callers</a> · <a href="{{navURL "calls" $.Workspace .ID "callees"}}">callees</a>{{end}}</p>
<ol class="refs">{{range .Result.Results}}<li><a href="{{fileURL (or .Workspace $.Workspace) .Path $.Symbol .Line}}">{{.Path}}:{{.Line}}</a> <span class="kind">{{.Kind}}</span>{{if .Container}} in <span class="container">{{.Container}}</span>{{end}} <code>{{markName .Text (refName $.Result $.Symbol)}}</code></li>{{end}}</ol></main></body></html>{{end}}

{{define "calls"}}{{template "head" (printf "%s of %s" .Direction (rootName .Result .Symbol))}}
<main class="nav"><h1><span class="dir">{{.Direction}}</span> of {{rootName .Result .Symbol}}</h1>
<p class="meta">{{.Result.Count}} in a tree {{.Depth}} deep{{if .Result.Truncated}} (truncated){{end}} · <a href="{{navURL "calls" .Workspace .Symbol "callers"}}">callers</a> · <a href="{{navURL "calls" .Workspace .Symbol "callees"}}">callees</a> · <a href="{{navURL "refs" .Workspace .Symbol ""}}">references</a></p>
<ul class="tree">{{range .Result.Nodes}}<li class="node depth-{{.Depth}}" data-depth="{{.Depth}}">{{if .Symbol}}<span class="kind">{{.Symbol.Kind}}</span> <a class="def" href="{{fileURL $.Workspace .Symbol.Path .Name .Symbol.Line}}">{{.Name}}</a> <span class="where">{{.Symbol.Path}}:{{.Symbol.Line}}</span> <a href="{{navURL "calls" $.Workspace .Symbol.ID $.Direction}}">{{$.Direction}}</a>{{else}}<span class="unresolved">{{.Name}}</span>{{end}}{{if .Cycle}} <span class="cycle">(cycle)</span>{{end}}</li>{{end}}</ul></main></body></html>{{end}}
`

// markName returns text, escaped, with each whole-word occurrence of name in <mark>: the use
// a references view quotes the line for.
func markName(text, name string) template.HTML {
	var b strings.Builder
	isWord := func(c byte) bool {
		return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
	}
	for name != "" {
		i := strings.Index(text, name)
		if i < 0 {
			break
		}
		end := i + len(name)
		whole := (i == 0 || !isWord(text[i-1])) && (end == len(text) || !isWord(text[end]))
		if !whole {
			b.WriteString(template.HTMLEscapeString(text[:end]))
			text = text[end:]
			continue
		}
		b.WriteString(template.HTMLEscapeString(text[:i]))
		b.WriteString("<mark>" + template.HTMLEscapeString(name) + "</mark>")
		text = text[end:]
	}
	b.WriteString(template.HTMLEscapeString(text))
	return template.HTML(b.String())
}
