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
