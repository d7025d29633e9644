package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"

	"canopy/api"
	"canopy/views/columns"
)

// repoLookup names the repos of an organization's tags, for their REPO
// column (a table's, and the column --filter searches, in JSON too). It
// asks only for the repos a page of tags names that it has not asked for
// yet, by their uids (the repos list's uidp.ids), as soon as the page is
// read, and keeps the names for the pages after: the first page is printed
// once its own repos are named, not once every repo of the organization
// is. A server that ignores that filter, or refuses it, has every repo
// read once instead (at most defaultMaxItems, as every lookup of canopy
// list); a repo the answer lacks (deleted meanwhile) shows as a repo
// canopy does not know, by a short uid, never by another's name.
type repoLookup struct {
	client *api.Client
	org    string
	ctx    context.Context // the lookups', ended by stop
	cancel context.CancelFunc
	slots  chan struct{} // bounds the lookups in flight
	wg     sync.WaitGroup
	every  func() (map[string]string, error) // every repo's name, read once, when uidp.ids fails

	mu    sync.Mutex
	asked map[string]*repoBatch // by repo uid: the lookup that asks for it
	first *repoBatch            // the walk's first lookup, nil before it

	// names are the repos' names the printing goroutine has taken from
	// settled lookups ("" for a uid the answer lacked): only it reads
	// and writes them (ready, column), so the column needs no lock.
	names map[string]string
}

// repoBatch is one lookup: its names are written before done is closed
// and only read after.
type repoBatch struct {
	ids   []string
	done  chan struct{}
	names map[string]string
	err   error
}

// Lookups in flight at once, and the bytes of uids one sends: a page of
// 200 tags may name 200 repos (the large demo's first page does), some
// 100 bytes each as a query parameter, more than a URL should carry
// (servers refuse request lines past 8 KiB): 6 lookups of 4 KiB ask for
// such a page at once, one round trip.
const (
	repoLookupsInFlight = 6
	repoLookupQueryMax  = 4 << 10
)

// lookRepos starts a lookup of org's repos' names; stop ends the lookups
// in flight and returns once they have ended.
func (r listRequest) lookRepos(ctx context.Context) (l *repoLookup, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	l = &repoLookup{client: r.client, org: r.org.UID, ctx: ctx, cancel: cancel, slots: make(chan struct{}, repoLookupsInFlight),
		asked: map[string]*repoBatch{}, names: map[string]string{}}
	l.every = sync.OnceValues(l.readEvery)
	return l, func() {
		cancel()
		l.wg.Wait()
	}
}

// lister is list, asking for the repos of each page's tags that keep
// holds for (nil: every one) as the page arrives, while the page before
// is printed. No page is asked for while the walk's first lookup runs:
// it names the first rows, which are printed sooner with the machine to
// itself.
func (l *repoLookup) lister(list api.Lister[api.Tag], keep func(*api.Tag) bool) api.Lister[api.Tag] {
	return func(ctx context.Context, o api.ListOptions) (*api.Page[api.Tag], error) {
		if first := l.firstLookup(); first != nil {
			select {
			case <-first.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		p, err := list(ctx, o)
		if p != nil {
			l.ask(p.Items, keep)
		}
		return p, err
	}
}

// ask starts the lookups of the repos of tags not asked for yet, in
// batches of at most a page of repos and repoLookupQueryMax bytes of uids.
func (l *repoLookup) ask(tags []api.Tag, keep func(*api.Tag) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	firstAsk := l.first == nil
	var started []*repoBatch
	var b *repoBatch
	size := 0
	for i := range tags {
		uid := api.ParentUID(tags[i].UID)
		if uid == "" || l.asked[uid] != nil || keep != nil && !keep(&tags[i]) {
			continue
		}
		n := len("&uidp.ids=") + len(url.QueryEscape(uid))
		if b == nil || len(b.ids) == api.MaxPageSize || size+n > repoLookupQueryMax {
			b, size = &repoBatch{done: make(chan struct{})}, 0
			started = append(started, b)
		}
		b.ids = append(b.ids, uid)
		size += n
		l.asked[uid] = b
	}
	if firstAsk && len(started) > 0 {
		l.first = started[0]
	}
	for i, b := range started {
		// The walk's first lookup goes alone, the others of its page once
		// it has answered: it names the first rows, and the first row is
		// printed sooner than if it shared the machine with them.
		var after <-chan struct{}
		if firstAsk && i > 0 {
			after = started[0].done
		}
		l.wg.Add(1)
		go l.fetch(b, after)
	}
}

// errIDsIgnored ends a lookup whose answer shows the server ignores
// uidp.ids: its pages would be every repo, again for each lookup.
var errIDsIgnored = errors.New("the server ignores uidp.ids")

// fetch runs one lookup, once after is closed (nil: at once): the repos
// of b's uids, or, when the server ignores or refuses the filter, every
// repo's name, read once for all.
func (l *repoLookup) fetch(b *repoBatch, after <-chan struct{}) {
	defer l.wg.Done()
	defer close(b.done)
	if after != nil {
		select {
		case <-after:
		case <-l.ctx.Done():
			b.err = l.ctx.Err()
			return
		}
	}
	select {
	case l.slots <- struct{}{}:
		defer func() { <-l.slots }()
	case <-l.ctx.Done():
		b.err = l.ctx.Err()
		return
	}
	if !l.idsIgnored() {
		names, err := l.byIDs(b.ids)
		switch {
		case err == nil:
			b.names = names
			return
		case !errors.Is(err, errIDsIgnored) && !api.IsInvalidArgument(err):
			b.err = fmt.Errorf("list repos for the REPO column: %w", err)
			return
		}
	}
	b.names, b.err = l.every()
}

func (l *repoLookup) idsIgnored() bool {
	return slices.Contains(l.client.IgnoredFilters("repos"), "uidp.ids")
}

// byIDs reads the repos of these uids below the organization. Its
// cursor remembers what it read whole, not in pages' window of 100,000
// (a lookup reads a page of repos at most, and there are hundreds of
// lookups); it stops once every uid is answered. A server cannot make it
// endless: an item of another uid shows the filter ignored, and repeats
// of the same ones stop the cursor (api.ErrPagingStuck).
func (l *repoLookup) byIDs(ids []string) (map[string]string, error) {
	names := make(map[string]string, len(ids))
	opts := api.ListOptions{DescendantsOf: l.org, IDs: ids, PageSize: api.MaxPageSize}
	c := api.NewCursor(l.client.ListRepos, opts, api.RepoKey)
	for !c.Done() && len(names) < len(ids) {
		p, err := c.Next(l.ctx)
		if err != nil {
			return nil, err
		}
		if l.idsIgnored() {
			return nil, errIDsIgnored
		}
		if p == nil {
			break
		}
		for _, repo := range p.Items {
			names[repo.UID] = repo.Name
		}
	}
	return names, nil
}

// readEvery reads every repo's name below the organization, as canopy
// list did before it asked by uid: the way for a server without uidp.ids.
func (l *repoLookup) readEvery() (map[string]string, error) {
	names := map[string]string{}
	// --max-items bounds the rows listed, not what their columns look up.
	opts := api.ListOptions{DescendantsOf: l.org, PageSize: api.MaxPageSize}
	_, err := pages(l.ctx, "repos", l.client.ListRepos, api.RepoKey, opts, defaultMaxItems, func(repos []api.Repo) error {
		for _, repo := range repos {
			names[repo.UID] = repo.Name
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list repos for the REPO column: %w", err)
	}
	return names, nil
}

// ready returns how many of tags, from the first, have their repos named,
// once the first has (or with the error of its lookup, or ctx's): a tag is
// printed once its REPO column can be, and the first tags of a page while
// the others' lookups run (the first lookup of a page asks for its first
// repos). It runs in the printing goroutine, the one that reads the names.
func (l *repoLookup) ready(ctx context.Context, tags []api.Tag) (int, error) {
	for i := range tags {
		uid := api.ParentUID(tags[i].UID)
		if _, known := l.names[uid]; known || uid == "" {
			continue
		}
		b := l.batchOf(uid)
		if b == nil { // not read through lister: asked now
			l.ask(tags[i:i+1], nil)
			b = l.batchOf(uid)
		}
		if i > 0 && !settled(b) {
			return i, nil // the tags before are printed meanwhile
		}
		select {
		case <-b.done:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		if b.err != nil {
			if i > 0 {
				return i, nil // the tags before are printed first
			}
			return 0, b.err
		}
		for _, id := range b.ids {
			l.names[id] = b.names[id]
		}
		b.names = nil // every one taken: the lookup keeps only its uids, which ask needs
	}
	return len(tags), nil
}

// settled reports whether b's lookup has ended.
func settled(b *repoBatch) bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// firstLookup is the walk's first lookup, nil before one has started.
func (l *repoLookup) firstLookup() *repoBatch {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.first
}

// batchOf is the lookup that asks for the repo of this uid, nil before
// one does.
func (l *repoLookup) batchOf(uid string) *repoBatch {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.asked[uid]
}

// column is the REPO column's resolver: the names ready took.
func (l *repoLookup) column() columns.Names {
	return func() func(string) string { return func(uid string) string { return l.names[uid] } }
}
