package emulator

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
)

// seeding is what a server's data was seeded from.
type seeding struct {
	seed    int64
	size    string
	hostile bool
}

// Fork is a new server holding a copy of srv's data as it is now: what one
// of them is asked to change, the other never sees. Its behaviour (token,
// latency, failures, page token lifetime, clock, strictness) is opts';
// its data is srv's, so opts' Seed, Size and Hostile must be left zero or
// be srv's. A fork of a freshly seeded server answers as a fresh seeding
// would, uids of what is created included, at a fraction of the cost:
// that is what it is for (many servers from one seeding, as tests want).
// It waits until srv is seeded.
func (srv *Server) Fork(opts Options) (*Server, error) {
	<-srv.ready
	if opts.Seed != 0 && opts.Seed != srv.seeded.seed || opts.Size != "" && opts.Size != srv.seeded.size ||
		opts.Hostile && !srv.seeded.hostile {
		return nil, fmt.Errorf("emulator: a fork keeps its source's data (seed %d, size %s, hostile %v): options ask for seed %d, size %q, hostile %v",
			srv.seeded.seed, srv.seeded.size, srv.seeded.hostile, opts.Seed, opts.Size, opts.Hostile)
	}
	opts.Seed, opts.Size, opts.Hostile = srv.seeded.seed, srv.seeded.size, srv.seeded.hostile
	fork, err := newServer(opts)
	if err != nil {
		return nil, err
	}
	srv.st.mu.RLock()
	fork.st = srv.st.clone()
	srv.st.mu.RUnlock()
	fork.org = srv.org
	fork.progress.repos.Store(srv.progress.repos.Load())
	fork.progress.allRepos.Store(srv.progress.allRepos.Load())
	fork.progress.tags.Store(srv.progress.tags.Load())
	fork.progress.indexing.Store(true)
	close(fork.ready)
	return fork, nil
}

// clone is a deep copy of the store, as far as anything is ever changed in
// place: items are replaced whole when they change (coll.update), so the
// values they point to are shared.
func (s *store) clone() *store {
	c := newStore(0)
	pcg := *s.pcg
	c.pcg = &pcg
	c.rng = rand.New(c.pcg) // a rand.Rand keeps no state but its source's
	c.orgs = slices.Clone(s.orgs)
	c.tagParents = s.tagParents.clone()
	c.tagNames = s.tagNames.clone()
	c.lazy = s.lazy.clone()
	copyColl(c.groups, s.groups)
	copyColl(c.idents, s.idents)
	copyColl(c.roles, s.roles)
	copyColl(c.bindings, s.bindings)
	copyColl(c.repos, s.repos)
	copyColl(c.tags, s.tags)
	copyColl(c.subs, s.subs)
	copyColl(c.providers, s.providers)
	c.provRecs = maps.Clone(s.provRecs)
	copyColl(c.invites, s.invites)
	copyColl(c.mappings, s.mappings)
	copyColl(c.assocs, s.assocs)
	copyColl(c.terms, s.terms)
	copyColl(c.advs, s.advs)
	copyColl(c.artifacts, s.artifacts)
	copyColl(c.versions, s.versions)
	c.people = s.people.clone()
	return c
}

func (p pool) clone() pool { return pool{strs: slices.Clone(p.strs), ids: maps.Clone(p.ids)} }

// copyColl makes dst (new, with its own accessors) a copy of src's items
// and indexes. A scope may be in more than one map: it stays one scope.
func copyColl[T any](dst, src *coll[T]) {
	dst.items = slices.Clone(src.items)
	dst.dead = slices.Clone(src.dead)
	dst.live = src.live
	dst.mains = slices.Clone(src.mains)
	copied := map[*scopeIdx]*scopeIdx{}
	scope := func(s *scopeIdx) *scopeIdx {
		if c, ok := copied[s]; ok {
			return c
		}
		c := &scopeIdx{seq: s.seq, view: s.view}
		for f, l := range s.lists {
			if l != nil {
				c.lists[f] = l.clone()
			}
		}
		copied[s] = c
		return c
	}
	dst.global = scope(src.global)
	for _, m := range []struct{ to, from map[string]*scopeIdx }{{dst.desc, src.desc}, {dst.children, src.children}, {dst.byName, src.byName}} {
		for k, s := range m.from {
			m.to[k] = scope(s)
		}
	}
}

// clone copies the list: its entries in one array, each block's run capped
// so that a block that grows moves out rather than over its neighbour.
func (l *blockList) clone() *blockList {
	c := &blockList{blocks: make([]block, len(l.blocks)), pre: slices.Clone(l.pre), classed: l.classed}
	n := 0
	for _, b := range l.blocks {
		n += len(b.ids)
	}
	arena := make([]int32, 0, n)
	for i, b := range l.blocks {
		at := len(arena)
		arena = append(arena, b.ids...)
		c.blocks[i] = block{ids: arena[at:len(arena):len(arena)], cnt: b.cnt}
	}
	return c
}
