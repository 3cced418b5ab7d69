package nav

import (
	"slices"
	"strings"
	"testing"
)

// TestResolveCSharp: C#'s names by Java's rules with C#'s scopes: a type of the enclosing
// namespace declared in another file, one a using directive imports, one a using alias
// names, members of a partial class's other part, base.M(), a property used bare and
// through a typed local, an overload picked by its arguments, x?.M(), and a field hidden by
// a parameter; a member of a type outside the workspace (List<T>.Add) is unresolved, never
// the workspace's method of that name.
func TestResolveCSharp(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"Lib/Tags/Tag.cs": `namespace Lib.Tags
{
    public abstract class Tag
    {
        protected int count;
        public string Title { get; set; }
        public virtual void Clear () { count = 0; Title = null; }
        public int Size () { return count; }
        public int Size (int extra) { return count + extra; }
    }
}
`,
		"Lib/Tags/Id3Tag.cs": `using System.Collections.Generic;

namespace Lib.Tags
{
    public partial class Id3Tag : Tag
    {
        private List<string> frames = new List<string> ();
        public override void Clear () { base.Clear (); frames.Clear (); }
        public void Add (string f) { frames.Add (f); Grow (f.Length); }
    }
}
`,
		"Lib/Tags/Id3Tag.Grow.cs": `namespace Lib.Tags
{
    public partial class Id3Tag
    {
        void Grow (int count) { this.count += count; }
    }
}
`,
		"Lib/File.cs": `using Lib.Tags;
using T3 = Lib.Tags.Id3Tag;

namespace Lib
{
    public class File
    {
        public File (string path)
        {
            var id3 = new T3 ();
            id3.Add (path);
            Tag tag = id3;
            tag.Title = path;
            int n = tag.Size () + tag?.Size (1) ?? 0;
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
		{"Tag", "Lib/Tags/Tag.cs", 3, []string{"Lib/File.cs:12 scope", "Lib/Tags/Id3Tag.cs:5 scope"}},
		{"Id3Tag", "Lib/Tags/Id3Tag.cs", 5, []string{"Lib/File.cs:2 import"}},      // not new T3 (): another name
		{"Id3Tag", "Lib/Tags/Id3Tag.Grow.cs", 3, []string{"Lib/File.cs:2 import"}}, // one type in its parts
		{"Clear", "Lib/Tags/Tag.cs", 7, []string{"Lib/Tags/Id3Tag.cs:8 receiver"}},
		{"Title", "Lib/Tags/Tag.cs", 6, []string{"Lib/File.cs:13 receiver", "Lib/Tags/Tag.cs:7 scope"}},
		{"Size", "Lib/Tags/Tag.cs", 8, []string{"Lib/File.cs:14 receiver"}},
		{"Size", "Lib/Tags/Tag.cs", 9, []string{"Lib/File.cs:14 receiver"}},
		{"Add", "Lib/Tags/Id3Tag.cs", 9, []string{"Lib/File.cs:11 receiver"}},
		{"Grow", "Lib/Tags/Id3Tag.Grow.cs", 5, []string{"Lib/Tags/Id3Tag.cs:9 scope"}},
		{"count", "Lib/Tags/Tag.cs", 5, []string{"Lib/Tags/Id3Tag.Grow.cs:5 receiver", "Lib/Tags/Tag.cs:7 scope", "Lib/Tags/Tag.cs:8 scope", "Lib/Tags/Tag.cs:9 scope"}},
	}
	for _, c := range cases {
		got := usesAt(t, s, c.name, c.path, c.line)
		got = slices.DeleteFunc(got, func(u string) bool { return strings.HasSuffix(u, " unresolved") })
		if !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s:%d):\n got %q\nwant %q", c.name, c.path, c.line, got, c.want)
		}
	}
	// frames.Add (List<string>'s) is not the workspace's Add: it is counted unresolved
	if got := usesAt(t, s, "Add", "Lib/Tags/Id3Tag.cs", 9); !slices.Contains(got, "Lib/Tags/Id3Tag.cs:9 unresolved") {
		t.Errorf("uses of Add: %q, want frames.Add (f) unresolved", got)
	}
}

// TestResolveCSharpMore: a using inside a namespace names a namespace relative to it; a cast
// argument's type picks an overload; an event holding a delegate is called; [Interface] is
// InterfaceAttribute; new T { A = x } sets T's A, not the enclosing class's; a case label
// after an #if is seen (the parser keeps #if's branch).
func TestResolveCSharpMore(t *testing.T) {
	s := extractedStore(t, map[string]string{
		"Protocol/Writer.cs": `namespace DBus.Protocol
{
    public class InterfaceAttribute : System.Attribute
    {
        public InterfaceAttribute (string name) { }
    }
    public enum DType { Single, Double }
    public class Writer
    {
        public string Path;
        public event System.Action<int> Completed;
        public void Write (uint v) { }
        public void Write (string s) { }
        void Done (int n) { Completed (n); }
        public void Put (DType t, object val)
        {
            switch (t) {
#if !DISABLE_SINGLE
            case DType.Single:
                Write ((uint)val);
                break;
#else
            case DType.Double:
                break;
#endif
            }
        }
    }
}
`,
		"Bus.cs": `namespace DBus
{
    using Protocol;

    [Interface ("org.freedesktop.DBus")]
    public class Bus
    {
        public string Path;
        public Writer Make (string p)
        {
            Write ("x");
            return new Writer { Path = p };
        }
        void Write (string s) { }
    }
}
`,
	})
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		{"Writer", "Protocol/Writer.cs", 8, []string{"Bus.cs:9 scope", "Bus.cs:12 scope"}},
		{"InterfaceAttribute", "Protocol/Writer.cs", 3, []string{"Bus.cs:5 scope"}},
		{"Write", "Protocol/Writer.cs", 12, []string{"Protocol/Writer.cs:20 scope"}},
		{"Write", "Protocol/Writer.cs", 13, nil},
		{"Completed", "Protocol/Writer.cs", 11, []string{"Protocol/Writer.cs:14 scope"}},
		{"Single", "Protocol/Writer.cs", 7, []string{"Protocol/Writer.cs:19 qualified"}},
		{"Path", "Protocol/Writer.cs", 10, []string{"Bus.cs:12 receiver"}},
		{"Path", "Bus.cs", 8, nil},
	}
	for _, c := range cases {
		got := usesAt(t, s, c.name, c.path, c.line)
		got = slices.DeleteFunc(got, func(u string) bool { return strings.HasSuffix(u, " unresolved") })
		if !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s:%d):\n got %q\nwant %q", c.name, c.path, c.line, got, c.want)
		}
	}
}
