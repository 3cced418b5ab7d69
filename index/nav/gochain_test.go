package nav

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrysearch/quarry/index/nav/resolve"
	"github.com/quarrysearch/quarry/index/store"
)

// goChainSources is a module whose uses exercise Go's typed expressions. A line's trailing
// comment says which of its names resolve to the definitions the test asks about (=>Name)
// and which stay unresolved (?Name).
var goChainSources = map[string]string{
	"go.mod": "module example.com/app\n\ngo 1.22\n",
	"web/web.go": `package web

type Header map[string][]string

func (h Header) Set(k, v string) {}

type Writer interface {
	Header() Header
	Write(b []byte) (int, error)
}

type Flusher interface {
	Writer
	Flush()
}

type Request struct {
	URL  *URL
	Form Values
}

type URL struct{ Path string }

func (u *URL) String() string { return u.Path }

type Values map[string][]string

func (v Values) Get(k string) string { return "" }

type Base struct{ Name string }

func (b *Base) Describe() string { return b.Name }

type Server struct {
	*Base
	Handler Handler
	conns   []*Conn
	byName  map[string]*Conn
}

type Handler interface{ Serve(w Writer, r *Request) }

type Conn struct{ srv *Server }

func (c *Conn) Close() error { return nil }

func NewServer() *Server { return &Server{} }

func (s *Server) first(f func()) *Conn { return nil }

func (s *Server) Conn(i int) (*Conn, error) { return s.conns[i], nil }

type ConnID int

func (id ConnID) Conn() *Conn { return nil }

var defaultName = "x"
`,
	"web/loop.go": `package web

func (s *Server) closeAll() {
	for _, c := range s.conns { // =>Server.conns
		c.Close() // =>Conn.Close
	}
	for name, c := range s.byName { // =>Server.byName
		_ = name
		c.Close() // =>Conn.Close
	}
	switch v := any(s).(type) {
	case *Conn:
		v.Close() // =>Conn.Close
	case *Server:
		v.Close() // ?Conn.Close
	}
	s.conns[0].srv.conns[1].Close() // =>Server.conns =>Conn.Close
}

func hidden(defaultName string) {
	_ = defaultName                 // ?defaultName
	if c := NewServer(); c != nil { // =>NewServer
		_ = c
	}
	NewServer := func() {}
	NewServer() // ?NewServer
}

func other() {
	var NewServer = 1 // another function's local is not the package's
	_ = NewServer
}

func seen() {
	_ = defaultName // =>defaultName
	func(defaultName int) { _ = defaultName }(1) // ?defaultName
	_ = defaultName // =>defaultName
}
`,
	"web/more.go": `package web

import "strings"

var _ = strings.ToUpper

func (s *Server) more(ch chan *Conn, strings *Conn) {
	select {
	case c := <-ch:
		c.Close() // =>Conn.Close
	}
	for _, defaultName := range []string{"a"} {
		_ = defaultName // ?defaultName
	}
	_ = defaultName // =>defaultName
	conn := s.first(func() { // =>Server.first
		_ = 1
	}).srv
	conn.Describe() // =>Base.Describe
	strings.Close() // =>Conn.Close
}

type entry struct {
	in, want string
	c        *Conn
}

var entries = []entry{
	{in: "a<b", want: "c>d, e"},
	{in: "x", want: "y"},
}

func each() {
	for _, e := range entries {
		e.c.Close() // =>Conn.Close
	}
	tests := []struct {
		name string
		s    *Server
	}{
		{"a", nil},
	}
	for _, tt := range tests {
		tt.s.conns[0].Close() // =>Server.conns =>Conn.Close
	}
}

type byKey map[string]int

var keyed = byKey{defaultName: 1} // =>defaultName

var handle = func(c *Conn) error {
	return c.Close() // =>Conn.Close
}
`,
	"web/web_test.go": "package web_test\n\nimport . \"example.com/app/web\"\n\nvar defaultName = 1\n\nvar _ = NewServer() // =>NewServer\n",
	"app/main.go": `package app

import (
	"strings"

	"example.com/app/web"
)

type handler struct{}

func (handler) Serve(w web.Writer, r *web.Request) {
	w.Header().Set("k", "v") // =>Writer.Header =>Header.Set
	_ = r.URL.String()       // =>Request.URL =>URL.String
	_ = r.Form.Get("q")      // =>Request.Form =>Values.Get
}

func run(x any, id int) {
	s := web.NewServer() // =>NewServer
	s.Describe()         // =>Base.Describe
	_ = s.Name           // =>Base.Name
	web.NewServer().Describe() // =>NewServer =>Base.Describe
	c, err := s.Conn(0) // =>Server.Conn
	_ = err
	c.Close() // =>Conn.Close
	f := x.(web.Flusher)
	f.Header()                    // =>Writer.Header
	x.(*web.Conn).Close()         // =>Conn.Close
	web.ConnID(id).Conn().Close() // =>ConnID.Conn =>Conn.Close
	closer := c.Close             // =>Conn.Close
	_ = closer
	srv := &web.Server{Handler: handler{}} // =>Server.Handler
	srvs := []*web.Server{{Handler: nil}}  // =>Server.Handler
	_, _ = srv, srvs
	var b strings.Builder
	_ = b.String() // ?URL.String
	var u web.URL
	_ = u.String() // =>URL.String
	_ = y.String() // ?URL.String
}
`,
}

// TestGoTypedChains: a Go use looked up in an expression resolves to the member of the
// expression's type that Go selects: a call's declared result (w.Header().Set,
// web.NewServer().Describe()), a field's declared type (r.URL.String()), an embedded
// field's or interface's promoted members, a multi-result call's first result, a range
// variable over a typed slice or map, a type switch's variable in a one-type case, a type
// assertion, a conversion, a method value, a composite literal's keys; a bare name hidden
// by a parameter or local is not the package's. An expression of a type outside the
// workspace, or of no known type, stays unresolved.
func TestGoTypedChains(t *testing.T) {
	s := extractedStore(t, goChainSources)
	cases := []struct{ name, path, parent string }{
		{"Close", "web/web.go", "Conn"},
		{"Header", "web/web.go", "Writer"},
		{"Set", "web/web.go", "Header"},
		{"URL", "web/web.go", "Request"},
		{"String", "web/web.go", "URL"},
		{"Form", "web/web.go", "Request"},
		{"Get", "web/web.go", "Values"},
		{"NewServer", "web/web.go", ""},
		{"Describe", "web/web.go", "Base"},
		{"Name", "web/web.go", "Base"},
		{"Conn", "web/web.go", "Server"},
		{"Conn", "web/web.go", "ConnID"},
		{"Handler", "web/web.go", "Server"},
		{"conns", "web/web.go", "Server"},
		{"byName", "web/web.go", "Server"},
		{"defaultName", "web/web.go", ""},
		{"first", "web/web.go", "Server"},
	}
	for _, c := range cases {
		got := goUses(t, s, c.name, c.path, c.parent)
		want := goWanted(c.name, c.parent)
		if !slices.Equal(got, want) {
			t.Errorf("uses of %s.%s:\n got %q\nwant %q", c.parent, c.name, got, want)
		}
	}
}

// goWanted returns the uses of parent's member name (a top-level name without a parent)
// the sources' comments announce (=>Parent.Name, ?Parent.Name), as goUses gives them.
func goWanted(name, parent string) []string {
	if parent != "" {
		name = parent + "." + name
	}
	var out []string
	for p, src := range goChainSources {
		for i, line := range strings.Split(src, "\n") {
			_, comment, ok := strings.Cut(line, "//")
			if !ok {
				continue
			}
			for _, w := range strings.Fields(comment) {
				switch w {
				case "=>" + name:
					out = append(out, p+":"+strconv.Itoa(i+1)+" resolved")
				case "?" + name:
					out = append(out, p+":"+strconv.Itoa(i+1)+" unresolved")
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// goUses returns the uses of the Go definition name in the file p whose type (parent, or
// a method's receiver) is parent, outside p, as "path:line resolved" or "path:line
// unresolved", sorted.
func goUses(t *testing.T, s *store.Store, name, p, parent string) []string {
	t.Helper()
	r := NewReader(s)
	defs, err := r.Definitions(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	var def *Def
	for i, d := range defs {
		if d.Path != p {
			continue
		}
		owner := strings.TrimLeft(resolve.MetaMap(d.Metadata)["receiver"], "*")
		if pd, err := r.Definition(context.Background(), d.ParentID); err != nil {
			t.Fatal(err)
		} else if pd != nil {
			owner = pd.Name
		}
		if owner == parent {
			def = &defs[i]
		}
	}
	if def == nil {
		t.Fatalf("no definition of %s.%s in %s among %+v", parent, name, p, defs)
	}
	refs, _, err := r.SymbolRefs(context.Background(), *def, RefsQuery{Unresolved: true, Limit: 1000, NoText: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range refs {
		if x.Path == p { // the definition's own file: its declarations' uses
			continue
		}
		why := "resolved"
		if x.Resolution == "" {
			why = "unresolved"
		}
		out = append(out, x.Path+":"+strconv.Itoa(x.Line)+" "+why)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
