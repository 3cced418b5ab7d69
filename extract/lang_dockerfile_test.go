package extract

import "testing"

func TestDockerfileSymbols(t *testing.T) {
	f := extractString(t, "Dockerfile", `ARG BASE=alpine
# Builder.
FROM golang:1.22 AS build
# Target.
ARG TARGETOS
ENV CGO_ENABLED=0 GOFLAGS=-trimpath
RUN GOOS=$TARGETOS go build ./...

FROM ${BASE}
LABEL maintainer="search"
COPY --from=build /out/app /app
`)
	checkSymbols(t, f, []symWant{
		{"BASE", Variable, "", "", ""},
		{"build", Module, "", "Builder.", ""},
		{"TARGETOS", Variable, "", "Target.", "build"},
		{"CGO_ENABLED", Variable, "", "", "build"},
		{"GOFLAGS", Variable, "", "", "build"},
		{"${BASE}", Module, "", "", ""},
		{"maintainer", Property, "", "", "${BASE}"},
	})
	if s := symbolsByName(f)["build"]; s.StartLine != 3 || s.EndLine != 7 {
		t.Errorf("stage build spans lines %d-%d, want 3-7", s.StartLine, s.EndLine)
	}
	for _, name := range []string{"build", "TARGETOS", "BASE"} {
		if !hasIdent(f, name, VariableRef) {
			t.Errorf("no variable_ref %q in %+v", name, f.Identifiers)
		}
	}
	if len(f.Relationships) != 1 || f.Relationships[0].To != "build" || f.Relationships[0].Kind != Uses {
		t.Errorf("relationships = %+v, want one use of build", f.Relationships)
	}
}

func TestDockerfileNames(t *testing.T) {
	reg := registry(t)
	for _, p := range []string{"Dockerfile", "ci/Containerfile", "app.dockerfile"} {
		if l := reg.ForPath(p); l == nil || l.Name != "dockerfile" {
			t.Errorf("ForPath(%q) = %v, want dockerfile", p, l)
		}
	}
}
