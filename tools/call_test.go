package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCallBadArguments(t *testing.T) {
	s, err := NewService(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		op, args string
		code     Code
		want     string
	}{
		{"fast_search", `{"qurey":"x"}`, CodeUnknownField, `did you mean "query"?`},
		{"fast_search", `{"query":"x","limt":3}`, CodeUnknownField, `did you mean "limit"?`},
		{"fast_search", `{"query":3}`, CodeBadValue, `field "query": got a JSON number, want a string`},
		{"fast_search", `{"query":"x","limit":"ten"}`, CodeBadValue, `field "limit"`},
		{"fast_search", `{"query":"x","kind":"class"}`, CodeBadValue, `want an array of string`},
		{"fast_search", `[1]`, CodeBadValue, "must be a JSON object"},
		{"fast_search", `{"query":`, CodeBadValue, "not valid JSON"},
		{"fast_search", `{}`, CodeBadQuery, "empty query"},
		{"fast_search", `{"query":"x","target":"defs"}`, CodeBadValue, "valid targets"},
		{"fast_search", `{"query":"x","limit":100000}`, CodeBadValue, "out of range"},
		{"fast_search", `{"query":"x","language":"cobol"}`, CodeBadValue, "known languages"},
		{"fast_search", `{"query":"x","kind":["klass"]}`, CodeBadValue, "valid kinds"},
		{"fast_search", `{"query":"x","file_pattern":"src/[ab"}`, CodeBadValue, "unclosed ["},
		{"fast_search", `{"query":"x","workspace":"nope"}`, CodeUnknownWorkspace, "unknown workspace"},
		{"fast_search", `{"query":"x","max_bytes":-1}`, CodeBadValue, "max_bytes"},
		{"fast_goto", `{"symbol":""}`, CodeBadQuery, "empty symbol"},
		{"fast_goto", `{"symbol":"X","context_file":"../../etc/passwd"}`, CodePathOutsideWorkspace, "outside the workspace"},
		{"fast_goto", `{"symbol":"X","limit":-3}`, CodeBadValue, "out of range"},
		{"fast_nothing", `{}`, CodeBadValue, "no operation"},
	}
	for _, tt := range tests {
		_, err := s.Call(context.Background(), tt.op, json.RawMessage(tt.args))
		var e *Error
		if !errors.As(AsError(err), &e) || e.Code != tt.code || !strings.Contains(e.Message, tt.want) {
			t.Errorf("Call(%s, %s) = %v, want %s with %q", tt.op, tt.args, err, tt.code, tt.want)
		}
	}
}
