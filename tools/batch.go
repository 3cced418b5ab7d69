package tools

// The batch language: several operations in one call, each with predicates and a projection
// (quarry q, the MCP tool batch). index/batch parses the text; this file checks each
// statement against the registry (batch_ops.go), runs the statements concurrently through
// the contract's operations, and renders the answers in order, as JSON or compact rows.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/index/batch"
	"github.com/quarrysearch/quarry/index/query"
)

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

// batchParallel is how many statements of a batch run at once.
const batchParallel = 4

// BatchAnswer is a batch's answer: one entry per statement, in order.
type BatchAnswer struct {
	Entries []BatchEntry
	Format  string
}

// BatchEntry is one statement's answer: its result as JSON, or its error.
type BatchEntry struct {
	Statement string
	Result    json.RawMessage // nil when Err is set
	Err       *Error
	columns   []string // compact: the columns of the rows
	paths     []string // where each column is in a row ("" : the column's name)
	list      string   // the result's list, "" for one object
}

// batchPlan is a checked statement, ready to run.
type batchPlan struct {
	stmt    batch.Statement
	op      *batchOp // the operation run (for count and distinct: the list operation)
	outer   string   // count, distinct, schema, or ""
	args    map[string]any
	clauses []string // search: clauses of the query language added to the query
	preds   []batchPred
	skip    int
	take    int // 0: the page the operation answers
	sortBy  *resultField
	desc    bool
	fields  []resultField // the projection; nil: none
	field   resultField   // distinct's field
	limited bool          // the list's limit was set by the statement
	full    bool          // { full }: every field (the compact format's columns too)
}

// batchPred is a predicate on a result field.
type batchPred struct {
	field resultField
	op    batch.Op
	text  string
	num   float64
	re    *regexp.Regexp
}

// Batch runs a batch: a syntax or check error rejects it whole (BAD_QUERY, with the line and
// column); each statement's own failure is its entry's error.
func (s *Service) Batch(ctx context.Context, req BatchRequest) (*BatchAnswer, error) {
	format := cmp.Or(req.Format, BatchCompact)
	if format != BatchCompact && format != BatchJSON {
		return nil, Errorf(CodeBadValue, "format", "format %q: want compact or json%s", req.Format, didYouMean(req.Format, []string{BatchCompact, BatchJSON}))
	}
	if req.MaxBytes < 0 {
		return nil, Errorf(CodeBadValue, "max_bytes", "max_bytes %d: want a positive number of bytes (0: the default)", req.MaxBytes)
	}
	b, err := batch.Parse(req.Batch)
	if err != nil {
		var pe *batch.Error
		if errors.As(err, &pe) {
			return nil, &Error{Code: CodeBadQuery, Path: "batch", Message: pe.Error(), err: err}
		}
		return nil, Errorf(CodeBadQuery, "batch", "%v", err)
	}
	plans := make([]*batchPlan, len(b.Statements))
	for i, st := range b.Statements {
		if plans[i], err = checkStatement(st); err != nil {
			return nil, err
		}
	}
	out := &BatchAnswer{Format: format, Entries: make([]BatchEntry, len(plans))}
	var wg sync.WaitGroup
	sem := make(chan struct{}, batchParallel)
	for i, p := range plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out.Entries[i] = s.runPlan(ctx, p)
		}()
	}
	wg.Wait()
	fitBatch(out, s.budget(ctx, req.MaxBytes))
	return out, nil
}

// batchError is a check error at pos.
func batchError(pos batch.Pos, format string, a ...any) *Error {
	return Errorf(CodeBadQuery, "batch", "line %d, column %d: %s", pos.Line, pos.Column, fmt.Sprintf(format, a...))
}

func opList(ops []batch.Op) string {
	s := make([]string, len(ops))
	for i, o := range ops {
		s[i] = string(o)
	}
	return strings.Join(s, " ")
}

// checkStatement checks a statement against the registry and plans it.
func checkStatement(st batch.Statement) (*batchPlan, error) {
	op, ok := batchOpNamed(st.Operation)
	if !ok {
		return nil, batchError(st.Pos, "unknown operation %s%s (operations: %s)", st.Operation, didYouMean(st.Operation, batchOpNames()), strings.Join(batchOpNames(), ", "))
	}
	p := &batchPlan{stmt: st, op: op, args: map[string]any{}}
	params := st.Params
	switch op.Name {
	case "schema":
		if len(params) > 0 {
			return nil, batchError(params[0].ValuePos, "schema() takes no parameters")
		}
		if st.Projected {
			return nil, batchError(st.Pos, "schema() takes no { fields }")
		}
		p.outer = op.Name
		return p, nil
	case "count", "distinct":
		p.outer = op.Name
		if len(params) == 0 || params[0].Key != "" {
			pos := st.Pos
			if len(params) > 0 {
				pos = params[0].KeyPos
			}
			return nil, batchError(pos, "%s needs the list operation first: %s", op.Name, op.Example)
		}
		inner, ok := batchOpNamed(params[0].Value)
		if !ok || inner.List == "" {
			return nil, batchError(params[0].ValuePos, "%s of %q: want a list operation (%s)%s", op.Name, params[0].Value, strings.Join(listOpNames(), ", "), didYouMean(params[0].Value, listOpNames()))
		}
		p.op, params = inner, params[1:]
		if op.Name == "distinct" {
			i := slices.IndexFunc(params, func(x batch.Param) bool { return x.Key == batchField })
			if i < 0 {
				return nil, batchError(st.Pos, "distinct needs field=F, a field of %s's results: %s", inner.Name, strings.Join(resultFieldNames(inner), ", "))
			}
			f, ok := inner.field(params[i].Value)
			if !ok {
				return nil, batchError(params[i].ValuePos, "%s's results have no field %s%s (fields: %s)", inner.Name, params[i].Value, didYouMean(params[i].Value, resultFieldNames(inner)), strings.Join(resultFieldNames(inner), ", "))
			}
			if params[i].Op != batch.OpEq {
				return nil, batchError(params[i].OpPos, "field takes = only")
			}
			p.field = f
			params = append(params[:i:i], params[i+1:]...)
		}
		if st.Projected {
			return nil, batchError(st.Pos, "%s answers a number or values: it takes no { fields }", op.Name)
		}
	}
	for k, v := range p.op.Fixed {
		p.args[k] = v
	}
	reqParams := map[string]requestParam{}
	for _, rp := range p.op.requestParams() {
		reqParams[rp.Name] = rp
		for _, a := range rp.Aliases {
			reqParams[a] = rp
		}
	}
	positional := false
	for _, prm := range params {
		if prm.Key == "" {
			if p.op.Positional == "" {
				return nil, batchError(prm.ValuePos, "%s takes no value without a key: write key=value (parameters: %s)", p.op.Name, strings.Join(p.op.paramNames(), ", "))
			}
			if positional {
				return nil, batchError(prm.ValuePos, "a second value without a key: only %s may go without one; write key=value", p.op.Positional)
			}
			positional = true
			if err := setRequest(p, reqParams[p.op.Positional], prm); err != nil {
				return nil, err
			}
			continue
		}
		if err := checkParam(p, reqParams, prm); err != nil {
			return nil, err
		}
	}
	if st.Projected {
		if err := checkFields(p, st.Fields); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func listOpNames() []string {
	var out []string
	for _, o := range batchOps {
		if o.List != "" {
			out = append(out, o.Name)
		}
	}
	return out
}

func resultFieldNames(o *batchOp) []string {
	var out []string
	for _, f := range o.fields() {
		out = append(out, f.Name)
	}
	return out
}

// checkParam plans one key op value parameter: a batch control, a request field, a clause of
// the query language, or a predicate on the results, in that order.
func checkParam(p *batchPlan, reqParams map[string]requestParam, prm batch.Param) error {
	o := p.op
	eqOnly := func(what string) error {
		if prm.Op != batch.OpEq {
			return batchError(prm.OpPos, "%s takes = only (%s)", prm.Key, what)
		}
		return nil
	}
	if o.List != "" {
		switch prm.Key {
		case batchSkip, batchTake:
			if err := eqOnly("a number of results"); err != nil {
				return err
			}
			n, err := strconv.Atoi(prm.Value)
			if err != nil || n < 0 || prm.Key == batchTake && n == 0 {
				return batchError(prm.ValuePos, "%s=%s: want a whole number, %s", prm.Key, prm.Value, map[string]string{batchSkip: "0 or more", batchTake: "1 or more"}[prm.Key])
			}
			if prm.Key == batchSkip {
				p.skip = n
			} else {
				p.take = n
			}
			return nil
		case batchSort:
			if err := eqOnly("a field, - first for descending"); err != nil {
				return err
			}
			name, desc := strings.CutPrefix(prm.Value, "-")
			f, ok := o.field(name)
			if !ok || operatorsOf(f.Kind) == nil {
				return batchError(prm.ValuePos, "sort=%s: %s's results have no field %s to sort by%s", prm.Value, o.Name, name, didYouMean(name, comparableFields(o)))
			}
			p.sortBy, p.desc = &f, desc
			return nil
		}
	}
	rp, isReq := reqParams[prm.Key]
	var qf *query.Field
	if o.Query {
		qf, _ = queryFieldNamed(prm.Key)
	}
	rf, isField := o.field(prm.Key)
	isField = isField && operatorsOf(rf.Kind) != nil
	if isReq && (prm.Op == batch.OpEq || qf == nil && !isField) {
		if err := eqOnly("a parameter of the " + o.Base + " request"); err != nil {
			return err
		}
		return setRequest(p, rp, prm)
	}
	if qf != nil && !(prm.Op == batch.OpMatch && isField) {
		ops := queryFieldOps(qf.Type)
		if !slices.Contains(ops, prm.Op) {
			return batchError(prm.OpPos, "%s does not take %s: the query language's %s field %s takes %s", prm.Key, prm.Op, qf.Type, qf.Name, opList(ops))
		}
		clause, err := queryClause(qf, prm)
		if err != nil {
			return err
		}
		p.clauses = append(p.clauses, clause)
		return nil
	}
	if isField {
		ops := operatorsOf(rf.Kind)
		if !slices.Contains(ops, prm.Op) {
			return batchError(prm.OpPos, "%s does not take %s: the results' %s field %s takes %s", prm.Key, prm.Op, rf.Kind, rf.Name, opList(ops))
		}
		pr := batchPred{field: rf, op: prm.Op, text: prm.Value}
		switch {
		case prm.Op == batch.OpMatch:
			re, err := regexp.Compile(prm.Value)
			if err != nil {
				return batchError(prm.ValuePos, "%s~=%q is not an RE2 regular expression: %v", prm.Key, prm.Value, err)
			}
			pr.re = re
		case rf.Kind == kindNumber:
			n, err := strconv.ParseFloat(prm.Value, 64)
			if err != nil {
				return batchError(prm.ValuePos, "%s%s%s: want a number", prm.Key, prm.Op, prm.Value)
			}
			pr.num = n
		case rf.Kind == kindBool:
			if prm.Value != "true" && prm.Value != "false" {
				return batchError(prm.ValuePos, "%s%s%s: want true or false", prm.Key, prm.Op, prm.Value)
			}
		}
		p.preds = append(p.preds, pr)
		return nil
	}
	return batchError(prm.KeyPos, "%s has no parameter %s%s (parameters: %s)", o.Name, prm.Key, didYouMean(prm.Key, o.paramNames()), strings.Join(o.paramNames(), ", "))
}

func comparableFields(o *batchOp) []string {
	var out []string
	for _, f := range o.fields() {
		if operatorsOf(f.Kind) != nil {
			out = append(out, f.Name)
		}
	}
	return out
}

// setRequest sets a request field from a parameter's value, converted to the field's type.
func setRequest(p *batchPlan, rp requestParam, prm batch.Param) error {
	v := prm.Value
	switch rp.Kind {
	case "string":
		p.args[rp.Name] = v
	case "int":
		n, err := strconv.Atoi(v)
		if err != nil {
			return batchError(prm.ValuePos, "%s=%s: want a whole number", cmp.Or(prm.Key, rp.Name), v)
		}
		p.args[rp.Name] = n
		if rp.Name == p.op.Limit {
			p.limited = true
		}
	case "bool":
		switch v {
		case "true", "yes", "1":
			p.args[rp.Name] = true
		case "false", "no", "0":
			p.args[rp.Name] = false
		default:
			return batchError(prm.ValuePos, "%s=%s: want true or false", cmp.Or(prm.Key, rp.Name), v)
		}
	case "strings":
		var list []string
		for _, x := range strings.Split(v, ",") {
			if x = strings.TrimSpace(x); x != "" {
				list = append(list, x)
			}
		}
		p.args[rp.Name] = list
	}
	return nil
}

var bareQueryValue = regexp.MustCompile(`^[A-Za-z0-9_.\-/*?]+$`)

// queryClause returns the clause of the query language a parameter on one of its fields
// stands for: = field:v, != -field:v, ~= field:/re/, and comparisons field:>N.
func queryClause(f *query.Field, prm batch.Param) (string, error) {
	v := prm.Value
	switch prm.Op {
	case batch.OpMatch:
		if _, err := regexp.Compile(v); err != nil {
			return "", batchError(prm.ValuePos, "%s~=%q is not an RE2 regular expression: %v", prm.Key, v, err)
		}
		return f.Name + ":/" + strings.ReplaceAll(v, "/", `\/`) + "/", nil
	case batch.OpGt, batch.OpLt, batch.OpGe, batch.OpLe:
		if _, err := strconv.Atoi(v); err != nil {
			return "", batchError(prm.ValuePos, "%s%s%s: want a whole number", prm.Key, prm.Op, v)
		}
		return f.Name + ":" + string(prm.Op) + v, nil
	}
	if f.Type == query.NumberField {
		if _, err := strconv.Atoi(v); err != nil {
			return "", batchError(prm.ValuePos, "%s%s%s: want a whole number", prm.Key, prm.Op, v)
		}
	}
	if !bareQueryValue.MatchString(v) {
		v = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
	}
	clause := f.Name + ":" + v
	if prm.Op == batch.OpNe {
		clause = "-" + clause
	}
	return clause, nil
}

// checkFields checks a projection: fields of the operation's results, or a preset alone.
func checkFields(p *batchPlan, fields []batch.Field) error {
	o := p.op
	if len(fields) == 1 && (fields[0].Name == presetBrief || fields[0].Name == presetFull) {
		p.full = fields[0].Name == presetFull
		if fields[0].Name == presetBrief {
			for _, name := range o.Brief {
				f, _ := o.field(name)
				p.fields = append(p.fields, f)
			}
		}
		return nil
	}
	known := append(resultFieldNames(o), presetBrief, presetFull)
	for _, fd := range fields {
		if fd.Name == presetBrief || fd.Name == presetFull {
			return batchError(fd.Pos, "{ %s } is a preset: write it alone, or name the fields", fd.Name)
		}
		f, ok := o.field(fd.Name)
		if !ok {
			return batchError(fd.Pos, "%s's results have no field %s%s (fields: %s; presets: brief, full)", o.Name, fd.Name, didYouMean(fd.Name, known), strings.Join(resultFieldNames(o), ", "))
		}
		p.fields = append(p.fields, f)
	}
	return nil
}

// runPlan runs a checked statement.
func (s *Service) runPlan(ctx context.Context, p *batchPlan) BatchEntry {
	e := BatchEntry{Statement: oneLine(p.stmt.Text), list: p.op.List}
	fail := func(err error) BatchEntry {
		e.Err = AsError(err)
		return e
	}
	if p.outer == "schema" {
		b, err := json.Marshal(BatchSchema())
		if err != nil {
			return fail(err)
		}
		e.Result, e.list, e.columns = b, "operations", []string{"name", "summary", "example"}
		return e
	}
	widen := len(p.preds) > 0 || p.skip > 0 || p.sortBy != nil || p.outer != "" || p.take > 0
	if widen && p.op.Limit != "" && !p.limited {
		p.args[p.op.Limit] = p.op.MaxLimit
	}
	if len(p.clauses) > 0 {
		q, _ := p.args["query"].(string)
		p.args["query"] = strings.TrimSpace(q + " " + strings.Join(p.clauses, " "))
	}
	raw, err := s.runBase(ctx, p)
	if err != nil {
		return fail(err)
	}
	top, err := decodeOrdered(raw)
	if err != nil {
		return fail(err)
	}
	if p.op.List == "" { // one object: a projection of it
		if p.fields == nil {
			e.Result = raw
			e.columns, e.paths = defaultColumns(p)
			return e
		}
		obj, err := project(raw, p.fields)
		if err != nil {
			return fail(err)
		}
		e.Result, e.columns = obj, projectedNames(p.fields)
		return e
	}
	var items []json.RawMessage
	if v := top.get(p.op.List); v != nil {
		if err := json.Unmarshal(v, &items); err != nil {
			return fail(err)
		}
	}
	cut, _ := top.getBool("truncated")
	// Predicates, then the order, then the page.
	if len(p.preds) > 0 || p.sortBy != nil {
		vals := make([]map[string]any, len(items))
		for i, it := range items {
			vals[i] = decodeItem(it)
		}
		var kept []int
		for i := range items {
			if matchAll(p.preds, vals[i]) {
				kept = append(kept, i)
			}
		}
		if p.sortBy != nil {
			f := *p.sortBy
			sort.SliceStable(kept, func(a, b int) bool {
				c := compareValues(lookup(vals[kept[a]], f.Path), lookup(vals[kept[b]], f.Path))
				if p.desc {
					return c > 0
				}
				return c < 0
			})
		}
		filtered := make([]json.RawMessage, len(kept))
		for i, k := range kept {
			filtered[i] = items[k]
		}
		items = filtered
	}
	switch p.outer {
	case "count":
		n := len(items)
		if t, ok := top.getInt("total"); ok && len(p.preds) == 0 {
			n = t
			cut = false
		}
		ans := map[string]any{"count": n}
		if cut {
			ans["truncated"], ans["truncated_reason"] = true, "limit: counted the first "+strconv.Itoa(p.op.MaxLimit)
		}
		b, _ := json.Marshal(ans)
		e.Result, e.list, e.columns = b, "", []string{"count"}
		return e
	case "distinct":
		counts := map[string]int{}
		var order []string
		for _, it := range items {
			v := fmt.Sprint(cmp.Or(lookup(decodeItem(it), p.field.Path), any("")))
			if counts[v] == 0 {
				order = append(order, v)
			}
			counts[v]++
		}
		sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
		vals := make([]map[string]any, len(order))
		for i, v := range order {
			vals[i] = map[string]any{"value": v, "count": counts[v]}
		}
		ans := map[string]any{"field": p.field.Name, "values": vals}
		if cut {
			ans["truncated"], ans["truncated_reason"] = true, "limit: over the first "+strconv.Itoa(p.op.MaxLimit)+" results"
		}
		b, _ := json.Marshal(ans)
		e.Result, e.list, e.columns = b, "values", []string{"value", "count"}
		return e
	}
	total := len(items)
	if p.skip > 0 {
		items = items[min(p.skip, len(items)):]
	}
	take := p.take
	if take == 0 && widen && !p.limited {
		take = defaultPage(p.op)
	}
	if take > 0 && len(items) > take {
		items = items[:take]
		cut = true
		top.set("truncated", json.RawMessage("true"))
		top.set("truncated_reason", json.RawMessage(`"limit"`))
	}
	if len(p.preds) > 0 && top.get("total") != nil {
		top.set("total", json.RawMessage(strconv.Itoa(total)))
	}
	if p.fields != nil {
		for i, it := range items {
			if items[i], err = project(it, p.fields); err != nil {
				return fail(err)
			}
		}
		e.columns = projectedNames(p.fields)
	} else {
		e.columns, e.paths = defaultColumns(p)
	}
	if !widen && p.fields == nil {
		e.Result = raw
		return e
	}
	list, _ := json.Marshal(items)
	top.set(p.op.List, list)
	e.Result = top.encode()
	return e
}

// defaultColumns are the compact format's columns of a result not projected: every field
// with { full }, else the brief ones; and where each is in an item.
func defaultColumns(p *batchPlan) (cols, paths []string) {
	if !p.full {
		return p.op.Brief, briefPaths(p.op)
	}
	for _, f := range p.op.fields() {
		cols = append(cols, f.Name)
		paths = append(paths, f.Path)
	}
	return cols, paths
}

// briefPaths are where the brief preset's fields are in an item not projected.
func briefPaths(o *batchOp) []string {
	out := make([]string, len(o.Brief))
	for i, name := range o.Brief {
		out[i] = name
		if f, ok := o.field(name); ok {
			out[i] = f.Path
		}
	}
	return out
}

// defaultPage is the page an operation answers without a limit.
func defaultPage(o *batchOp) int {
	switch o.Base {
	case "refs":
		return 50
	case "symbols":
		return 200
	case "calls":
		return 0
	}
	return DefaultLimit
}

// runBase runs the contract operation of a plan with its request, decoded strictly as the
// MCP tools' and the command line's are.
func (s *Service) runBase(ctx context.Context, p *batchPlan) (json.RawMessage, error) {
	args, err := json.Marshal(p.args)
	if err != nil {
		return nil, err
	}
	var res any
	if p.op.Base == "health" {
		var req HealthRequest
		if err := DecodeStrict(args, &req); err != nil {
			return nil, err
		}
		res, err = s.Health(ctx, req)
	} else {
		res, err = s.Call(ctx, p.op.Base, args)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// orderedObject is a JSON object with its keys in their order.
type orderedObject struct {
	keys []string
	vals map[string]json.RawMessage
}

func decodeOrdered(raw json.RawMessage) (*orderedObject, error) {
	o := &orderedObject{vals: map[string]json.RawMessage{}}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("tools: a result is not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.keys = append(o.keys, k)
		o.vals[k] = v
	}
	return o, nil
}

func (o *orderedObject) get(k string) json.RawMessage { return o.vals[k] }

func (o *orderedObject) getBool(k string) (bool, bool) {
	var b bool
	return b, json.Unmarshal(o.vals[k], &b) == nil
}

func (o *orderedObject) getInt(k string) (int, bool) {
	var n int
	v, ok := o.vals[k]
	return n, ok && json.Unmarshal(v, &n) == nil
}

func (o *orderedObject) set(k string, v json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *orderedObject) encode() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

func decodeItem(raw json.RawMessage) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&m)
	return m
}

// lookup returns the value at a dotted path of a decoded item (nil when absent).
func lookup(m map[string]any, path string) any {
	var cur any = m
	for _, part := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[part]
	}
	return cur
}

func matchAll(preds []batchPred, item map[string]any) bool {
	for _, p := range preds {
		if !p.match(lookup(item, p.field.Path)) {
			return false
		}
	}
	return true
}

// match applies a predicate to a value (absent: the empty string, 0 or false).
func (p batchPred) match(v any) bool {
	switch p.field.Kind {
	case kindNumber:
		n := numberOf(v)
		switch p.op {
		case batch.OpEq:
			return n == p.num
		case batch.OpNe:
			return n != p.num
		case batch.OpGt:
			return n > p.num
		case batch.OpLt:
			return n < p.num
		case batch.OpGe:
			return n >= p.num
		case batch.OpLe:
			return n <= p.num
		}
	case kindBool:
		b, _ := v.(bool)
		eq := b == (p.text == "true")
		return eq == (p.op == batch.OpEq)
	}
	s, _ := v.(string)
	switch p.op {
	case batch.OpMatch:
		return p.re.MatchString(s)
	case batch.OpNe:
		return !strings.EqualFold(s, p.text)
	}
	return strings.EqualFold(s, p.text)
}

func numberOf(v any) float64 {
	switch x := v.(type) {
	case json.Number: // items are decoded with UseNumber
		f, _ := x.Float64()
		return f
	}
	return 0
}

// compareValues orders two values of a field: numbers by value, booleans false first,
// strings case-insensitively.
func compareValues(a, b any) int {
	_, an := a.(json.Number)
	_, bn := b.(json.Number)
	if an || bn {
		return cmp.Compare(numberOf(a), numberOf(b))
	}
	ab, aok := a.(bool)
	bb, bok := b.(bool)
	if aok || bok {
		return cmp.Compare(boolInt(ab), boolInt(bb))
	}
	as, _ := a.(string)
	bs, _ := b.(string)
	return cmp.Compare(strings.ToLower(as), strings.ToLower(bs))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// project returns the object with only the fields named, in their order (a field inside an
// item under its short name: a call node's path).
func project(raw json.RawMessage, fields []resultField) (json.RawMessage, error) {
	m := decodeItem(raw)
	o := &orderedObject{vals: map[string]json.RawMessage{}}
	for _, f := range fields {
		v := lookup(m, f.Path)
		if v == nil {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		o.set(f.Name, b)
	}
	return o.encode(), nil
}

func projectedNames(fields []resultField) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

// fitBatch cuts the answer to budget bytes (0: no cut): the statements in order keep their
// results while they fit; a list past the budget loses results from its end and is marked
// truncated (max_bytes); a statement with nothing left is answered by a short mark. Room
// for the later statements' marks is kept, so the answer stays within the budget.
func fitBatch(a *BatchAnswer, budget int) {
	if budget <= 0 {
		return
	}
	mark := func() *Error { return Errorf(CodeBadValue, "max_bytes", "cut: over max_bytes") }
	markSize := len((&BatchEntry{Err: mark()}).entryJSON()) + 1
	used := 2 // the array's brackets
	for i := range a.Entries {
		e := &a.Entries[i]
		room := budget - used - markSize*(len(a.Entries)-i-1) // what this entry may take
		size := len(e.entryJSON()) + 1
		if size <= room {
			used += size
			continue
		}
		fitted := false
		if e.Err == nil && e.list != "" {
			if top, err := decodeOrdered(e.Result); err == nil {
				var items []json.RawMessage
				_ = json.Unmarshal(top.get(e.list), &items)
				top.set("truncated", json.RawMessage("true"))
				top.set("truncated_reason", json.RawMessage(`"max_bytes"`))
				fits := func(n int) bool {
					l, _ := json.Marshal(items[:n])
					top.set(e.list, l)
					return len(top.encode())+1 <= room
				}
				// The longest prefix of the list that fits, by bisection.
				lo, hi := 0, len(items)
				for lo < hi {
					mid := (lo + hi + 1) / 2
					if fits(mid) {
						lo = mid
					} else {
						hi = mid - 1
					}
				}
				if fits(lo) {
					e.Result, fitted = top.encode(), true
				}
			}
		}
		if !fitted {
			e.Err, e.Result = mark(), nil
		}
		used += len(e.entryJSON()) + 1
	}
}

// entryJSON is an entry as the json format writes it: its result, or its error envelope.
func (e *BatchEntry) entryJSON() []byte {
	if e.Err != nil {
		b, _ := json.Marshal(Fail(e.Err))
		return b
	}
	return e.Result
}

// JSON returns the answer as the json format: an array, one entry per statement.
func (a *BatchAnswer) JSON() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range a.Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(a.Entries[i].entryJSON())
	}
	b.WriteByte(']')
	return b.Bytes()
}

// Text returns the answer in its format: compact rows, or the JSON array.
func (a *BatchAnswer) Text() string {
	if a.Format == BatchJSON {
		return string(a.JSON())
	}
	return a.Compact()
}

// MarshalJSON writes the answer as the json format's array.
func (a *BatchAnswer) MarshalJSON() ([]byte, error) { return a.JSON(), nil }

// Compact returns the answer as the compact format: per statement a header line (# the
// statement: how many results, or its error), a line of the columns' names, then one
// tab-separated row per result.
func (a *BatchAnswer) Compact() string {
	var b strings.Builder
	for i := range a.Entries {
		e := &a.Entries[i]
		if e.Err != nil {
			// Every line of an error starts with #: none is taken for a row.
			msg := strings.ReplaceAll(strings.TrimRight(e.Err.Message, "\n"), "\n", "\n#   ")
			fmt.Fprintf(&b, "# %s: error %s: %s\n", e.Statement, e.Err.Code, msg)
			continue
		}
		top, err := decodeOrdered(e.Result)
		if err != nil {
			fmt.Fprintf(&b, "# %s: %s\n", e.Statement, e.Result)
			continue
		}
		var rows []map[string]any
		if e.list != "" {
			var items []json.RawMessage
			_ = json.Unmarshal(top.get(e.list), &items)
			for _, it := range items {
				rows = append(rows, decodeItem(it))
			}
		} else {
			rows = []map[string]any{decodeItem(e.Result)}
		}
		head := fmt.Sprintf("# %s: ", e.Statement)
		switch {
		case e.list == "" && len(e.columns) == 1 && e.columns[0] == "count":
			n, _ := top.getInt("count")
			head += strconv.Itoa(n)
		case e.list != "":
			noun := map[bool]string{true: "result", false: "results"}[len(rows) == 1]
			if e.list == "values" {
				noun = map[bool]string{true: "value", false: "values"}[len(rows) == 1]
			} else if e.list == "operations" {
				noun = "operations"
			}
			head += fmt.Sprintf("%d %s", len(rows), noun)
			if t, ok := top.getInt("total"); ok && t != len(rows) {
				head += fmt.Sprintf(" of %d", t)
			}
		default:
			head = strings.TrimSuffix(head, " ")
		}
		if cut, _ := top.getBool("truncated"); cut {
			var why string
			_ = json.Unmarshal(top.get("truncated_reason"), &why)
			head += " (truncated: " + cmp.Or(why, "limit") + ")"
		}
		b.WriteString(head + "\n")
		if len(e.columns) == 1 && e.columns[0] == "count" {
			continue
		}
		paths := e.paths
		if paths == nil {
			paths = e.columns
		}
		b.WriteString(strings.Join(e.columns, "\t") + "\n")
		for _, r := range rows {
			cells := make([]string, len(paths))
			for j, pth := range paths {
				cells[j] = cell(lookup(r, pth))
			}
			b.WriteString(strings.Join(cells, "\t") + "\n")
		}
	}
	return b.String()
}

// cell renders a value in a compact row: tabs and newlines escaped, lists and objects as
// JSON.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`).Replace(x)
	case json.Number: // items are decoded with UseNumber
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
