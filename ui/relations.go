package ui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"canopy/api"
	"canopy/views/detail"
)

// tagSets remembers, per repo, the tags that any list of that repo brought
// (the tree, a table, an earlier tag detail), so that a tag's detail finds
// the other tags on its digest without listing the whole repo each time:
// what is known shows at once, and one walk per repo completes it. A change
// to the repo (a tag created or deleted, r in the pane) forgets it. Commands
// fill it concurrently, so it locks.
type tagSets struct {
	mu    sync.Mutex
	repos map[string]*repoTags
	order []string // repo uids, the least recently added first
}

// Bounds of what tagSets keeps: the tags of a few repos, and of each at
// most maxIndexed (a detail of a huge repo searches that many, and says
// so), so that memory does not grow with a million-tag repo scrolled in a
// table.
const (
	maxIndexed = 50_000
	maxRepos   = 8
)

type repoTags struct {
	gen      int // counts forgets: answers of an older generation are dropped
	tags     map[string]seenTag
	total    int  // the repo's visible tag count, -1 unknown
	complete bool // a walk saw every tag (or maxIndexed) since the last forget
	walking  chan struct{}

	name       string // the repo's name, "" until known
	advised    bool   // advisories holds the answer for name
	advisories []api.Advisory
}

type seenTag struct {
	name, digest string
	deprecated   bool
}

func newTagSets() *tagSets { return &tagSets{repos: map[string]*repoTags{}} }

// repo is the entry of a repo, made on first use; call with mu held.
func (ts *tagSets) repo(uid string) *repoTags {
	r := ts.repos[uid]
	if r == nil {
		r = &repoTags{tags: map[string]seenTag{}, total: -1}
		ts.repos[uid] = r
		ts.order = append(ts.order, uid)
		if len(ts.order) > maxRepos {
			// A walk of the evicted repo finishes on its own entry, unseen.
			delete(ts.repos, ts.order[0])
			ts.order = ts.order[1:]
		}
	}
	return r
}

// add records tags of a repo seen in generation gen.
func (ts *tagSets) add(repo string, gen int, tags []api.Tag, total int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	r := ts.repo(repo)
	if r.gen != gen {
		return
	}
	for _, t := range tags {
		if len(r.tags) >= maxIndexed {
			break
		}
		r.tags[t.UID] = seenTag{name: t.Name, digest: t.Digest, deprecated: t.Deprecated}
	}
	r.total = total
}

func (ts *tagSets) size(repo string) int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.repo(repo).tags)
}

func (ts *tagSets) gen(repo string) int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.repo(repo).gen
}

// forget drops what is known of a repo's tags (a change, or a refresh).
func (ts *tagSets) forget(repo string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if r := ts.repos[repo]; r != nil {
		r.gen++
		clear(r.tags)
		r.total, r.complete, r.advised, r.advisories = -1, false, false, nil
	}
}

// observe wraps the tag lister: every plain page of one repo's tags (no
// name filter, no hidden kinds) is remembered.
func (ts *tagSets) observe(list api.Lister[api.Tag]) api.Lister[api.Tag] {
	return func(ctx context.Context, o api.ListOptions) (*api.Page[api.Tag], error) {
		plain := o.ChildrenOf != "" && o.Name == "" && !o.IncludeDates && !o.IncludeEpochs && !o.IncludeReferrers
		gen := 0
		if plain {
			gen = ts.gen(o.ChildrenOf)
		}
		p, err := list(ctx, o)
		if err == nil && plain {
			ts.add(o.ChildrenOf, gen, p.Items, int(p.TotalOr(-1)))
		}
		return p, err
	}
}

// known is what is known of a tag's relations now, without a request; nil
// when nothing is.
func (ts *tagSets) known(t *api.Tag, repoName string) *detail.Related {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	r := ts.repos[api.ParentUID(t.UID)]
	if r == nil || len(r.tags) == 0 {
		return nil
	}
	rel := r.related(t)
	if rel.Repo == "" {
		rel.Repo = repoName
	}
	rel.Partial = !r.complete || !r.advised
	return &rel
}

// related is what r knows of t's relations; call with mu held.
func (r *repoTags) related(t *api.Tag) detail.Related {
	// Of is 0 (unknown) while the server gives no total and the walk is not
	// over: nothing may assume a total it did not send.
	of := r.total
	if of >= 0 || r.complete {
		of = max(of, len(r.tags))
	}
	rel := detail.Related{Repo: r.name, Searched: len(r.tags), Of: max(of, 0)}
	for uid, o := range r.tags {
		if o.digest == t.Digest && uid != t.UID {
			rel.Siblings = append(rel.Siblings, detail.Sibling{Name: o.name, Deprecated: o.deprecated})
		}
	}
	sort.Slice(rel.Siblings, func(i, j int) bool { return rel.Siblings[i].Name < rel.Siblings[j].Name })
	if r.advised {
		rel.Advisories = r.advisories
		rel.Artifacts = artifactNames(r.name)
	}
	return rel
}

// walk lists every tag of a repo once (other callers wait for it), unless
// a walk already saw them all since the last change.
func (ts *tagSets) walk(ctx context.Context, c *api.Client, repo string) error {
	for {
		ts.mu.Lock()
		r := ts.repo(repo)
		if r.complete {
			ts.mu.Unlock()
			return nil
		}
		if ch := r.walking; ch != nil {
			ts.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		ch := make(chan struct{})
		r.walking = ch
		gen := r.gen
		ts.mu.Unlock()

		err := ts.walkPages(ctx, c, repo, gen)
		ts.mu.Lock()
		if err == nil && r.gen == gen {
			r.complete = true
		}
		r.walking = nil
		close(ch)
		ts.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

func (ts *tagSets) walkPages(ctx context.Context, c *api.Client, repo string, gen int) error {
	o := api.ListOptions{ChildrenOf: repo, PageSize: api.MaxPageSize}
	for {
		p, err := c.ListTags(ctx, o)
		if err != nil {
			return err
		}
		ts.add(repo, gen, p.Items, int(p.TotalOr(-1)))
		if p.Last() || ts.size(repo) >= maxIndexed {
			return nil
		}
		o.PageToken = p.NextPageToken
	}
}

// advise finds the advisories of a repo's artifact names once (see
// artifactOf), keeping the answer until the repo is forgotten.
func (ts *tagSets) advise(ctx context.Context, c *api.Client, repo string) error {
	ts.mu.Lock()
	r := ts.repo(repo)
	name, gen, done := r.name, r.gen, r.advised
	ts.mu.Unlock()
	if done {
		return nil
	}
	if name == "" {
		got, err := c.GetRepo(ctx, repo)
		if err != nil {
			return fmt.Errorf("repo: %w", err)
		}
		name = got.Name
	}
	var out []api.Advisory
	// `query` is a substring match; only whole artifact names are kept.
	cur := api.NewCursor(c.ListAdvisories, api.ListOptions{Query: name, PageSize: api.MaxPageSize}, api.AdvisoryKey)
	for a, err := range cur.All(ctx) {
		if err != nil {
			return fmt.Errorf("advisories of %s: %w", name, err)
		}
		if artifactOf(name, a.ArtifactName) {
			out = append(out, a)
		}
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if r.gen == gen {
		r.name, r.advised, r.advisories = name, true, out
	}
	return nil
}

// artifactOf reports whether an advisory's artifact is a repo's: its name,
// or its name and a version ("python-3.13" for python), not another image
// whose name merely starts the same ("node-exporter" for node).
func artifactOf(repo, artifact string) bool {
	if artifact == repo {
		return true
	}
	rest, ok := strings.CutPrefix(artifact, repo+"-")
	return ok && rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// artifactNames are the artifact names searched for a repo, as the heading
// shows them.
func artifactNames(repo string) []string {
	if repo == "" {
		return nil
	}
	return []string{repo, repo + "-<version>"}
}

// related is a tag's relations, complete: its repo's name, the other tags
// on its digest and the advisories of its artifact names.
// A failure keeps what was found before it.
func (ts *tagSets) related(ctx context.Context, c *api.Client, t *api.Tag) (detail.Related, error) {
	repo := api.ParentUID(t.UID)
	current := func() detail.Related {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return ts.repo(repo).related(t)
	}
	if err := ts.walk(ctx, c, repo); err != nil {
		return current(), fmt.Errorf("tags of the repo: %w", err)
	}
	if err := ts.advise(ctx, c, repo); err != nil {
		return current(), err
	}
	return current(), nil
}
