package extract

import (
	"strings"
)

func init() { register("bash", extractBash) }

// bashMaxValueLen is the longest assigned value kept in a variable's signature.
const bashMaxValueLen = 60

// bashSourceCommands are the commands that read another script into this one.
var bashSourceCommands = map[string]bool{"source": true, ".": true}

// extractBash walks a shell script: sourced files (imports), functions, and the variables
// and read-only constants it sets at file level (export makes a variable public; local and
// assignments inside functions are locals). Commands run are calls.
func extractBash(w *walker, root *Node) {
	w.walk(root, func(w *walker, n *Node) { bashNode(w, n, true) })
}

// bashNode extracts the definitions (at file level, top) and uses of names under n.
func bashNode(w *walker, n *Node, top bool) {
	switch n.Type() {
	case "function_definition":
		bashFunction(w, n)
		return
	case "declaration_command":
		if top {
			bashDeclaration(w, n)
		}
		w.walk(n, func(w *walker, c *Node) { bashNode(w, c, false) })
		return
	case "variable_assignment":
		if top {
			bashVariable(w, n, n, "", false)
		}
	case "command":
		if bashCommand(w, n) {
			return
		}
	case "simple_expansion", "expansion":
		if v := childOfType(n, "variable_name"); v != nil && bashIsName(w.text(v)) {
			w.ident(v, VariableRef)
		}
	}
	w.walk(n, func(w *walker, c *Node) { bashNode(w, c, top) })
}

// bashCommand records a command: source/. is an import (and reports true: nothing more to
// walk), any other command name is a call.
func bashCommand(w *walker, n *Node) bool {
	name := field(n, "name")
	cmd := w.text(name)
	if bashSourceCommands[cmd] {
		if arg := field(n, "argument"); arg != nil {
			path := strings.Trim(w.text(arg), `"'`)
			meta(w.importName(n, arg, path), "kind", cmd)
			return true
		}
	}
	w.call(name)
	return false
}

// bashFunction extracts a function definition (name() { ... } or function name { ... }).
func bashFunction(w *walker, n *Node) {
	sym := w.add(n, field(n, "name"), Function)
	if sym == nil {
		return
	}
	sym.Visibility = Public
	if strings.HasPrefix(sym.DocComment, "!") { // the #! line above a first function
		_, sym.DocComment, _ = strings.Cut(sym.DocComment, "\n")
	}
	w.within(sym, func() {
		w.walk(field(n, "body"), func(w *walker, c *Node) { bashNode(w, c, false) })
	})
}

// bashDeclaration extracts the assignments of readonly, export, declare and typeset:
// readonly and declare -r make constants, export (and declare -x) a public variable.
func bashDeclaration(w *walker, n *Node) {
	keyword := ""
	if n.ChildCount() > 0 {
		keyword = w.text(n.Child(0))
	}
	var flags []string
	for _, c := range childrenOfType(n, "word") {
		if strings.HasPrefix(w.text(c), "-") {
			flags = append(flags, w.text(c))
		}
	}
	flagText := strings.Join(flags, " ")
	constant := keyword == "readonly" || strings.Contains(flagText, "r")
	exported := keyword == "export" || strings.Contains(flagText, "x")
	if keyword == "local" {
		return
	}
	for _, a := range childrenOfType(n, "variable_assignment") {
		if sym := bashVariable(w, n, a, keyword, constant); sym != nil && exported {
			sym.Visibility = Public
			meta(sym, "export", "true")
		}
	}
	if len(childrenOfType(n, "variable_assignment")) == 0 {
		for _, c := range childrenOfType(n, "variable_name", "word") {
			if !strings.HasPrefix(w.text(c), "-") {
				bashNamed(w, n, c, constant, exported)
			}
		}
	}
}

// bashNamed adds a variable declared without a value (export NAME, readonly NAME).
func bashNamed(w *walker, n, name *Node, constant, exported bool) {
	kind := Variable
	if constant {
		kind = Constant
	}
	if sym := w.add(n, name, kind); sym != nil && exported {
		sym.Visibility = Public
		meta(sym, "export", "true")
	}
}

// bashVariable adds the variable (or constant) an assignment a, in the statement n, sets.
func bashVariable(w *walker, n, a *Node, keyword string, constant bool) *Symbol {
	kind := Variable
	if constant {
		kind = Constant
	}
	sym := w.add(n, field(a, "name"), kind)
	if sym == nil {
		return nil
	}
	meta(sym, "declared_by", keyword)
	if v := field(a, "value"); v != nil && (strings.Contains(w.text(v), "\n") || len(w.text(v)) > bashMaxValueLen) {
		sym.Signature = w.signatureRange(int(n.StartByte()), int(v.StartByte()))
	}
	return sym
}

// bashIsName reports whether s names a variable, not a positional or special parameter
// ($1, $@, $?).
func bashIsName(s string) bool {
	return s != "" && !strings.ContainsAny(s[:1], "0123456789@*#?$!-")
}
