package extract

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

func init() { register("dockerfile", extractDockerfile) }

// dockerDirective matches a parser directive (# syntax=..., # escape=`, # check=...), which
// configures the build and documents nothing.
var dockerDirective = regexp.MustCompile(`(?i)^(syntax|escape|check)\s*=`)

// dockerFromFlag is the flag of COPY (and ADD) that copies out of another stage or image.
const dockerFromFlag = "--from="

// dockerFile is the state of one Dockerfile extraction.
type dockerFile struct {
	stage  *Symbol         // the stage being read, nil before the first FROM
	last   *Node           // the last instruction of that stage
	stages map[string]bool // the names of the stages read so far
	count  int             // how many stages were read
}

// extractDockerfile walks a Dockerfile: each build stage (FROM image AS name) is a module
// named by its alias, or by its image when it has none, spanning its instructions; ARG
// (variable), ENV (variable) and LABEL keys (property) are symbols, children of their stage.
// An ENV is a variable, not a constant: a later ENV and docker run -e both override it.
// Expansions ($NAME, ${NAME}) are variable references, FROM <stage> and COPY --from=<stage>
// refer to the stage, as an extends and a uses relationship.
func extractDockerfile(w *walker, root *Node) {
	df := &dockerFile{stages: map[string]bool{}}
	for _, n := range namedChildren(root) {
		switch n.Type() {
		case "comment":
			continue
		case "from_instruction":
			dockerCloseStage(w, df)
			dockerStage(w, df, n)
		default:
			w.within(df.stage, func() { dockerInstruction(w, df, n) })
		}
		df.last = n
	}
	dockerCloseStage(w, df)
}

// dockerCloseStage extends the span of the current stage to its last instruction.
func dockerCloseStage(w *walker, df *dockerFile) {
	if df.stage == nil || df.last == nil {
		return
	}
	end := w.span(df.last)
	df.stage.EndLine, df.stage.EndColumn, df.stage.EndByte = end.EndLine, end.EndColumn, end.EndByte
}

// dockerStage adds the stage a FROM instruction starts.
func dockerStage(w *walker, df *dockerFile, n *Node) {
	spec := childOfType(n, "image_spec")
	image := field(spec, "name")
	name := w.text(field(n, "as"))
	if name == "" {
		name = w.text(image)
	}
	df.stage = w.addNamed(n, name, Module)
	if df.stage == nil {
		return
	}
	df.stage.Signature = w.signature(n, nil)
	df.stage.DocComment = dockerDoc(w, n)
	meta(df.stage, "image", w.text(spec))
	meta(df.stage, "stage", strconv.Itoa(df.count))
	df.count++
	w.within(df.stage, func() {
		if base := w.text(image); df.stages[base] {
			w.ident(image, VariableRef)
			w.relate(df.stage, base, Extends, image)
		}
		dockerRefs(w, n)
	})
	df.stages[name] = true
}

// dockerInstruction extracts an instruction inside a stage (or before the first one).
func dockerInstruction(w *walker, df *dockerFile, n *Node) {
	switch n.Type() {
	case "arg_instruction":
		if sym := w.add(n, field(n, "name"), Variable); sym != nil {
			sym.Signature = w.signature(n, nil)
			sym.DocComment = dockerDoc(w, n)
			meta(sym, "instruction", "ARG")
		}
	case "env_instruction":
		dockerPairs(w, n, "env_pair", "name", "ENV", Variable)
	case "label_instruction":
		dockerPairs(w, n, "label_pair", "key", "LABEL", Property)
	case "copy_instruction", "add_instruction":
		dockerCopyFrom(w, df, n)
	}
	dockerRefs(w, n)
}

// dockerPairs adds a symbol of kind for each key=value pair of an ENV or LABEL instruction
// n; a lone pair spans the whole instruction and each pair's signature is keyword pair.
func dockerPairs(w *walker, n *Node, pairType, keyField, keyword string, kind Kind) {
	pairs := childrenOfType(n, pairType)
	for i, p := range pairs {
		at := p
		if len(pairs) == 1 {
			at = n
		}
		sym := w.addNamed(at, strings.Trim(w.text(field(p, keyField)), `"'`), kind)
		if sym == nil {
			continue
		}
		sym.Signature = oneLine(keyword+" "+w.text(p), maxSignatureRunes)
		sym.DocComment = ""
		if i == 0 {
			sym.DocComment = dockerDoc(w, n)
		}
		meta(sym, "instruction", keyword)
	}
}

// dockerCopyFrom records the stage (or image) a COPY --from=name copies out of.
func dockerCopyFrom(w *walker, df *dockerFile, n *Node) {
	for _, p := range childrenOfType(n, "param") {
		text := w.text(p)
		if !strings.HasPrefix(text, dockerFromFlag) || len(text) == len(dockerFromFlag) {
			continue
		}
		from := text[len(dockerFromFlag):]
		dockerIdentAt(w, p, int(p.StartByte())+len(dockerFromFlag), from, VariableRef)
		w.relate(df.stage, from, Uses, p)
	}
}

// dockerDoc returns the doc comment of instruction n without parser directives.
func dockerDoc(w *walker, n *Node) string {
	lines := strings.Split(w.docComment(n), "\n")
	out := lines[:0]
	for _, l := range lines {
		if !dockerDirective.MatchString(l) {
			out = append(out, l)
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// dockerRefs records a variable reference for each expansion under n, and for each $NAME
// or ${NAME} in the shell commands (which the grammar leaves as text).
func dockerRefs(w *walker, n *Node) {
	for _, c := range namedChildren(n) {
		switch c.Type() {
		case "expansion":
			if v := childOfType(c, "variable"); v != nil { // ${NAME:-default} holds NAME:-default
				text := w.text(v)
				dockerIdentAt(w, v, int(v.StartByte()), text[:dockerNameLen(text, 0)], VariableRef)
			}
		case "shell_fragment":
			dockerShellRefs(w, c)
		default:
			dockerRefs(w, c)
		}
	}
}

// dockerShellRefs records the $NAME and ${NAME} expansions in the shell text n.
func dockerShellRefs(w *walker, n *Node) {
	text := w.text(n)
	for i := 0; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '{' {
			j++
		}
		k := j + dockerNameLen(text, j)
		if k > j {
			dockerIdentAt(w, n, int(n.StartByte())+j, text[j:k], VariableRef)
		}
		i = k - 1
	}
}

// dockerNameLen returns the length of the variable name at the start of text[i:].
func dockerNameLen(text string, i int) int {
	k := i
	for k < len(text) && (text[k] == '_' || isASCIILetter(text[k]) || k > i && text[k] >= '0' && text[k] <= '9') {
		k++
	}
	return k - i
}

// isASCIILetter reports whether b is an ASCII letter.
func isASCIILetter(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' }

// dockerIdentAt records a use of name spelled at byte offset off inside the node n (a name
// the grammar does not give a node of its own).
func dockerIdentAt(w *walker, n *Node, off int, name string, kind IdentKind) {
	end := off + len(name)
	if name == "" || end > len(w.src) || strings.ContainsAny(name, " \t\r\n") || len(name) > maxNameRunes {
		return
	}
	line := int(n.StartPoint().Row) + 1 + bytes.Count(w.src[n.StartByte():off], []byte("\n"))
	lineStart := bytes.LastIndexByte(w.src[:off], '\n') + 1
	sp := Span{StartLine: line, EndLine: line, StartByte: off, EndByte: end}
	sp.StartColumn = w.column(off, off-lineStart)
	sp.EndColumn = w.column(end, end-lineStart)
	id := Identifier{Name: name, Kind: kind, Span: sp}
	if c := w.container(); c != nil {
		id.ContainingSymbolID = c.ID
	}
	w.f.Identifiers = append(w.f.Identifiers, id)
}
