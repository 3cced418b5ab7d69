package workspace

// The registry is <primary root>/.quarry/registry.json:
//
//	{
//	  "version": 1,
//	  "primary":    {"id": "quarry_1a2b3c4d", "root": "/abs/path", "name": "quarry",
//	                 "added": "2026-11-22T04:00:00Z", "last_indexed": "2026-11-22T04:01:00Z"},
//	  "references": [ {same fields}, ... ]
//	}
//
// Times are UTC. It is written whole to a temporary file and renamed into place, so a crash
// never leaves half a registry.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/suggest"
)

// registryVersion is the version of registry.json this code reads and writes.
const registryVersion = 1

// ErrUnknownWorkspace is wrapped by the error for a workspace id the registry does not have.
var ErrUnknownWorkspace = errors.New("unknown workspace")

// Entry is one workspace of the registry.
type Entry struct {
	ID          string    `json:"id"`
	Root        string    `json:"root"`
	Name        string    `json:"name"`
	Added       time.Time `json:"added"`
	LastIndexed time.Time `json:"last_indexed,omitzero"`
}

// Registry is the primary workspace and its reference workspaces.
type Registry struct {
	Version    int     `json:"version"`
	Primary    Entry   `json:"primary"`
	References []Entry `json:"references"`
	path       string
}

// LoadRegistry reads the registry of the primary workspace at root, or returns a new one
// (not yet saved) when there is none.
func LoadRegistry(root string) (*Registry, error) {
	p := filepath.Join(root, DataDir, registryFile)
	key, keyed := registryFileKey(p)
	if keyed {
		if r, ok := registryCache.Load(p); ok && r.(*cachedRegistry).key == key {
			return r.(*cachedRegistry).reg.clone(), nil
		}
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return &Registry{Version: registryVersion, Primary: newEntry(root, ""), References: []Entry{}, path: p}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: read %s: %w", p, err)
	}
	var r Registry
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("workspace: %s is not a valid registry (%v); remove it and run quarry index again", p, err)
	}
	if r.Version > registryVersion {
		return nil, fmt.Errorf("workspace: %s has version %d; this Quarry reads version %d", p, r.Version, registryVersion)
	}
	r.path = p
	if r.References == nil {
		r.References = []Entry{}
	}
	if keyed {
		registryCache.Store(p, &cachedRegistry{key: key, reg: r.clone()})
	}
	return &r, nil
}

// registryCache keeps each registry file read, by path, with the file's identity when it
// was read: a resident server reads the registry a few times a search (a read and a JSON
// decode, against a stat). Save replaces the file (a new inode), and any write moves its
// change time.
var registryCache sync.Map // path -> *cachedRegistry

type cachedRegistry struct {
	key registryKey
	reg *Registry
}

// registryKey identifies a registry file's content: its inode, size and modification and
// change times.
type registryKey struct {
	ino, size, mtime, ctime int64
}

// registryFileKey returns the key of the file at p, when the system gives one.
func registryFileKey(p string) (registryKey, bool) {
	st, err := os.Stat(p)
	if err != nil {
		return registryKey{}, false
	}
	return fileKey(st)
}

// clone returns a copy of r that shares nothing with it.
func (r *Registry) clone() *Registry {
	c := *r
	c.References = slices.Clone(r.References)
	return &c
}

func newEntry(root, name string) Entry {
	if name == "" {
		name = filepath.Base(root)
	}
	return Entry{ID: ID(root), Root: root, Name: name, Added: time.Now().UTC().Truncate(time.Second)}
}

// Save writes the registry atomically.
func (r *Registry) Save() error {
	if err := os.MkdirAll(filepath.Dir(r.path), store.DirMode); err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := r.path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), store.FileMode); err != nil {
		return fmt.Errorf("workspace: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, r.path); err != nil {
		return fmt.Errorf("workspace: write %s: %w", r.path, err)
	}
	return nil
}

// Add registers the directory at path as a reference workspace and returns its entry. Adding
// the same directory twice returns the existing entry.
func (r *Registry) Add(path, name string) (Entry, error) {
	root, err := CanonicalDir(path)
	if err != nil {
		return Entry{}, err
	}
	if root == r.Primary.Root {
		return Entry{}, fmt.Errorf("workspace: %s is the primary workspace; a reference workspace is another directory", path)
	}
	id := ID(root)
	for _, e := range r.References {
		if e.ID == id {
			return e, nil
		}
	}
	e := newEntry(root, name)
	r.References = append(r.References, e)
	sort.Slice(r.References, func(i, j int) bool { return r.References[i].ID < r.References[j].ID })
	return e, nil
}

// Remove unregisters the reference workspace id.
func (r *Registry) Remove(id string) (Entry, error) {
	for i, e := range r.References {
		if e.ID == id {
			r.References = slices.Delete(r.References, i, i+1)
			return e, nil
		}
	}
	return Entry{}, r.unknown(id)
}

// Lookup returns the workspace id: the primary, a reference, or "primary" for the primary.
func (r *Registry) Lookup(id string) (Entry, error) {
	if id == "" || id == "primary" || id == r.Primary.ID {
		return r.Primary, nil
	}
	for _, e := range r.References {
		if e.ID == id || e.Name == id {
			return e, nil
		}
	}
	return Entry{}, r.unknown(id)
}

// All returns the primary workspace followed by the references.
func (r *Registry) All() []Entry { return append([]Entry{r.Primary}, r.References...) }

// MarkIndexed records that workspace id was just indexed.
func (r *Registry) MarkIndexed(id string, at time.Time) {
	at = at.UTC().Truncate(time.Second)
	if id == r.Primary.ID {
		r.Primary.LastIndexed = at
	}
	for i := range r.References {
		if r.References[i].ID == id {
			r.References[i].LastIndexed = at
		}
	}
}

// unknown is the error for an id the registry lacks, with the closest known ids.
func (r *Registry) unknown(id string) error {
	var ids []string
	for _, e := range r.All() {
		ids = append(ids, e.ID)
	}
	msg := fmt.Sprintf("%s %q", ErrUnknownWorkspace, id)
	if best := suggest.Closest(id, ids); best != "" {
		msg += fmt.Sprintf("; did you mean %s?", best)
	}
	msg += "; known: " + strings.Join(ids, ", ")
	return &unknownWorkspaceError{msg: msg}
}

// unknownWorkspaceError is ErrUnknownWorkspace with the id and the known ones.
type unknownWorkspaceError struct{ msg string }

func (e *unknownWorkspaceError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrUnknownWorkspace) true.
func (e *unknownWorkspaceError) Is(target error) bool { return target == ErrUnknownWorkspace }
