package tools

import (
	"github.com/quarrysearch/quarry/extract"
	"github.com/quarrysearch/quarry/index/search"
	"github.com/quarrysearch/quarry/languages"
)

// Capabilities is what this Quarry can do, for an agent to read instead of help text.
type Capabilities struct {
	AgentVersion string          `json:"agent_version"`
	Operations   []OperationInfo `json:"operations"`
	Languages    []string        `json:"languages" jsonschema:"canonical language names (aliases are accepted too)"`
	Targets      []string        `json:"targets"`
	Kinds        []string        `json:"kinds" jsonschema:"symbol kinds, for the kind filter"`
	ErrorCodes   []Code          `json:"error_codes"`
	Transports   []string        `json:"transports"`
	Limits       Limits          `json:"limits"`
	FilePattern  string          `json:"file_pattern" jsonschema:"the glob syntax of file_pattern"`
}

// OperationInfo names an operation and what it does.
type OperationInfo struct {
	Name    string `json:"name"`
	Tool    string `json:"tool,omitempty"`
	Summary string `json:"summary"`
}

// Limits are the bounds of requests.
type Limits struct {
	DefaultLimit int `json:"default_limit"`
	MaxLimit     int `json:"max_limit"`
	MaxContext   int `json:"max_context_lines"`
	MaxQuery     int `json:"max_query_bytes"`
}

// Transports this build serves.
var Transports = []string{"cli"}

// GetCapabilities returns the capabilities document.
func GetCapabilities() (*Capabilities, error) {
	reg, err := languages.Default()
	if err != nil {
		return nil, err
	}
	c := &Capabilities{AgentVersion: AgentVersion, Languages: reg.Names(), Kinds: extract.Kinds(), ErrorCodes: Codes,
		Transports: Transports, Limits: Limits{DefaultLimit: DefaultLimit, MaxLimit: MaxLimit, MaxContext: MaxContext, MaxQuery: MaxQueryBytes},
		FilePattern: "globs separated by commas; * (not /), ** (any depth), ?, [abc], {a,b}; a glob without / matches the file name at any depth; !glob excludes"}
	for _, t := range search.Targets {
		c.Targets = append(c.Targets, string(t))
	}
	for _, op := range Operations {
		c.Operations = append(c.Operations, OperationInfo{Name: op.Name, Tool: op.Tool, Summary: op.Summary})
	}
	return c, nil
}
