package resolve

import "testing"

// TestBindingOf: the lines that bind a local variable, per language, with the type they
// declare or the expression they bind; lines that only use it, or bind another, do not.
func TestBindingOf(t *testing.T) {
	cases := []struct {
		lang, line, name string
		typ, rhs         string
		ok               bool
	}{
		{"go", "\tbr := bufio.NewReader(r)", "br", "", "bufio.NewReader(r)", true},
		{"go", "\tbr, err := bufio.NewReaderSize(r, 10)", "br", "", "bufio.NewReaderSize(r, 10)", true},
		{"go", "\terr, br := f()", "br", "", "", true}, // not the first result
		{"go", "\ta, br := 1, 2", "br", "", "", true},
		{"go", "\tfor _, br := range readers {", "br", "", "", true},
		{"go", "\tvar br *bufio.Reader", "br", "*bufio.Reader", "", true},
		{"go", "\tvar br = bufio.NewReader(r)", "br", "", "bufio.NewReader(r)", true},
		{"go", "\tbr = other", "br", "", "", false}, // an assignment keeps the type
		{"go", "\tbrx := 1", "br", "", "", false},
		{"go", "\tx := br.Peek(1)", "br", "", "", false},
		{"python", "    form = Form(data)", "form", "", "Form(data)", true},
		{"python", "    form: Form = make()", "form", "Form", "", true},
		{"python", "    if form == other:", "form", "", "", false},
		{"python", "    for form in forms:", "form", "", "", true},
		{"python", "    a, form = pair", "form", "", "", true},
		{"python", "    f(form=1)", "form", "", "", false},
		{"rust", "    let mut v = SmallVec::new();", "v", "", "SmallVec::new()", true},
		{"rust", "    let v: Graph<u8, u8> = g;", "v", "Graph<u8, u8>", "g", true},
		{"rust", "    let (a, v) = pair;", "v", "", "", true},
		{"typescript", "  const s = new Scheduler()", "s", "", "new Scheduler()", true},
		{"typescript", "  let s: Scheduler = pick()", "s", "Scheduler", "pick()", true},
		{"typescript", "  s = pick()", "s", "", "", false},
		{"java", "        Task t = Task.make();", "t", "Task", "", true},
		{"java", "        for (Task t : tasks) {", "t", "Task", "", true},
		{"java", "        var t = new Task();", "t", "", "new Task()", true},
		{"java", "        Map<String, List<Task>> t = new HashMap<>();", "t", "Map<String, List<Task>>", "", true},
		{"java", "        t = other;", "t", "", "", false},
		{"java", "        return t;", "t", "", "", false},
		{"java", "        if (x == t) {", "t", "", "", false},
	}
	for _, c := range cases {
		typ, rhs, ok := BindingOf(c.line, c.name, c.lang)
		if typ != c.typ || rhs != c.rhs || ok != c.ok {
			t.Errorf("bindingOf(%q, %s, %s) = %q, %q, %v; want %q, %q, %v", c.line, c.name, c.lang, typ, rhs, ok, c.typ, c.rhs, c.ok)
		}
	}
}

// TestSkipGroupAndCalleePath: the expression reader's two steps.
func TestSkipGroupAndCalleePath(t *testing.T) {
	if got := SkipGroup(`(a, f(")"), [1]).Close()`, '(', ')'); got != ".Close()" {
		t.Errorf("skipGroup = %q, want .Close()", got)
	}
	if got := SkipGroup("(unclosed", '(', ')'); got != "" {
		t.Errorf("skipGroup of an unclosed group = %q, want empty", got)
	}
	for in, want := range map[string]string{"pkg.NewReader(r)": "pkg.NewReader", "Vec::new()": "Vec::new", "x.": "x", "(a)": "", "a.b.c {": "a.b.c"} {
		if got := CalleePath(in); got != want {
			t.Errorf("calleePath(%q) = %q, want %q", in, got, want)
		}
	}
}
