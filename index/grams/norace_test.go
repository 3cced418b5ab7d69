//go:build !race

package grams

const raceEnabled = false
