# train/doccount.awk: a quick heuristic count of DOCUMENTED definitions, per language, for
# train/corpus.sh's report (the exact counts come from Quarry's extractors later).
#
#   awk -v lang=LANG -f train/doccount.awk FILE...     prints: LANG DEFS DOCUMENTED
#
# A definition is a line that opens a function, method, class, type, ... of LANG; it is
# documented when
#   python        the next non-blank line after its header (the line ending in ':') starts a
#                 docstring ("""/''');
#   go            the line above it is a // comment (godoc);
#   rust          the nearest line above it that is not an attribute #[...] is a /// or //!
#                 line or closes a /** */ comment;
#   ruby          the line above it is a # comment (RDoc/YARD), not a magic comment;
#   c, java, javascript, typescript, php
#                 the nearest line above it that is not an annotation/decorator closes a
#                 comment (*/) or is a // or /// comment (C: also a trailing /**< */ is not
#                 counted).
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
function isdef(t) {
	if (lang == "go") return t ~ /^func / || t ~ /^type [A-Za-z_]/ || (intype && t ~ /^[A-Z][A-Za-z0-9_]* /)
	if (lang == "rust") return t ~ /^(pub(\([a-z:]+\))? )?((async|const|unsafe|default|extern "[A-Za-z]+") )*(fn|struct|enum|trait|type|union|mod|static|const|macro_rules!) /
	if (lang == "ruby") return t ~ /^(def|class|module|attr_(reader|writer|accessor)) /
	if (lang == "c") return t ~ /^(typedef|struct|union|enum|#define)[ \t]/ || (t ~ /^[A-Za-z_][A-Za-z0-9_ \t\*]*[ \t\*][A-Za-z_][A-Za-z0-9_]*[ \t]*\(/ && t !~ /^(return|if|while|for|switch|else)[ (]/)
	if (lang == "java") return t ~ /^((public|protected|private|static|final|abstract|synchronized|native|default|sealed|strictfp)[ \t]+)*(class|interface|enum|record|@interface)[ \t]/ || t ~ /^((public|protected|private|static|final|abstract|synchronized|native|default)[ \t]+)+[A-Za-z_<][A-Za-z0-9_<>,.\[\]? \t]*[ \t][A-Za-z_][A-Za-z0-9_]*[ \t]*\(/
	if (lang == "php") return t ~ /^((public|protected|private|static|final|abstract)[ \t]+)*(function|class|interface|trait|enum|const)[ \t]/
	# javascript, typescript: declarations, methods with a body ({ at the end) or a typed
	# signature (): T;), typed property signatures (name: T;); not calls nor object literals
	return t ~ /^(export[ \t]+)?(default[ \t]+)?(declare[ \t]+)?(async[ \t]+)?(function\*?|class|interface|type|enum|namespace|module|abstract[ \t]+class)[ \t]/ || t ~ /^(export[ \t]+)?(declare[ \t]+)?(const|let|var)[ \t]+[A-Za-z_$][A-Za-z0-9_$]*[ \t]*[:=]/ || t ~ /^((public|private|protected|static|readonly|abstract|async|get|set)[ \t]+)*[A-Za-z_$][A-Za-z0-9_$]*\??[ \t]*(<[^>]*>)?\(/ && t !~ /^(if|for|while|switch|return|catch|function|super|this)[ \t(]/ && (t ~ /\{[ \t]*$/ || t ~ /\)[ \t]*:[^=]*;[ \t]*$/) || t ~ /^((readonly|static)[ \t]+)*[A-Za-z_$][A-Za-z0-9_$]*\??:[^,]*;[ \t]*$/
}
FNR == 1 { prev = ""; pend = 0; intype = 0; incomment = 0 }
{
	t = trim($0)
	if (lang == "python") {
		if (pend == 1) { if (t ~ /:$/ || t ~ /:[ \t]*#/) pend = 2; next }
		if (pend == 2) {
			if (t == "") next
			if (t ~ /^[rRuUbB]?("""|''')/) doc++
			pend = 0
		}
		if (t ~ /^(async[ \t]+)?(def|class)[ \t]/) { defs++; pend = (t ~ /:$/ || t ~ /:[ \t]*#/) ? 2 : 1 }
		next
	}
	if (lang == "go") {
		if (t ~ /^type \($/) intype = 1; else if (t == ")") intype = 0
		if (isdef(t)) { defs++; if (prev ~ /^\/\//) doc++ }
		prev = t
		next
	}
	if (lang == "ruby") {
		if (isdef(t)) { defs++; if (prev ~ /^#/ && prev !~ /^#[ \t]*(frozen_string_literal|encoding|-\*-)/ && prev !~ /^#--/) doc++ }
		prev = t
		next
	}
	# brace languages: skip annotations, attributes and decorators when looking back
	if (t ~ /^#\[/ && lang == "rust") next
	if (t ~ /^@[A-Za-z]/ && (lang == "java" || lang == "typescript" || lang == "javascript")) next
	if (t ~ /^#\[/ && lang == "php") next
	if (isdef(t)) {
		defs++
		if (lang == "rust") { if (prev ~ /^\/\/[\/!]/ || prev ~ /\*\/$/) doc++ }
		else if (prev ~ /\*\/$/ || prev ~ /^\/\//) doc++
	}
	if (t != "") prev = t
}
END { printf "%s %d %d\n", lang, defs, doc }
