// Package state is what canopy keeps between runs, in the state directory:
// per API and organization, where the user left the explorer (the open
// branches of the tree, the cursor, the last command), and which
// organization of an API was open last. The file is small and bounded; a
// file that cannot be read is treated as none (it is a convenience, never
// a reason not to start), and it is written whole, atomically.
package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Session is where the explorer was left on one organization.
type Session struct {
	OrgUID  string `json:"org"`
	OrgName string `json:"orgName,omitempty"`
	// Open are the tree's open branches (each the ids from a root down),
	// Cursor the path of the node under the cursor.
	Open    [][]string `json:"open,omitempty"`
	Cursor  []string   `json:"cursor,omitempty"`
	Command string     `json:"command,omitempty"` // the last `:` line run
	Saved   time.Time  `json:"saved"`
}

// API is what is kept of one API: its organizations' sessions, and the
// last one open.
type API struct {
	LastOrg string             `json:"lastOrg,omitempty"`
	Orgs    map[string]Session `json:"orgs,omitempty"`
}

// Bounds of what is kept: a session per organization of a few APIs, each
// with a few dozen branches.
const (
	maxAPIs     = 16
	maxOrgs     = 32
	MaxBranches = 32
	maxPath     = 64
	maxBytes    = 1 << 20
)

// Store is the state file.
type Store struct{ path string }

// Open is the store in dir (the state directory).
func Open(dir string) *Store { return &Store{path: filepath.Join(dir, "sessions.json")} }

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// Load reads what is kept of api ("" host: nothing). A missing file, or
// one that is not a regular file or not what canopy wrote, is nothing
// kept; err says why a file that is there was not read.
func (s *Store) Load(api string) (API, error) {
	all, err := s.read()
	if err != nil {
		return API{}, err
	}
	return all[api], nil
}

// Save keeps the session of an organization of api (and makes it the last
// one open there), dropping the oldest beyond the bounds.
func (s *Store) Save(api string, sess Session) error {
	all, err := s.read()
	if err != nil {
		all = map[string]API{} // a file canopy cannot read is replaced
	}
	sess.Open = bound(sess.Open)
	if len(sess.Cursor) > maxPath {
		sess.Cursor = nil
	}
	a := all[api]
	if a.Orgs == nil {
		a.Orgs = map[string]Session{}
	}
	a.LastOrg, a.Orgs[sess.OrgUID] = sess.OrgUID, sess
	a.Orgs = newest(a.Orgs, maxOrgs, func(s Session) time.Time { return s.Saved })
	all[api] = a
	all = newest(all, maxAPIs, func(a API) time.Time { return a.Orgs[a.LastOrg].Saved })
	return s.write(all)
}

// bound keeps the first branches, and only paths of a sane depth.
func bound(open [][]string) [][]string {
	var out [][]string
	for _, p := range open {
		if len(out) == MaxBranches {
			break
		}
		if len(p) > 0 && len(p) <= maxPath {
			out = append(out, p)
		}
	}
	return out
}

// newest keeps the n entries of m saved last.
func newest[V any](m map[string]V, n int, saved func(V) time.Time) map[string]V {
	if len(m) <= n {
		return m
	}
	keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int { return saved(m[b]).Compare(saved(m[a])) })
	for _, k := range keys[n:] {
		delete(m, k)
	}
	return m
}

// read reads the whole file: by API.
func (s *Store) read() (map[string]API, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]API{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: not a regular file", s.path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.path, err)
	}
	if len(b) > maxBytes {
		return nil, fmt.Errorf("read %s: larger than %d bytes", s.path, maxBytes)
	}
	all := map[string]API{}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("read %s: %w", s.path, err)
	}
	return all, nil
}

// write replaces the file: a temporary file renamed over it, mode 0600.
func (s *Store) write(all map[string]API) error {
	b, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save the session: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".sessions-*.json")
	if err != nil {
		return fmt.Errorf("save the session: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save the session: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the session: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("save the session: %w", err)
	}
	return nil
}
