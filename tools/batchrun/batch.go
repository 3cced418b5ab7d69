package batchrun

// The batch language: several operations in one call, each with predicates and a projection
// (quarry q, the MCP tool batch). index/batch parses the text; this file checks each
// statement against the registry (batch_ops.go), runs the statements concurrently through
// the contract's operations, and renders the answers in order, as JSON or compact rows.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/index/batch"
	"github.com/quarrysearch/quarry/tools"
)

// The batch runs the other operations through the contract's handlers (Call).
func init() {
	tools.Register(tools.Operation{Name: "batch"}, func(ctx context.Context, s *tools.Service, r any) (any, error) {
		return Run(ctx, s, r.(tools.BatchRequest))
	})
}

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
	Err       *tools.Error
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
func Run(ctx context.Context, s *tools.Service, req tools.BatchRequest) (*BatchAnswer, error) {
	format := cmp.Or(req.Format, tools.BatchCompact)
	if format != tools.BatchCompact && format != tools.BatchJSON {
		return nil, tools.Errorf(tools.CodeBadValue, "format", "format %q: want compact or json%s", req.Format, tools.DidYouMean(req.Format, []string{tools.BatchCompact, tools.BatchJSON}))
	}
	if req.MaxBytes < 0 {
		return nil, tools.Errorf(tools.CodeBadValue, "max_bytes", "max_bytes %d: want a positive number of bytes (0: the default)", req.MaxBytes)
	}
	b, err := batch.Parse(req.Batch)
	if err != nil {
		var pe *batch.Error
		if errors.As(err, &pe) {
			return nil, tools.NewError(tools.CodeBadQuery, "batch", pe.Error(), err)
		}
		return nil, tools.Errorf(tools.CodeBadQuery, "batch", "%v", err)
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
			out.Entries[i] = runPlan(ctx, s, p)
		}()
	}
	wg.Wait()
	fitBatch(out, s.Budget(ctx, req.MaxBytes))
	return out, nil
}

// runPlan runs a checked statement.
func runPlan(ctx context.Context, s *tools.Service, p *batchPlan) BatchEntry {
	e := BatchEntry{Statement: oneLine(p.stmt.Text), list: p.op.List}
	fail := func(err error) BatchEntry {
		e.Err = tools.AsError(err)
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
	raw, err := runBase(ctx, s, p)
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
	return tools.DefaultLimit
}

// runBase runs the contract operation of a plan with its request, decoded strictly as the
// MCP tools' and the command line's are.
func runBase(ctx context.Context, s *tools.Service, p *batchPlan) (json.RawMessage, error) {
	args, err := json.Marshal(p.args)
	if err != nil {
		return nil, err
	}
	var res any
	if p.op.Base == "health" {
		var req tools.HealthRequest
		if err := tools.DecodeStrict(args, &req); err != nil {
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
