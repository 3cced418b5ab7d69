// Package layers holds no code: its test checks that every package of the module imports
// only what the import table of ARCHITECTURE.md allows (allowed.txt, beside the test).
package layers
