package nav

import (
	"slices"
	"testing"
)

// rustCrate is a small crate: modules by file (error.rs, shapes/mod.rs, shapes/area.rs),
// grouped, glob, super:: and pub uses, impl blocks in another file than their type.
var rustCrate = map[string]string{
	"src/lib.rs": `mod error;
mod impls;
mod util;
pub mod shapes;

pub use crate::error::Error;

pub struct Version {
    pub major: u64,
    pub pre: Prerelease,
}

pub struct Prerelease {
    text: String,
}
`,
	"src/error.rs": `use std::fmt;

pub struct Error {
    pub kind: ErrorKind,
}

pub enum ErrorKind {
    Empty,
    Overflow(u8),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.kind {
            ErrorKind::Empty => f.write_str("empty"),
            ErrorKind::Overflow(_) => f.write_str("overflow"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
`,
	"src/impls.rs": `use crate::{Prerelease, Version};
use crate::util::*;

impl Version {
    pub const EMPTY: u64 = 0;

    pub fn new(major: u64) -> Self {
        Version { major, pre: Prerelease::new() }
    }

    pub(crate) fn bump(&self, other: &Self) -> u64 {
        self.major + other.major + Self::EMPTY + limit()
    }
}

impl Prerelease {
    pub fn new() -> Self {
        Prerelease { text: String::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}
`,
	"src/util.rs": `pub fn limit() -> u64 {
    3
}
`,
	"src/shapes/mod.rs": `mod area;

pub fn describe(v: &crate::Version) -> bool {
    let limit = 2;
    v.pre.is_empty() && area::size(v) > limit
}
`,
	"src/shapes/area.rs": `use super::super::Error;
use crate::Version;

pub fn size(v: &Version) -> u64 {
    let e: Option<Error> = None;
    let n = v.bump(&Version::new(1));
    n.major
}
`,
}

// TestResolveRust: Rust's modules are files, paths are followed from crate::, self::,
// super:: and what a module declares or imports (globs, re-exports), an impl block's items
// are the type's wherever the impl is, self and parameters have their declared types
// (&Self the impl's), a local hides a function of its name, and what leads out of the
// workspace (std::fmt, a receiver of unknown type) is left unresolved, never guessed.
func TestResolveRust(t *testing.T) {
	s := extractedStore(t, rustCrate)
	cases := []struct {
		name, path string
		line       int
		want       []string
	}{
		{"Version", "src/lib.rs", 8, []string{
			"src/impls.rs:1 import", "src/impls.rs:4 import", "src/impls.rs:8 import",
			"src/shapes/area.rs:2 import", "src/shapes/area.rs:4 import", "src/shapes/area.rs:6 import",
			"src/shapes/mod.rs:3 qualified"}},
		// the impl's new, not Prerelease's: Version::new and Prerelease::new
		// String::new is std's, listed as a use of the name tied to nothing
		{"new", "src/impls.rs", 7, []string{"src/shapes/area.rs:6 qualified", "src/impls.rs:18 unresolved"}},
		{"new", "src/impls.rs", 17, []string{"src/impls.rs:8 qualified", "src/impls.rs:18 unresolved"}},
		// n of a tuple-less let of a call: no type known
		{"major", "src/lib.rs", 9, []string{"src/impls.rs:12 receiver", "src/impls.rs:12 receiver", "src/shapes/area.rs:7 unresolved"}},
		{"EMPTY", "src/impls.rs", 5, []string{"src/impls.rs:12 qualified"}},
		{"bump", "src/impls.rs", 11, []string{"src/shapes/area.rs:6 receiver"}},
		// self.text.is_empty() is String's
		{"is_empty", "src/impls.rs", 21, []string{"src/shapes/mod.rs:5 receiver", "src/impls.rs:22 unresolved"}},
		{"pre", "src/lib.rs", 10, []string{"src/shapes/mod.rs:5 receiver"}},
		{"text", "src/lib.rs", 14, []string{"src/impls.rs:22 receiver"}},
		{"limit", "src/util.rs", 1, []string{"src/impls.rs:12 import"}}, // not the local limit of describe
		{"size", "src/shapes/area.rs", 4, []string{"src/shapes/mod.rs:5 qualified"}},
		{"Error", "src/error.rs", 3, []string{"src/error.rs:12 scope", "src/error.rs:21 scope", "src/lib.rs:6 import", "src/shapes/area.rs:1 import", "src/shapes/area.rs:5 import"}},
		{"Empty", "src/error.rs", 8, []string{"src/error.rs:15 qualified"}},
		{"Overflow", "src/error.rs", 9, []string{"src/error.rs:16 qualified"}},
		// Display's fmt and Debug's are two; fmt::Display::fmt is std's path, and the module
		// fmt (use std::fmt, fmt::Formatter) is std's
		{"fmt", "src/error.rs", 13, []string{"src/error.rs:1 unresolved", "src/error.rs:12 unresolved", "src/error.rs:13 unresolved",
			"src/error.rs:13 unresolved", "src/error.rs:21 unresolved", "src/error.rs:22 unresolved", "src/error.rs:22 unresolved",
			"src/error.rs:23 unresolved", "src/error.rs:23 unresolved"}},
	}
	for _, c := range cases {
		if got := usesAt(t, s, c.name, c.path, c.line); !slices.Equal(got, c.want) {
			t.Errorf("uses of %s (%s:%d):\n got %q\nwant %q", c.name, c.path, c.line, got, c.want)
		}
	}
}
