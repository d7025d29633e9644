// Package state is what canopy keeps between runs, in the state directory:
// per API and organization, where the user left the explorer (the open
// branches of the tree, the cursor, the last command), and which
// organization of an API was open last. The file is small and bounded; a
// file that cannot be read is treated as none (it is a convenience, never
// a reason not to start), and it is written whole, atomically.
package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"canopy/files"
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
// one open there), dropping the oldest beyond the bounds. Canopy processes
// saving at once wait for each other, and each adds its session to what
// the one before wrote: none loses another's. The wait ends with ctx. A file that does not hold
// sessions is replaced; one that is not a regular file is not.
func (s *Store) Save(ctx context.Context, api string, sess Session) error {
	sess.Open = bound(sess.Open)
	if len(sess.Cursor) > maxPath {
		sess.Cursor = nil
	}
	err := files.Rewrite(ctx, s.path, maxBytes, func(old []byte) ([]byte, error) {
		all, err := decode(s.path, old)
		if err != nil {
			all = map[string]API{} // not canopy's sessions: replaced
		}
		a := all[api]
		a.Orgs = maps.Clone(a.Orgs)
		if a.Orgs == nil {
			a.Orgs = map[string]Session{}
		}
		a.LastOrg, a.Orgs[sess.OrgUID] = sess.OrgUID, sess
		a.Orgs = newest(a.Orgs, maxOrgs, func(s Session) time.Time { return s.Saved })
		all[api] = a
		all = newest(all, maxAPIs, func(a API) time.Time { return a.Orgs[a.LastOrg].Saved })
		return json.MarshalIndent(all, "", " ")
	})
	if err != nil {
		return fmt.Errorf("the session was not kept: %w", err)
	}
	return nil
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
	b, err := files.Read(s.path, maxBytes)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]API{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the sessions: %w", err)
	}
	return decode(s.path, b)
}

// decode reads the file's text (none: no sessions).
func decode(path string, b []byte) (map[string]API, error) {
	all := map[string]API{}
	if len(b) == 0 {
		return all, nil
	}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return all, nil
}
