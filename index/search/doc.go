// Package search answers a Request over one workspace's index: the full-text index finds
// and scores candidates, the store verifies and completes them, and the rules of package
// scoring re-rank them, for each target (definitions, content, files, auto, an expression,
// the nearest symbol vectors).
package search
