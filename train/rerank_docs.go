package main

// Doc-comment questions that read like a description the index does not hold. A question
// made of a definition's doc comment finds it by that very comment: its answer covers every
// word, which no question a developer types does (the quality suite's descriptions share a
// word or two with their answer's comment at best). So the questions are asked of a copy of
// the workspace from which each answer's first sentence was taken out of its comment: the
// rest of the comment stays (the answer is still documented, in other words), and the
// question is the sentence the index no longer has.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// docEdit is what a doc-comment question takes out of its answer's file: the words of the
// comment's first sentence, in order, near the definition at line (1-based).
type docEdit struct {
	line  int
	words []string
}

// sentenceWords returns the words (letters, digits, underscores) of text, in order.
var wordPattern = regexp.MustCompile(`[\pL\pN_]+`)

func sentenceWords(text string) []string { return wordPattern.FindAllString(text, -1) }

// docEditWindow is how many lines from the definition its doc comment's first sentence is
// looked for (above it, or below for a docstring).
const docEditWindow = 80

// removeWords takes e's words out of lines (in place): from the line nearest e.line where the
// first words begin, each word's next occurrence in order, within a few lines. It reports
// whether every word was found.
func removeWords(lines []string, e docEdit) bool {
	if len(e.words) == 0 {
		return false
	}
	head := min(3, len(e.words))
	starts := func(i int) bool {
		k := 0
		for j := i; j < min(len(lines), i+3) && k < head; j++ {
			for _, w := range wordPattern.FindAllString(lines[j], -1) {
				if k < head && strings.EqualFold(w, e.words[k]) {
					k++
				} else if k > 0 && k < head {
					return false
				}
			}
		}
		return k == head
	}
	at := e.line - 1
	start := -1
	for d := 0; d <= docEditWindow && start < 0; d++ {
		for _, i := range []int{at - d, at + d} {
			if i >= 0 && i < len(lines) && starts(i) {
				start = i
				break
			}
		}
	}
	if start < 0 {
		return false
	}
	k := 0
	for j := start; j < min(len(lines), start+12) && k < len(e.words); j++ {
		line := lines[j]
		var b strings.Builder
		last := 0
		for _, loc := range wordPattern.FindAllStringIndex(line, -1) {
			if k < len(e.words) && strings.EqualFold(line[loc[0]:loc[1]], e.words[k]) {
				b.WriteString(line[last:loc[0]])
				last = loc[1]
				k++
			}
		}
		b.WriteString(line[last:])
		lines[j] = b.String()
	}
	return k == len(e.words)
}

// copyWithEdits copies the tree root to dst (made anew; root's .quarry left out) and applies
// each file's edits (by path relative to root); it returns the edits applied, by path and
// line.
func copyWithEdits(root, dst string, edits map[string][]docEdit) (map[string]map[int]bool, error) {
	if err := os.RemoveAll(dst); err != nil {
		return nil, err
	}
	applied := map[string]map[int]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".quarry" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(rel)
		if es := edits[slash]; len(es) > 0 {
			lines := strings.Split(string(b), "\n")
			for _, e := range es {
				if removeWords(lines, e) {
					if applied[slash] == nil {
						applied[slash] = map[int]bool{}
					}
					applied[slash][e.line] = true
				}
			}
			b = []byte(strings.Join(lines, "\n"))
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("copy %s to %s: %w", root, dst, err)
	}
	return applied, nil
}
