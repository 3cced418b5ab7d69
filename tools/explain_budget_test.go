package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestFitExplainBudget: an explain answer over its byte budget (depth full: 200 of each list
// and the body) is cut to it, body first, then the longest lists from their ends, and says
// so; one within it is left whole (issue 41 b: deep_dive depth=full sent 53.8 KB under a
// 24 KB budget, truncated false).
func TestFitExplainBudget(t *testing.T) {
	build := func() *ExplainResult {
		out := &ExplainResult{Symbol: "Run", Depth: ExplainFull}
		out.Definition = ExplainedSymbol{Definition: Definition{ID: "x", Name: "Run", Kind: "function", Path: "a.go", Line: 1}}
		var body []string
		for i := range 400 {
			body = append(body, fmt.Sprintf("\tstep%d(ctx, value%d) // a line of the body", i, i))
		}
		out.Definition.Body = strings.Join(body, "\n")
		for i := range 200 {
			d := Definition{ID: fmt.Sprint(i), Name: fmt.Sprintf("caller%d", i), Kind: "function", Path: "b/c.go", Line: i, Signature: "func caller(ctx context.Context) error"}
			out.Callers = append(out.Callers, Related{Definition: d})
			out.Callees = append(out.Callees, Related{Definition: d})
			out.Children = append(out.Children, d)
		}
		out.CallersTotal, out.CalleesTotal, out.ChildrenTotal = 200, 200, 200
		return out
	}
	out := build()
	whole, _ := json.Marshal(out)
	const budget = 24 << 10
	if len(whole) <= budget {
		t.Fatalf("the answer is %d bytes: not over %d", len(whole), budget)
	}
	if !fitExplain(out, budget) {
		t.Fatal("fitExplain: no cut")
	}
	got, _ := json.Marshal(out)
	if len(got) > budget {
		t.Errorf("cut answer: %d bytes, over %d", len(got), budget)
	}
	if out.Definition.Name != "Run" || len(strings.Split(out.Definition.Body, "\n")) != 20 || out.CallersTotal != 200 {
		t.Errorf("the definition, 20 body lines and the totals must stay: body %d lines, totals %d", len(strings.Split(out.Definition.Body, "\n")), out.CallersTotal)
	}
	if len(out.Callers) == 0 || len(out.Callers) == 200 || len(out.Callees) == 0 || len(out.Children) == 0 {
		t.Errorf("lists cut evenly from their ends: callers %d, callees %d, children %d", len(out.Callers), len(out.Callees), len(out.Children))
	}
	if len(got) < budget*9/10 {
		t.Errorf("cut answer: %d bytes, far under %d: cut too much", len(got), budget)
	}
	small := build()
	small.Callers, small.Callees, small.Children, small.Definition.Body = small.Callers[:2], nil, nil, ""
	if fitExplain(small, budget) || len(small.Callers) != 2 {
		t.Error("an answer within its budget was cut")
	}
}
