// Package suggest finds the known names closest to a mistyped one, for the "did you mean"
// of every error about an unknown flag, command, field, value or workspace.
package suggest

import (
	"sort"
	"strings"
)

// MaxDistance is the largest edit distance at which a known name is suggested.
const MaxDistance = 2

// Candidates returns the known names close to typed, nearest first: those within
// MaxDistance edits (ignoring case), those typed is a prefix of, and those typed abbreviates
// (defs for definitions: the same first letter, then its letters in order).
func Candidates(typed string, known []string) []string {
	type cand struct {
		name string
		dist int
	}
	var cands []cand
	seen := map[string]bool{}
	lt := strings.ToLower(typed)
	for _, k := range known {
		if seen[k] {
			continue
		}
		seen[k] = true
		lk := strings.ToLower(k)
		d := Distance(lt, lk)
		if d <= MaxDistance || len(lt) >= 2 && strings.HasPrefix(lk, lt) || abbreviates(lt, lk) {
			cands = append(cands, cand{k, d})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.name
	}
	return out
}

// Closest returns the nearest of Candidates, or "".
func Closest(typed string, known []string) string {
	if c := Candidates(typed, known); len(c) > 0 {
		return c[0]
	}
	return ""
}

// abbreviates reports whether a, of three letters or more, abbreviates k: k starts with a's
// first letter and holds all of a's letters in order.
func abbreviates(a, k string) bool {
	if len(a) < 3 || k == "" || a[0] != k[0] {
		return false
	}
	i := 0
	for j := 0; j < len(k) && i < len(a); j++ {
		if k[j] == a[i] {
			i++
		}
	}
	return i == len(a)
}

// Distance is the Levenshtein distance between a and b, counted in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
