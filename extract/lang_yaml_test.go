package extract

import (
	"slices"
	"testing"
)

func TestYAMLWorkflow(t *testing.T) {
	f := extractString(t, "ci.yml", `on: push
jobs:
  # build compiles everything.
  build:
    name: Build
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Compile
        run: make
      - id: vet
        run: go vet ./...
`)
	checkSymbols(t, f, []symWant{
		{"jobs", Property, "", "", ""},
		{"build", Function, "", "build compiles everything.", "jobs"},
		{"runs-on", Property, "", "", "build"},
		{"steps", Property, "", "", "build"},
		{"Compile", Method, "", "", "build"},
		{"vet", Method, "", "", "build"},
	})
	syms := symbolsByName(f)
	if s := syms["Compile"]; s.StartLine != 9 || s.Signature != "- name: Compile" {
		t.Errorf("step Compile: line %d signature %q, want 9 %q", s.StartLine, s.Signature, "- name: Compile")
	}
	if got := syms["build"].Metadata["name"]; got != "Build" {
		t.Errorf("job build: metadata name %q, want %q", got, "Build")
	}
	var names []string
	for _, s := range f.Symbols {
		names = append(names, s.Name)
	}
	want := []string{"on", "jobs", "build", "name", "runs-on", "steps", "Compile", "vet"}
	if !slices.Equal(names, want) { // the step without a name or id is skipped
		t.Errorf("symbols %q, want %q", names, want)
	}
}

func TestYAMLKubernetes(t *testing.T) {
	f := extractString(t, "app.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
spec:
  replicas: 2
---
# The web service.
apiVersion: v1
kind: Service
metadata:
  name: "web-http"
---
plain: value
`)
	checkSymbols(t, f, []symWant{
		{"web", Class, "", "", ""},
		{"web-http", Class, "", "The web service.", ""},
		{"plain", Property, "", "", ""},
	})
	syms := symbolsByName(f)
	if s := syms["web"]; s.Signature != "Deployment web" || s.Metadata["namespace"] != "prod" || s.StartLine != 1 {
		t.Errorf("web: signature %q namespace %q line %d, want %q %q 1", s.Signature, s.Metadata["namespace"], s.StartLine, "Deployment web", "prod")
	}
	for _, key := range []string{"spec", "replicas", "metadata", "kind"} {
		if _, ok := syms[key]; ok {
			t.Errorf("the key %s of a Kubernetes object became a symbol", key)
		}
	}
}

func TestYAMLKeysAndCompose(t *testing.T) {
	f := extractString(t, "compose.yml", `x-base: &base
  restart: always
services:
  api:
    <<: *base
    image: api:1
    deploy:
      resources:
        limits: {}
`)
	checkSymbols(t, f, []symWant{
		{"x-base", Property, "", "", ""},
		{"restart", Property, "", "", "x-base"},
		{"services", Property, "", "", ""},
		{"api", Class, "", "", "services"},
		{"image", Property, "", "", "api"},
		{"deploy", Property, "", "", "api"},
	})
	syms := symbolsByName(f)
	for _, name := range []string{"<<", "resources", "limits"} {
		if _, ok := syms[name]; ok {
			t.Errorf("symbol %q: merge keys and keys deeper than %d are not symbols", name, yamlMaxDepth)
		}
	}
	if got := syms["x-base"].Signature; got != "x-base: &base" {
		t.Errorf("x-base signature = %q, want %q", got, "x-base: &base")
	}
}
