// Package reliability is Quarry's reliability suite (issue 13): what the index does when the
// process writing it is killed at any moment, and when the files it reads are hostile. It
// holds tests only (they drive the built quarry binary and tools.Service); they are long, so
// they run only when QUARRY_RELIABILITY is set, which .ci/run does after the unit tests. Each
// test says what it proves and prints its figures.
package reliability
