package emulator

import "sync/atomic"

// Progress is how far a server's seeding has come (see Start).
type Progress struct {
	// Repos of the registry seeded so far, with their tags, of AllRepos
	// (the large size has about 7,800, and a million tags).
	Repos, AllRepos int
	Tags            int  // tags seeded so far
	Indexing        bool // every item is in: the lists are being sorted
	Ready           bool // seeded and indexed: the server answers
}

// progress is Progress as the seeding goroutine keeps it.
type progress struct {
	repos, allRepos, tags atomic.Int64
	indexing              atomic.Bool
}

// repoSeeded counts a registry repo, whose tags make tags in all.
func (p *progress) repoSeeded(tags int) {
	if p != nil {
		p.repos.Add(1)
		p.tags.Store(int64(tags))
	}
}

// Progress says how far the seeding has come.
func (srv *Server) Progress() Progress {
	p := &srv.progress
	out := Progress{Repos: int(p.repos.Load()), AllRepos: int(p.allRepos.Load()), Tags: int(p.tags.Load()),
		Indexing: p.indexing.Load()}
	select {
	case <-srv.ready:
		out.Ready = true
		out.Tags = srv.tagCount()
	default:
	}
	return out
}

// tagCount is the number of live tags, made or not, under the read lock.
func (srv *Server) tagCount() int {
	srv.st.mu.RLock()
	defer srv.st.mu.RUnlock()
	return srv.st.tagTotal()
}
