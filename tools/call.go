package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/quarrysearch/quarry/suggest"
)

// Call runs the operation named op (its CLI name or its MCP tool name) with its request as
// JSON, and returns its result. The request is decoded strictly: an unknown field is an
// UNKNOWN_FIELD error with a did-you-mean, a value of the wrong type a BAD_VALUE error
// naming the field; empty or null args are an empty request.
func (s *Service) Call(ctx context.Context, op string, args json.RawMessage) (any, error) {
	o, req, err := decodeRequest(op, args)
	if err != nil {
		return nil, err
	}
	run, ok := handlers[o.Name]
	if !ok {
		return nil, Errorf(CodeBadValue, "", "operation %s is only on the command line; agents use manage_workspace or get_symbols", o.Name)
	}
	return run(ctx, s, req)
}

// decodeRequest returns the operation named op and its request decoded strictly from args.
func decodeRequest(op string, args json.RawMessage) (Operation, any, error) {
	o, err := OperationNamed(op)
	if err != nil {
		return Operation{}, nil, err
	}
	req := reflect.New(o.Request)
	if err := DecodeStrict(args, req.Interface()); err != nil {
		return Operation{}, nil, err
	}
	return o, req.Elem().Interface(), nil
}

// handlers run each operation with its decoded request.
var handlers = map[string]func(context.Context, *Service, any) (any, error){
	"search": func(ctx context.Context, s *Service, r any) (any, error) { return s.Search(ctx, r.(SearchRequest)) },
	"goto":   func(ctx context.Context, s *Service, r any) (any, error) { return s.Goto(ctx, r.(GotoRequest)) },
	"symbols": func(ctx context.Context, s *Service, r any) (any, error) {
		return s.Symbols(ctx, r.(SymbolsRequest))
	},
	"refs":  func(ctx context.Context, s *Service, r any) (any, error) { return s.Refs(ctx, r.(RefsRequest)) },
	"calls": func(ctx context.Context, s *Service, r any) (any, error) { return s.Calls(ctx, r.(CallsRequest)) },
	"explain": func(ctx context.Context, s *Service, r any) (any, error) {
		return s.Explain(ctx, r.(ExplainRequest))
	},
	"workspace": func(ctx context.Context, s *Service, r any) (any, error) {
		return s.Workspace(ctx, r.(WorkspaceRequest))
	},
	QueryOperation: func(context.Context, *Service, any) (any, error) { return QueryLanguage() },
}

// Register makes run the handler of op, for Call and the local server, and adds op to
// Operations when it is not there: an operation a package outside this one runs (the batch
// language, tools/batchrun; a cluster's catalog, tools/clusterops).
func Register(op Operation, run func(ctx context.Context, s *Service, req any) (any, error)) {
	if _, err := OperationNamed(op.Name); err != nil {
		Operations = append(Operations, op)
	}
	handlers[op.Name] = run
}

// BatchRequest is quarry q and the MCP tool batch.
type BatchRequest struct {
	Batch    string `json:"batch" jsonschema:"statements separated by ;, e.g. search(q=\"ServeHTTP\", kind=method) { name path line }; refs(symbol=HandlerFunc, take=5); the language: schema() or quarry://batch-language"`
	Format   string `json:"format,omitempty" jsonschema:"compact (default: a # header line, the columns, then tab-separated rows, per statement) or json (an array, one entry per statement)"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"the whole answer's budget in bytes, shared by the statements in order (0: the default)"`
}

// Batch formats.
const (
	BatchCompact = "compact"
	BatchJSON    = "json"
)

// DecodeStrict decodes the JSON object data into v (a pointer to a request struct),
// rejecting unknown fields with a did-you-mean and reporting type errors by field.
func DecodeStrict(data json.RawMessage, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	if data[0] != '{' {
		return Errorf(CodeBadValue, "", "the arguments must be a JSON object, not %s", jsonKind(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err := dec.Token(); err != io.EOF {
			return Errorf(CodeBadValue, "", "unexpected data after the arguments object")
		}
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		known := fieldNames(reflect.TypeOf(v).Elem())
		msg := fmt.Sprintf("unknown field %q", field)
		if s := suggest.Closest(field, known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return Errorf(CodeUnknownField, field, "%s; fields: %s", msg, strings.Join(known, ", "))
	case errors.As(err, &typeErr):
		return Errorf(CodeBadValue, typeErr.Field, "field %q: got a JSON %s, want %s", typeErr.Field, typeErr.Value, jsonTypeName(typeErr.Type))
	case errors.As(err, &syntaxErr):
		return Errorf(CodeBadValue, "", "the arguments are not valid JSON: %v (at byte %d)", err, syntaxErr.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Errorf(CodeBadValue, "", "the arguments are not valid JSON: they end early (at byte %d)", len(data))
	}
	return Errorf(CodeBadValue, "", "bad arguments: %v", err)
}

// fieldNames returns the JSON names of a struct's fields, sorted.
func fieldNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func jsonKind(data []byte) string {
	switch data[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(jsonTypeName(t.Elem()), "a ")
	}
	return t.String()
}

// ServeOther runs the operation op, its request args as JSON, for another quarry process
// of the workspace (this one its local server, tools/localserver): the operations of
// Call and the command line's that use the index (index, health), answered within
// maxBytes (the asking process's default budget, 0: none), never handed on, never
// panicking. LastServed tells when it last began or ended one.
func (s *Service) ServeOther(ctx context.Context, op string, args json.RawMessage, maxBytes int) (any, error) {
	ctx = context.WithValue(ctx, budgetKey{}, maxBytes)
	s.served.Store(time.Now().UnixNano())
	defer s.served.Store(time.Now().UnixNano())
	return s.runLocal(context.WithValue(ctx, servedKey{}, true), op, args)
}

// localHandlers are the operations a server runs for other processes: the agent's (handlers)
// and the command line's that use the index.
var localHandlers = map[string]func(context.Context, *Service, any) (any, error){
	"index":  func(ctx context.Context, s *Service, r any) (any, error) { return s.Index(ctx, r.(IndexRequest)) },
	"health": func(ctx context.Context, s *Service, r any) (any, error) { return s.Health(ctx, r.(HealthRequest)) },
}

// servedKey marks the context of a request a local server runs for another process.
type servedKey struct{}

// runLocal runs a request of another process, never panicking.
func (s *Service) runLocal(ctx context.Context, op string, args json.RawMessage) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, Errorf(CodeInternal, "", "internal error in %s: %v\n%s", op, p, debug.Stack())
		}
	}()
	o, r, err := decodeRequest(op, args)
	if err != nil {
		return nil, err
	}
	run, ok := localHandlers[o.Name]
	if !ok {
		run, ok = handlers[o.Name]
	}
	if !ok {
		return nil, Errorf(CodeBadValue, "", "operation %s is not served to other processes", o.Name)
	}
	return run(ctx, s, r)
}
