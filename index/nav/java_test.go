package nav

import (
	"slices"
	"testing"
)

// TestResolveJavaOverloads: a call picks the overload its number of arguments fits, on a
// bare name and on a typed receiver, and among overloads of one arity the one whose
// parameters' types are its arguments' (a string literal).
func TestResolveJavaOverloads(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"p/Server.java": `package p;

public class Server {
    public static Server create() {
        return create (null, 0);
    }
    public static Server create(String addr, int backlog) {
        return null;
    }
    void remove(String path) {}
    void remove(Object ctx) {}
    void remove(String proto, String path) {}
}
`,
		"p/Use.java": `package p;

class Use {
    void run(Server s) {
        s.remove("a", "b");
        s.remove("a");
        Server.create();
    }
}
`,
	})
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		{"create", "p/Server.java", 4, []string{"p/Use.java:7 qualified"}},
		{"create", "p/Server.java", 7, []string{"p/Server.java:5 scope"}},
		{"remove", "p/Server.java", 12, []string{"p/Use.java:5 receiver"}},
		{"remove", "p/Server.java", 10, []string{"p/Use.java:6 receiver"}}, // a String argument
		{"remove", "p/Server.java", 11, nil},
	}
	for _, c := range cases {
		if got := usesAt(t, s, c.name, c.path, c.line); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s:%d):\n got %q\nwant %q", c.name, c.path, c.line, got, c.want)
		}
	}
}

// TestResolveJavaNames: bare names (a field used without this, hidden by a parameter or a
// local in scope, not by one whose block closed or a lambda's outside its body), types
// through an on-demand import, a nested type, a fully qualified name, a static import, and
// an import's own line.
func TestResolveJavaNames(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"a/Event.java": `package a;

public class Event {
    public static class Done extends Event {}
    public static final int LIMIT = 3;
    public static int twice(int x) { return x; }
}
`,
		"b/Conn.java": `package b;

import a.*;
import static a.Event.twice;

class Conn {
    boolean closed;
    Object realm;

    Conn(Object realm) {
        this.realm = realm;
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < 2; i++) {
            boolean closed = false;
        }
        if (closed) {}
        run(() -> { int closed = 1; });
        run(closed -> closed.go());
        Event e = new Event.Done();
        Object o = new a.Event();
        int n = twice(Event.LIMIT);
    }

    void run(Object r) {}
}
`,
		"c/Other.java": "package c;\n\nimport a.Event;\n\nclass Other {\n    Event e;\n}\n",
	})
	cases := []struct {
		name, path string
		want       []string
	}{
		// a local or parameter of the name: unresolved (listed as such), never the field
		{"closed", "b/Conn.java", []string{"b/Conn.java:15 scope", "b/Conn.java:18 scope", "b/Conn.java:22 scope", "b/Conn.java:24 unresolved"}},
		{"realm", "b/Conn.java", []string{"b/Conn.java:11 receiver", "b/Conn.java:11 unresolved"}},
		{"Done", "a/Event.java", []string{"b/Conn.java:25 qualified"}},
		{"Event", "a/Event.java", []string{"a/Event.java:4 scope", "b/Conn.java:4 import", "b/Conn.java:25 scope", "b/Conn.java:25 scope", "b/Conn.java:26 qualified", "b/Conn.java:27 scope", "c/Other.java:3 import", "c/Other.java:6 scope"}},
		{"LIMIT", "a/Event.java", []string{"b/Conn.java:27 qualified"}},
		{"twice", "a/Event.java", []string{"b/Conn.java:4 import", "b/Conn.java:27 import"}},
	}
	for _, c := range cases {
		if got := usesOf(t, s, c.name, c.path); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s):\n got %q\nwant %q", c.name, c.path, got, c.want)
		}
	}
}

// TestResolveJavaReceivers: a member looked up in the type of what precedes it: a field's
// declared type, a method's result, a cast, this and super; a type that extends a class
// outside the workspace leaves a method it does not declare unresolved rather than take an
// enclosing type's, and a receiver of unknown type is unresolved.
func TestResolveJavaReceivers(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"p/Impl.java": `package p;

class Base {
    void start() {}
}

class Impl extends Base {
    Impl next;
    Impl self() { return this; }
    void start() {}
    void bind() {}

    void go(Object o, java.util.List<Impl> list) {
        next.bind();
        self().next.bind();
        ((Impl) o).bind();
        this.bind();
        super.start();
        list.get(0).bind();
    }

    class Task extends Thread {
        public void run() {
            start();
            bind();
        }
    }
}
`,
	})
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		// Task extends Thread: its bind() may be Thread's for all the workspace knows
		{"bind", "p/Impl.java", 11, []string{"p/Impl.java:14 receiver", "p/Impl.java:15 receiver", "p/Impl.java:16 receiver", "p/Impl.java:17 receiver", "p/Impl.java:19 unresolved", "p/Impl.java:25 unresolved"}},
		{"start", "p/Impl.java", 4, []string{"p/Impl.java:18 receiver", "p/Impl.java:24 unresolved"}},
		{"start", "p/Impl.java", 10, []string{"p/Impl.java:24 unresolved"}},
	}
	for _, c := range cases {
		if got := usesAt(t, s, c.name, c.path, c.line); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s:%d):\n got %q\nwant %q", c.name, c.path, c.line, got, c.want)
		}
	}
}

// TestResolveJavaAnonymous: a method of an anonymous class is what its own body calls by a
// bare name, not what the enclosing method calls; an annotation's argument before a
// method's name is not one of its parameters.
func TestResolveJavaAnonymous(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"p/Srv.java": `package p;

class Srv {
    void tick() {}
    @SuppressWarnings("unchecked")
    void put(Object a, Object b) {}
    void put(Object a) {}

    void start() {
        Runnable r = new Runnable() {
            void tick() {}
            public void run() {
                tick();
            }
        };
        tick();
        put(r, r);
    }
}
`,
	})
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		{"tick", "p/Srv.java", 4, []string{"p/Srv.java:16 scope"}},
		{"tick", "p/Srv.java", 11, []string{"p/Srv.java:13 scope"}},
		{"put", "p/Srv.java", 5, []string{"p/Srv.java:17 scope"}}, // its line is its annotation's
		{"put", "p/Srv.java", 7, nil},
	}
	for _, c := range cases {
		if got := usesAt(t, s, c.name, c.path, c.line); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s:%d):\n got %q\nwant %q", c.name, c.path, c.line, got, c.want)
		}
	}
}

// TestResolveJavaVarargs: a call its arguments fit only as varargs is the varargs method's,
// unless the type has a base outside the workspace, which may have one of fixed arity that
// javac would prefer.
func TestResolveJavaVarargs(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"p/Log.java": `package p;

interface Log {
    void log(String format, Object... params);
}

interface Ext extends System.Logger {
    void log(String format, Object... params);
}

class Use {
    void f(Log a, Ext b) {
        a.log("x %s %s", 1, 2);
        b.log("x %s %s", 1, 2);
    }
}
`,
	})
	if got, want := usesAt(t, s, "log", "p/Log.java", 4), []string{"p/Log.java:13 receiver", "p/Log.java:14 unresolved"}; !slices.Equal(got, want) {
		t.Errorf("uses of Log.log:\n got %q\nwant %q", got, want)
	}
	if got, want := usesAt(t, s, "log", "p/Log.java", 8), []string{"p/Log.java:14 unresolved"}; !slices.Equal(got, want) {
		t.Errorf("uses of Ext.log:\n got %q\nwant %q", got, want)
	}
}
