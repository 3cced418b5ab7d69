// Package grams is a file-level trigram index of file text (documentation to come).
package grams
