package extract

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/css"
	"github.com/smacker/go-tree-sitter/cue"
	"github.com/smacker/go-tree-sitter/dockerfile"
	"github.com/smacker/go-tree-sitter/elixir"
	"github.com/smacker/go-tree-sitter/elm"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/groovy"
	"github.com/smacker/go-tree-sitter/hcl"
	"github.com/smacker/go-tree-sitter/html"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/lua"
	markdown "github.com/smacker/go-tree-sitter/markdown/tree-sitter-markdown"
	"github.com/smacker/go-tree-sitter/ocaml"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/protobuf"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/sql"
	"github.com/smacker/go-tree-sitter/svelte"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/toml"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
	"github.com/smacker/go-tree-sitter/yaml"
)

// grammars maps the grammar names of languages.KnownGrammars to tree-sitter languages.
var grammars = map[string]func() *sitter.Language{
	"bash": bash.GetLanguage, "c": c.GetLanguage, "cpp": cpp.GetLanguage,
	"csharp": csharp.GetLanguage, "golang": golang.GetLanguage, "java": java.GetLanguage,
	"javascript": javascript.GetLanguage, "kotlin": kotlin.GetLanguage, "lua": lua.GetLanguage,
	"php": php.GetLanguage, "python": python.GetLanguage, "ruby": ruby.GetLanguage,
	"rust": rust.GetLanguage, "scala": scala.GetLanguage, "swift": swift.GetLanguage,
	"tsx": tsx.GetLanguage, "typescript": typescript.GetLanguage,
	"css": css.GetLanguage, "dockerfile": dockerfile.GetLanguage, "hcl": hcl.GetLanguage,
	"markdown": markdown.GetLanguage, "protobuf": protobuf.GetLanguage, "sql": sql.GetLanguage,
	"toml": toml.GetLanguage, "yaml": yaml.GetLanguage,
	"cue": cue.GetLanguage, "elixir": elixir.GetLanguage, "elm": elm.GetLanguage,
	"groovy": groovy.GetLanguage, "html": html.GetLanguage, "ocaml": ocaml.GetLanguage,
	"svelte": svelte.GetLanguage,
}
