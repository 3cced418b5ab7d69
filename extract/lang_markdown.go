package extract

import (
	"bytes"
	"strconv"
	"strings"
)

func init() { register("markdown", extractMarkdown) }

// mdSetextLevels are the levels of the setext underline node types.
var mdSetextLevels = map[string]int{"setext_h1_underline": 1, "setext_h2_underline": 2}

// mdMaxLevel is the deepest ATX heading (######).
const mdMaxLevel = 6

// mdSection is a heading whose section is still open, with its level (1 for # and ===).
type mdSection struct {
	sym   *Symbol
	level int
}

// mdFile is the state of one Markdown extraction: the open sections, shallowest first.
type mdFile struct {
	open []mdSection
}

// extractMarkdown walks a Markdown document (the block grammar): each ATX (## Usage) or
// setext (Usage, underlined) heading is a namespace, the parent of the headings and link
// reference definitions of its section, which runs to the next heading of the same or a
// shallower level. Headings quoted in a block quote or a list item are not sections of the
// document.
//
// A fenced code block whose info string names a language with an extractor (```go,
// ```ts, ```python) is extracted as that language, its definitions children of the section
// and marked as examples (metadata example=true), which rank below source. A block without
// a language, or of a language Quarry does not know, is left alone, as are indented code
// blocks, which never say their language.
func extractMarkdown(w *walker, root *Node) {
	md := &mdFile{}
	mdBlocks(w, root, md, false)
	md.closeTo(w, 1, int(root.EndByte()), int(root.EndPoint().Row))
}

// mdBlocks extracts the headings and link reference definitions among the blocks under n;
// quoted says n is inside a block quote or a list item.
func mdBlocks(w *walker, n *Node, md *mdFile, quoted bool) {
	for _, c := range namedChildren(n) {
		switch c.Type() {
		case "atx_heading", "setext_heading":
			if !quoted {
				mdHeading(w, c, md)
			}
		case "link_reference_definition":
			mdLinkDefinition(w, c, md)
		case "fenced_code_block":
			mdFence(w, c, md)
		case "section":
			mdBlocks(w, c, md, quoted)
		case "block_quote", "list", "list_item":
			mdBlocks(w, c, md, true)
		}
	}
}

// mdHeading closes the sections the heading n ends and opens its own.
func mdHeading(w *walker, n *Node, md *mdFile) {
	name, level := mdHeadingName(w, n)
	if name == "" || level == 0 {
		return
	}
	md.closeTo(w, level, int(n.StartByte()), int(n.StartPoint().Row))
	var sym *Symbol
	w.within(md.parent(), func() { sym = w.addNamed(n, name, Namespace) })
	if sym == nil {
		return
	}
	// The source as written, underline included: a setext heading's ends with = or -,
	// which the default signature trims.
	sym.Signature = oneLine(strings.TrimSpace(w.text(n)), maxSignatureRunes)
	meta(sym, "level", strconv.Itoa(level))
	md.open = append(md.open, mdSection{sym, level})
}

// mdHeadingName returns the text and level of the heading n: "Usage" and 2 for
// "## Usage ##" and for "Usage" underlined with dashes.
func mdHeadingName(w *walker, n *Node) (string, int) {
	if n.Type() == "setext_heading" {
		content := field(n, "heading_content")
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if level := mdSetextLevels[n.NamedChild(i).Type()]; level > 0 {
				return strings.TrimSpace(w.text(content)), level
			}
		}
		return "", 0
	}
	line, _, _ := strings.Cut(strings.TrimLeft(w.text(n), " \t"), "\n")
	text := strings.TrimLeft(line, "#")
	level := len(line) - len(text)
	if level > mdMaxLevel {
		return "", 0
	}
	text = strings.TrimRight(text, " \t\r")
	if closed := strings.TrimRight(text, "#"); closed == "" || strings.HasSuffix(closed, " ") || strings.HasSuffix(closed, "\t") {
		text = closed // a closing sequence (## Usage ##) follows a space
	}
	return strings.TrimSpace(text), level
}

// mdLinkDefinition adds a link reference definition ([label]: url "title") as a variable
// named by its label, with its destination in the metadata.
func mdLinkDefinition(w *walker, n *Node, md *mdFile) {
	label := w.text(childOfType(n, "link_label"))
	label = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(label, "["), "]"))
	var sym *Symbol
	w.within(md.parent(), func() { sym = w.addNamed(n, label, Variable) })
	if sym != nil {
		trimSpanEnd(w, sym, int(n.EndByte()), int(n.EndPoint().Row))
	}
	dest := strings.TrimSuffix(strings.TrimPrefix(w.text(childOfType(n, "link_destination")), "<"), ">")
	meta(sym, "destination", dest)
}

// parent returns the innermost open section, or nil.
func (md *mdFile) parent() *Symbol {
	if len(md.open) == 0 {
		return nil
	}
	return md.open[len(md.open)-1].sym
}

// closeTo ends the open sections of level or deeper where the next heading starts, at byte
// next on row nextRow (0-based).
func (md *mdFile) closeTo(w *walker, level, next, nextRow int) {
	for len(md.open) > 0 && md.open[len(md.open)-1].level >= level {
		trimSpanEnd(w, md.open[len(md.open)-1].sym, next, nextRow)
		md.open = md.open[:len(md.open)-1]
	}
}

// trimSpanEnd ends sym with its last non-blank character before byte limit, on row limitRow
// (0-based), so that a section or a line ends where its text does, not on the next line.
// TOML tables use it too.
func trimSpanEnd(w *walker, sym *Symbol, limit, limitRow int) {
	end := limit
	for end > sym.StartByte && strings.IndexByte(" \t\r\n", w.src[end-1]) >= 0 {
		end--
	}
	if end <= sym.StartByte {
		return
	}
	lineStart := bytes.LastIndexByte(w.src[:end], '\n') + 1
	sym.EndByte = end
	sym.EndLine = limitRow + 1 - bytes.Count(w.src[end:limit], []byte("\n"))
	sym.EndColumn = w.column(end, end-lineStart)
}

// mdFence extracts a fenced code block of a known language as an example of it, without the
// block quote markers and list indentation that continue it.
func mdFence(w *walker, n *Node, md *mdFile) {
	info := childOfType(n, "info_string")
	lang := w.text(childOfType(info, "language"))
	content := childOfType(n, "code_fence_content")
	if lang == "" || content == nil {
		return
	}
	// {.python} and python{cmd=true} (Pandoc and Markdown Preview attributes).
	lang = strings.TrimLeft(lang, "{.")
	if i := strings.IndexAny(lang, "{},"); i >= 0 {
		lang = lang[:i]
	}
	w.embedRanges(strings.ToLower(lang), md.parent(), true, rangesWithout(content, "block_continuation"))
}
