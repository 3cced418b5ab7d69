package search

import (
	"slices"
	"strings"
	"sync"

	"github.com/quarrysearch/quarry/index/fulltext"
)

// A prose query says what code does in a reader's words, which are rarely the code's: "delete
// a folder" for remove_dir, "stop the server" for Shutdown. The thesaurus groups words that
// name the same thing in code (general programming vocabulary, not any project's); a prose
// query searches each word's group too, and a word found only through its group counts for
// less (proseRelatedWeight).
//
// Words a workspace's own doc comments tie to name words (pointwise mutual information of
// doc-comment words and name words over the documented symbols, learned at index time) were
// tried as related words too: on the dev descriptions they lowered MRR@10 from 0.502 to
// 0.468 (searched and counted) or 0.488 (counted only); learned associations are for the
// vector side of hybrid search.

// thesaurusGroups are the groups of words that name the same thing in code, by Porter stem
// so that every inflection of a word finds its group.
var thesaurusGroups = [][]string{
	{"remove", "delete", "erase", "drop", "strip", "purge", "discard", "unlink", "rm", "del"},
	{"create", "make", "new", "build", "construct", "generate", "spawn", "alloc", "allocate"},
	{"start", "begin", "launch", "run", "boot", "init", "initialize"},
	{"stop", "halt", "shutdown", "shut", "terminate", "kill", "close", "cancel", "abort", "quit", "exit"},
	{"find", "search", "lookup", "locate", "seek"},
	{"get", "fetch", "retrieve", "obtain", "read", "load"},
	{"set", "assign", "put", "store", "save", "write", "persist"},
	{"send", "emit", "post", "publish", "dispatch", "transmit"},
	{"receive", "recv", "accept"},
	{"convert", "transform", "translate", "cast", "coerce"},
	{"encode", "serialize", "marshal", "pack", "dump"},
	{"decode", "deserialize", "unmarshal", "unpack", "parse"},
	{"check", "validate", "verify", "ensure", "assert", "test"},
	{"count", "size", "len", "length", "number", "total", "cardinality", "tally"},
	{"join", "concat", "concatenate", "combine", "merge", "append", "union"},
	{"split", "divide", "partition", "chunk", "tokenize", "separate"},
	{"copy", "clone", "duplicate", "replicate"},
	{"sort", "order", "rank", "arrange"},
	{"compare", "cmp", "equal", "equals", "same", "identical", "match"},
	{"folder", "directory", "dir"},
	{"string", "text", "str"},
	{"identifier", "id", "uuid", "guid"},
	{"error", "exception", "err", "failure", "fault", "panic"},
	{"list", "array", "slice", "vector", "sequence", "vec"},
	{"map", "dict", "dictionary", "hashmap", "table"},
	{"lock", "mutex", "latch", "guard", "synchronize"},
	{"wait", "block", "sleep", "await", "pause"},
	{"timeout", "deadline", "expire", "expiry", "expiration"},
	{"periodic", "interval", "tick", "repeat", "recurring"},
	{"random", "rand", "shuffle"},
	{"hash", "digest", "checksum", "crc", "fingerprint"},
	{"empty", "blank", "none", "nil", "null", "void"},
	{"download", "attachment"},
	{"shift", "rotate", "move"},
	{"cleanup", "finalize", "dispose", "teardown", "release"},
	{"loop", "cycle", "cyclic", "circular"},
	{"shrink", "reduce", "compact", "optimize", "minimize", "trim"},
	{"grow", "expand", "extend", "enlarge", "resize"},
	{"async", "asynchronous", "asynchronously", "future", "promise", "await"},
	{"bit", "bits", "bitset", "bitmap", "flag"},
	{"integer", "int", "number", "long"},
	{"connection", "conn", "socket"},
	{"request", "req"},
	{"response", "resp", "reply"},
	{"message", "msg"},
	{"buffer", "buf"},
	{"config", "configuration", "settings", "options", "opts"},
	{"argument", "arg", "param", "parameter"},
	{"function", "func", "fn", "callback", "handler"},
	{"previous", "prev", "last"},
	{"next", "following", "successor"},
	{"first", "head", "front"},
	{"maximum", "max", "largest", "upper"},
	{"minimum", "min", "smallest", "lower"},
	{"average", "mean", "avg"},
	{"character", "char", "rune"},
	{"position", "pos", "offset", "index"},
	{"temporary", "temp", "tmp"},
	{"initial", "default"},
}

// thesaurus maps a word's stem to the stems of the other words of its groups. Built at
// first use (stemming every word took 2 ms of every process's start).
var thesaurus = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, g := range thesaurusGroups {
		stems := make([]string, len(g))
		for i, w := range g {
			stems[i] = fulltext.Stem(w)
		}
		for i, st := range stems {
			for j, other := range stems {
				if i != j && other != st && !slices.Contains(m[st], other) {
					m[st] = append(m[st], other)
				}
			}
		}
	}
	return m
})

// thesaurusWords maps a stem of the thesaurus to the words it was made from, to search.
var thesaurusWords = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, g := range thesaurusGroups {
		for _, w := range g {
			st := fulltext.Stem(w)
			if !slices.Contains(m[st], w) {
				m[st] = append(m[st], w)
			}
		}
	}
	return m
})

// related returns the words related to w (a lower-case word) by the thesaurus, to search
// for: the words of its groups but itself.
func related(w string) []string {
	var out []string
	for _, st := range thesaurus()[fulltext.Stem(strings.ToLower(w))] {
		out = append(out, thesaurusWords()[st]...)
	}
	return out
}
