package cli

import (
	"context"
	"fmt"

	"canopy/api"
	"canopy/views/columns"
)

// repoNames are the organization's repos' names, for the REPO column of
// its tags (a table's, and the column --filter searches, in JSON too):
// read in a goroutine while the first pages of tags are read, so that
// neither waits for the other, and nothing waits for them when no row
// needs them (JSON without --filter has no REPO column). The walk reads
// at most defaultMaxItems repos, as every lookup of canopy list does.
type repoNames struct {
	done   chan struct{}     // closed when the walk has ended
	names  map[string]string // written by the walk until done, only read after
	err    error             // the walk's, once done
	cancel context.CancelFunc
}

// readRepoNames starts reading the names of the repos below the
// organization; stop ends the walk, and returns once it has ended.
func (r listRequest) readRepoNames(ctx context.Context) (names *repoNames, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	n := &repoNames{done: make(chan struct{}), names: map[string]string{}, cancel: cancel}
	go func() {
		defer close(n.done)
		// --max-items bounds the rows listed, not what their columns look up.
		opts := api.ListOptions{DescendantsOf: r.org.UID, PageSize: api.MaxPageSize}
		_, err := pages(ctx, "repos", r.client.ListRepos, api.RepoKey, opts, defaultMaxItems, func(repos []api.Repo) error {
			for _, repo := range repos {
				n.names[repo.UID] = repo.Name
			}
			return nil
		})
		if err != nil {
			n.err = fmt.Errorf("list repos for the REPO column: %w", err)
		}
	}()
	return n, func() {
		cancel()
		<-n.done
	}
}

// wait returns once every name is read, or with the walk's error, or
// ctx's: a page of tags is printed only once its REPO column can be.
func (n *repoNames) wait(ctx context.Context) error {
	select {
	case <-n.done:
		return n.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// column is the REPO column's resolver: it reads the names only once the
// walk is over (wait), and never writes them.
func (n *repoNames) column() columns.Names {
	return func() func(string) string { return func(uid string) string { return n.names[uid] } }
}
