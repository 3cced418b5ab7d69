// Package reliability is Quarry's reliability suite (issue 13: a live index is never stale,
// never locked out, and loses nothing): what the index does when the process writing it, a
// quarry index or a watching server, is killed at any moment; when the files it reads change,
// vanish or turn into something else under it, or are hostile; when searches come while a
// writer keeps moving code; how long a saved change takes to be searchable; and when the
// index cannot be written or the disk is full. It holds tests only (they drive the built
// quarry binary and tools.Service); they are long, so they run only when QUARRY_RELIABILITY
// is set, which .ci/run does after the unit tests. Each test says what it proves and prints
// its figures.
package reliability
