package query

import (
	"fmt"
	"regexp"
	"strings"
)

// FilePattern is a parsed file_pattern: globs separated by commas, each matching
// workspace-relative POSIX paths; a glob starting with ! excludes. A path matches when it
// matches one including glob (or there is none) and no excluding one.
//
// Glob syntax: * (any characters but /), ** (any characters, / too, as a whole path
// segment or inside one), ? (one character but /), [abc] and [a-z] (classes, [!a] negated),
// {a,b} (alternatives, which may hold globs but not commas of their own level). A glob
// without a / matches the file name at any depth (*.py is **/*.py); one with a / matches
// from the workspace root (a leading / or ./ is dropped).
type FilePattern struct {
	src      string
	Include  []string // regular expressions over the whole path, unanchored text
	Exclude  []string
	includeR []*regexp.Regexp
	excludeR []*regexp.Regexp
}

// PatternError is a file_pattern that cannot be parsed. Pos is the byte offset in the whole
// pattern.
type PatternError struct {
	Pattern string
	Pos     int
	Msg     string
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("file_pattern %q: at byte %d: %s", e.Pattern, e.Pos, e.Msg)
}

// ParseFilePattern parses a file_pattern; "" gives nil, which matches every path.
func ParseFilePattern(src string) (*FilePattern, error) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	p := &FilePattern{src: src}
	for _, part := range splitTopLevel(src) {
		glob := strings.TrimSpace(part.text)
		pos := part.pos + strings.Index(part.text, glob)
		if glob == "" {
			return nil, &PatternError{src, part.pos, "empty glob (two commas in a row, or a comma at an end)"}
		}
		neg := strings.HasPrefix(glob, "!")
		if neg {
			glob, pos = glob[1:], pos+1
			if glob == "" {
				return nil, &PatternError{src, pos, "! must be followed by a glob"}
			}
		}
		re, err := globRegexp(src, glob, pos)
		if err != nil {
			return nil, err
		}
		compiled, err := regexp.Compile("^(?:" + re + ")$")
		if err != nil {
			return nil, &PatternError{src, pos, err.Error()}
		}
		if neg {
			p.Exclude, p.excludeR = append(p.Exclude, re), append(p.excludeR, compiled)
		} else {
			p.Include, p.includeR = append(p.Include, re), append(p.includeR, compiled)
		}
	}
	return p, nil
}

// String returns the pattern as written.
func (p *FilePattern) String() string {
	if p == nil {
		return ""
	}
	return p.src
}

// Match reports whether path matches p (a nil p matches every path).
func (p *FilePattern) Match(path string) bool {
	if p == nil {
		return true
	}
	for _, re := range p.excludeR {
		if re.MatchString(path) {
			return false
		}
	}
	if len(p.includeR) == 0 {
		return true
	}
	for _, re := range p.includeR {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

type patternPart struct {
	text string
	pos  int
}

// splitTopLevel splits s at the commas outside braces and brackets.
func splitTopLevel(s string) []patternPart {
	var parts []patternPart
	depth, inClass, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, patternPart{s[start:i], start})
			start = i + 1
		}
	}
	return append(parts, patternPart{s[start:], start})
}

// globRegexp translates one glob into a regular expression (RE2 syntax, also understood by
// bleve's regexp query) matching whole paths. pos is the glob's offset in the pattern src,
// for errors.
func globRegexp(src, glob string, pos int) (string, error) {
	glob = strings.TrimPrefix(strings.TrimPrefix(glob, "./"), "/")
	var b strings.Builder
	if !strings.Contains(glob, "/") && !strings.HasPrefix(glob, "**") {
		b.WriteString("(?:.*/)?") // a file name, at any depth
	}
	braces := 0
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				i++
				if i+1 < len(glob) && glob[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?") // **/: any directories, or none
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				return "", &PatternError{src, pos + i, "unclosed [: a class is [abc] or [a-z]"}
			}
			class := glob[i+1 : i+1+end]
			if class == "" || class == "!" || class == "^" {
				return "", &PatternError{src, pos + i, "empty character class"}
			}
			if class[0] == '!' {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		case '{':
			braces++
			b.WriteString("(?:")
		case '}':
			if braces == 0 {
				return "", &PatternError{src, pos + i, "} without {"}
			}
			braces--
			b.WriteString(")")
		case ',':
			if braces == 0 {
				b.WriteString(",") // unreachable: top-level commas split globs
			} else {
				b.WriteString("|")
			}
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
			}
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	if braces > 0 {
		return "", &PatternError{src, pos + len(glob), "unclosed {: alternatives are {a,b}"}
	}
	return b.String(), nil
}
