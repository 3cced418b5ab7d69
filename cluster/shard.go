package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
)

// A shard is what a node loads and answers as one: one repository's index, or a compound
// shard of several small repositories' indexes (as zoekt merges small repositories), so
// that a query over thousands of small repositories asks hundreds of shards, not
// thousands. A compound keeps each member's index as its indexer built it: a node
// searches a compound's members at once and merges them as --workspace all does, so the
// answers are the same either way.

// Shard is a shard of the catalog's current state.
type Shard struct {
	Name    string // a repository's name, or a compound's (CompoundName)
	Version string // its repository's shard version, or a hash of its members' names and versions
	Repos   []Repo // its repositories with a built index, by name
}

// Compound reports whether s is a compound shard.
func (s Shard) Compound() bool { return IsCompound(s.Name) }

// ShardName is the name of the shard r is served in.
func (r Repo) ShardName() string {
	if r.Shard != "" {
		return r.Shard
	}
	return r.Name
}

var compoundName = regexp.MustCompile(`^_c[0-9]{4,9}$`)

// IsCompound reports whether name is a compound shard's: "_c" and digits, which no
// repository's name can be (CheckName).
func IsCompound(name string) bool { return compoundName.MatchString(name) }

// CompoundName is the name of compound shard i.
func CompoundName(i int) string { return fmt.Sprintf("_c%04d", i) }

// CheckShardName checks a shard's name: a repository's or a compound's.
func CheckShardName(name string) error {
	if IsCompound(name) {
		return nil
	}
	return CheckName(name)
}

// Shards groups the repositories with a built index into their shards, by name.
func Shards(repos []Repo) []Shard {
	by := map[string]*Shard{}
	var names []string
	for _, r := range repos {
		if r.Version == "" {
			continue
		}
		name := r.ShardName()
		sh := by[name]
		if sh == nil {
			sh = &Shard{Name: name}
			by[name] = sh
			names = append(names, name)
		}
		sh.Repos = append(sh.Repos, r)
	}
	sort.Strings(names)
	out := make([]Shard, 0, len(names))
	for _, name := range names {
		sh := by[name]
		sort.Slice(sh.Repos, func(i, j int) bool { return sh.Repos[i].Name < sh.Repos[j].Name })
		if sh.Compound() {
			h := sha256.New()
			for _, r := range sh.Repos {
				fmt.Fprintf(h, "%s@%s\n", r.Name, r.Version)
			}
			sh.Version = hex.EncodeToString(h.Sum(nil))[:16]
		} else {
			sh.Version = sh.Repos[0].Version
		}
		out = append(out, *sh)
	}
	return out
}

// Compounding is where repositories go: those whose index is at most Small bytes into
// compound shards of up to Max bytes; Max 0 gives every repository a shard of its own.
type Compounding struct {
	Small int64
	Max   int64
}

// DefaultCompounding: a repository whose index is at most 16 MB joins a compound of up to
// 128 MB. See the README's sizing: a shard costs a query about half a millisecond of a
// node's CPU however small it is; a compound is moved as a whole when a node joins or
// leaves, and 128 MB takes about a second on a 1 Gb/s network (a 72 MB index downloads
// from a local JetStream object store in 0.18 s and opens in 6 ms).
var DefaultCompounding = Compounding{Small: 16 << 20, Max: 128 << 20}

// PlaceRepo returns the shard r's new index of size bytes goes in, among the catalog's
// repos: its own when it is not small; else the compound it is in while it still fits;
// else the fullest compound it fits in; else a new one. Indexers that place at once may
// fill a compound past Max by a repository: a compound's size is a target, not a limit.
func (c Compounding) PlaceRepo(repos []Repo, r Repo, size int64) string {
	if c.Max <= 0 || size > c.Small {
		return ""
	}
	fill := map[string]int64{}
	for _, o := range repos {
		if o.Name != r.Name && IsCompound(o.Shard) {
			fill[o.Shard] += o.Bytes
		}
	}
	if IsCompound(r.Shard) && fill[r.Shard]+size <= c.Max {
		return r.Shard
	}
	best, bestFill := "", int64(-1)
	for name, f := range fill {
		if f+size <= c.Max && (f > bestFill || f == bestFill && name < best) {
			best, bestFill = name, f
		}
	}
	if best != "" {
		return best
	}
	for i := 1; ; i++ {
		name := CompoundName(i)
		if _, used := fill[name]; !used {
			return name
		}
	}
}
