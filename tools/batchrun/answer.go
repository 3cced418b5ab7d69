package batchrun

// A batch's answers: each operation's JSON decoded in order, filtered by the statement's
// predicates, projected to its fields, fitted to the budget and written compact or as JSON.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrysearch/quarry/index/batch"
	"github.com/quarrysearch/quarry/tools"
)

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
	mark := func() *tools.Error { return tools.Errorf(tools.CodeBadValue, "max_bytes", "cut: over max_bytes") }
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
		b, _ := json.Marshal(tools.Fail(e.Err))
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
	if a.Format == tools.BatchJSON {
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
