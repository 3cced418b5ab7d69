package batchrun

// Checking a batch statement before anything runs: its operation, each parameter against
// the operation's request type and the query language's fields, its result fields; every
// error positioned in the batch's text.

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrysearch/quarry/index/batch"
	"github.com/quarrysearch/quarry/index/query"
	"github.com/quarrysearch/quarry/tools"
)

// batchError is a check error at pos.
func batchError(pos batch.Pos, format string, a ...any) *tools.Error {
	return tools.Errorf(tools.CodeBadQuery, "batch", "line %d, column %d: %s", pos.Line, pos.Column, fmt.Sprintf(format, a...))
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
		return nil, batchError(st.Pos, "unknown operation %s%s (operations: %s)", st.Operation, tools.DidYouMean(st.Operation, batchOpNames()), strings.Join(batchOpNames(), ", "))
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
			return nil, batchError(params[0].ValuePos, "%s of %q: want a list operation (%s)%s", op.Name, params[0].Value, strings.Join(listOpNames(), ", "), tools.DidYouMean(params[0].Value, listOpNames()))
		}
		p.op, params = inner, params[1:]
		if op.Name == "distinct" {
			i := slices.IndexFunc(params, func(x batch.Param) bool { return x.Key == batchField })
			if i < 0 {
				return nil, batchError(st.Pos, "distinct needs field=F, a field of %s's results: %s", inner.Name, strings.Join(resultFieldNames(inner), ", "))
			}
			f, ok := inner.field(params[i].Value)
			if !ok {
				return nil, batchError(params[i].ValuePos, "%s's results have no field %s%s (fields: %s)", inner.Name, params[i].Value, tools.DidYouMean(params[i].Value, resultFieldNames(inner)), strings.Join(resultFieldNames(inner), ", "))
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
				return batchError(prm.ValuePos, "sort=%s: %s's results have no field %s to sort by%s", prm.Value, o.Name, name, tools.DidYouMean(name, comparableFields(o)))
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
	return batchError(prm.KeyPos, "%s has no parameter %s%s (parameters: %s)", o.Name, prm.Key, tools.DidYouMean(prm.Key, o.paramNames()), strings.Join(o.paramNames(), ", "))
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
			return batchError(fd.Pos, "%s's results have no field %s%s (fields: %s; presets: brief, full)", o.Name, fd.Name, tools.DidYouMean(fd.Name, known), strings.Join(resultFieldNames(o), ", "))
		}
		p.fields = append(p.fields, f)
	}
	return nil
}
